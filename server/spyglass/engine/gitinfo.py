"""The workspace's git HEAD (commit and branch), read from the files under ``.git`` without running git (the one
place the engine reads it)."""

from __future__ import annotations

from pathlib import Path


def git_dir(root: Path) -> Path | None:
    """The git directory of the checkout ``root`` is in (``root`` or a folder above it, as git finds it):
    ``.git`` itself, or where a ``.git`` file (worktrees, submodules) points."""
    found = checkout(root)
    return found[1] if found is not None else None


def checkout(root: Path) -> tuple[Path, Path] | None:
    """(the top folder of the checkout ``root`` is in, its git directory); None outside git."""
    for folder in (root, *root.resolve().parents):
        dot = folder / ".git"
        if dot.is_dir():
            return folder, dot
        if dot.is_file():
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                target = Path(text[len("gitdir:") :].strip())
                target = target if target.is_absolute() else (folder / target)
                return (folder, target.resolve()) if target.is_dir() else None
            return None
    return None


def head(root: Path) -> tuple[str | None, str | None]:
    """(commit, branch) of ``root``'s checkout; branch is None when detached, both None outside git."""
    gd = git_dir(root)
    if gd is None:
        return None, None
    try:
        text = (gd / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return None, None
    if not text.startswith("ref:"):
        return (text or None), None
    ref = text[4:].strip()
    branch = ref.removeprefix("refs/heads/")
    common = common_dir(gd)
    for base in (gd, common):
        try:
            return (base / ref).read_text(encoding="utf-8").strip() or None, branch
        except OSError:
            pass
    try:
        for line in (common / "packed-refs").read_text(encoding="utf-8").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return sha, branch
    except OSError:
        pass
    return None, branch  # a branch with no commit yet


def common_dir(gd: Path) -> Path:
    """The repository's own git directory, which a linked worktree's git directory names (itself otherwise)."""
    try:
        rel = (gd / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return gd
    p = Path(rel)
    return (p if p.is_absolute() else gd / p).resolve()


def watched_dirs(root: Path) -> list[Path]:
    """The git folders whose changes move HEAD or a branch of ``root``'s checkout (its git directory and,
    for a linked worktree, the repository's common one); none outside git."""
    gd = git_dir(root)
    if gd is None:
        return []
    common = common_dir(gd)
    return [gd] if common == gd else [gd, common]


def moves_head(path: Path, dirs: list[Path]) -> bool:
    """Whether a change to ``path`` (inside one of ``dirs``) can move HEAD: HEAD itself, a ref, packed refs."""
    for d in dirs:
        if path.is_relative_to(d):
            rel = path.relative_to(d).parts
            return bool(rel) and (rel[0] in ("HEAD", "packed-refs") or rel[0] == "refs")
    return False
