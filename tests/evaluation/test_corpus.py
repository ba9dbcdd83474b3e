"""materialise(): a folder made to hold exactly a commit's tree, touching only what differs."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from gitrepo import _env, git, write

from spyglass.evaluation.corpus import (
    MIRRORS_ENV,
    UnsafePathError,
    find_git_dir,
    manifest_path,
    materialise,
)

OLD_NS = 1_000_000_000 * 1_000_000_000  # 2001-09-09, far from "now"


def snapshot(dest: Path) -> dict[str, str | tuple[str, str]]:
    """Everything under dest except .spyglass: file -> text, link -> ("link", target), empty dir -> "<dir>"."""
    out: dict[str, str | tuple[str, str]] = {}
    for dirpath, dirnames, filenames in os.walk(dest):
        rel_dir = Path(dirpath).relative_to(dest).as_posix()
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d != ".spyglass"]
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(dest).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_file():
                out[rel] = path.read_text(encoding="utf-8")
            elif path.is_dir() and not any(path.iterdir()):
                out[rel] = "<dir>"
    return out


def age(dest: Path) -> None:
    """Give every file and link under dest an old mtime, so a rewrite is always visible."""
    for dirpath, _dirs, filenames in os.walk(dest):
        for name in filenames:
            os.utime(Path(dirpath) / name, ns=(OLD_NS, OLD_NS), follow_symlinks=False)


def mtime(path: Path) -> int:
    return os.lstat(path).st_mtime_ns


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository with two commits; returns (git dir, commit 1, commit 2)."""
    work = tmp_path / "repo"
    work.mkdir()
    git(work, "init", "-q")
    write(work, "README.md", "hello\n")
    write(work, "src/pkg/a.py", "a = 1\n")
    write(work, "src/pkg/b.py", "b = 2\n")
    write(work, "src/pkg/copy_of_b.py", "b = 2\n")  # the same blob twice
    write(work, "src/old.py", "old = True\n")
    write(work, "gone.txt", "bye\n")
    write(work, "dir_to_file/x.txt", "x\n")
    write(work, "file_to_dir", "f\n")
    write(work, "run.sh", "#!/bin/sh\necho hi\n")
    os.chmod(work / "run.sh", 0o755)
    os.symlink("src/pkg/a.py", work / "link")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "one")
    c1 = git(work, "rev-parse", "HEAD")

    write(work, "src/pkg/a.py", "a = 100\n")  # modified
    (work / "gone.txt").unlink()  # deleted
    git(work, "mv", "src/old.py", "src/new.py")  # renamed
    (work / "dir_to_file" / "x.txt").unlink()
    (work / "dir_to_file").rmdir()
    write(work, "dir_to_file", "now a file\n")
    (work / "file_to_dir").unlink()
    write(work, "file_to_dir/inner.txt", "inner\n")
    write(work, "deep/er/still/c.py", "c = 3\n")  # nested, new
    (work / "link").unlink()
    os.symlink("README.md", work / "link")  # retargeted
    os.symlink("src/pkg", work / "dirlink")  # a link to a folder
    git(work, "add", "-A")
    git(work, "update-index", "--add", "--cacheinfo", f"160000,{c1},vendor/sub")  # a submodule
    git(work, "commit", "-q", "-m", "two")
    c2 = git(work, "rev-parse", "HEAD")
    return work / ".git", c1, c2


TREE1 = {
    "README.md": "hello\n",
    "src/pkg/a.py": "a = 1\n",
    "src/pkg/b.py": "b = 2\n",
    "src/pkg/copy_of_b.py": "b = 2\n",
    "src/old.py": "old = True\n",
    "gone.txt": "bye\n",
    "dir_to_file/x.txt": "x\n",
    "file_to_dir": "f\n",
    "run.sh": "#!/bin/sh\necho hi\n",
    "link": ("link", "src/pkg/a.py"),
}
TREE2 = {
    "README.md": "hello\n",
    "src/pkg/a.py": "a = 100\n",
    "src/pkg/b.py": "b = 2\n",
    "src/pkg/copy_of_b.py": "b = 2\n",
    "src/new.py": "old = True\n",
    "dir_to_file": "now a file\n",
    "file_to_dir/inner.txt": "inner\n",
    "deep/er/still/c.py": "c = 3\n",
    "run.sh": "#!/bin/sh\necho hi\n",
    "link": ("link", "README.md"),
    "dirlink": ("link", "src/pkg"),
}
UNCHANGED = ["README.md", "src/pkg/b.py", "src/pkg/copy_of_b.py", "run.sh"]


def test_materialise_two_commits_into_the_same_folder(repo, tmp_path):
    git_dir, c1, c2 = repo
    dest = tmp_path / "dest"

    r1 = materialise(git_dir, c1, dest)
    assert snapshot(dest) == TREE1
    assert (r1.commit, r1.written, r1.deleted, r1.unchanged, r1.skipped) == (c1, len(TREE1), 0, 0, 0)
    assert os.access(dest / "run.sh", os.X_OK) and not os.access(dest / "README.md", os.X_OK)
    assert r1.seconds > 0

    # the index lives in .spyglass; strays outside it must go
    write(dest, ".spyglass/index.db", "precious")
    write(dest, "stray.txt", "not in git")
    (dest / "empty" / "nested").mkdir(parents=True)
    os.symlink("/etc", dest / "outside")
    age(dest)

    r2 = materialise(git_dir, c2, dest)
    assert snapshot(dest) == TREE2
    assert (dest / ".spyglass" / "index.db").read_text(encoding="utf-8") == "precious"
    for rel in UNCHANGED:
        assert mtime(dest / rel) == OLD_NS, rel
    for rel in ["src/pkg/a.py", "src/new.py", "link", "dir_to_file"]:
        assert mtime(dest / rel) != OLD_NS, rel
    assert not (dest / "gone.txt").exists() and not (dest / "src" / "old.py").exists()
    assert not (dest / "vendor").exists()  # the submodule is skipped
    assert r2.skipped == 1
    assert r2.unchanged == len(UNCHANGED)
    assert r2.written == len(TREE2) - len(UNCHANGED)
    assert set(r2.changed_paths) == set(TREE2) - set(UNCHANGED)
    assert set(r2.deleted_paths) == {
        "gone.txt",
        "src/old.py",
        "dir_to_file/x.txt",
        "file_to_dir",
        "stray.txt",
        "outside",
    }
    assert r2.deleted == len(r2.deleted_paths)

    manifest = json.loads(manifest_path(dest).read_text(encoding="utf-8"))
    assert manifest["commit"] == c2
    assert set(manifest["files"]) == set(TREE2)

    # again: nothing to do, and the manifest alone answers
    r3 = materialise(git_dir, c2, dest)
    assert (r3.written, r3.deleted, r3.unchanged) == (0, 0, len(TREE2))
    for rel in UNCHANGED:
        assert mtime(dest / rel) == OLD_NS, rel

    # and back
    r4 = materialise(git_dir, c1, dest)
    assert snapshot(dest) == TREE1
    assert r4.unchanged == len(UNCHANGED)
    assert (dest / ".spyglass" / "index.db").exists()


def test_edited_file_is_restored_even_when_the_manifest_says_otherwise(repo, tmp_path):
    git_dir, c1, _ = repo
    dest = tmp_path / "dest"
    materialise(git_dir, c1, dest)
    (dest / "README.md").write_text("edited\n", encoding="utf-8")
    (dest / "src" / "pkg" / "b.py").unlink()
    os.symlink("README.md", dest / "src" / "pkg" / "b.py")  # a link where a file belongs
    r = materialise(git_dir, c1, dest)
    assert snapshot(dest) == TREE1
    assert set(r.changed_paths) == {"README.md", "src/pkg/b.py"}


def test_folder_filled_by_git_archive_is_reused(repo, tmp_path):
    git_dir, c1, _ = repo
    dest = tmp_path / "dest"
    dest.mkdir()
    archive = subprocess.run(["git", f"--git-dir={git_dir}", "archive", c1], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    r = materialise(git_dir, c1, dest)
    assert (r.written, r.deleted, r.unchanged) == (0, 0, len(TREE1))
    assert snapshot(dest) == TREE1


def _commit_tree(work: Path, entries: list[str]) -> str:
    tree = git(work, "mktree", input=("\n".join(entries) + "\n").encode())
    return git(work, "commit-tree", tree, "-m", "crafted")


@pytest.mark.parametrize("name", ["..", ".git", "."])
def test_paths_outside_the_folder_are_refused_before_anything_changes(repo, tmp_path, name):
    git_dir, c1, _ = repo
    work = git_dir.parent
    blob = git(work, "hash-object", "-w", "--stdin", input=b"evil\n")
    inner = git(work, "mktree", input=f"100644 blob {blob}\tescaped.txt\n".encode())
    commit = _commit_tree(work, [f"100644 blob {blob}\tok.txt", f"040000 tree {inner}\t{name}"])
    dest = tmp_path / "box" / "dest"
    materialise(git_dir, c1, dest)
    before = snapshot(dest)
    with pytest.raises(UnsafePathError):
        materialise(git_dir, commit, dest)
    assert snapshot(dest) == before
    assert not (tmp_path / "box" / "escaped.txt").exists()


def test_a_tree_cannot_write_into_the_index_folder(repo, tmp_path):
    git_dir, _, _ = repo
    work = git_dir.parent
    blob = git(work, "hash-object", "-w", "--stdin", input=b"evil\n")
    inner = git(work, "mktree", input=f"100644 blob {blob}\tindex.db\n".encode())
    commit = _commit_tree(work, [f"100644 blob {blob}\tok.txt", f"040000 tree {inner}\t.spyglass"])
    dest = tmp_path / "dest"
    write(dest, ".spyglass/index.db", "precious")
    r = materialise(git_dir, commit, dest)
    assert (r.written, r.skipped) == (1, 1)
    assert (dest / ".spyglass" / "index.db").read_text(encoding="utf-8") == "precious"
    assert snapshot(dest) == {"ok.txt": "evil\n"}


def test_blobs_the_snapshot_lacks_are_left_out_and_reported(repo, tmp_path):
    git_dir, _, _ = repo
    work = git_dir.parent
    blob = git(work, "hash-object", "-w", "--stdin", input=b"kept\n")
    absent = "1" * 40  # a partial snapshot lists its largest files without their content
    tree = git(
        work, "mktree", "--missing", input=f"100644 blob {blob}\tok.txt\n100644 blob {absent}\tbig.bin\n".encode()
    )
    commit = git(work, "commit-tree", tree, "-m", "partial")
    dest = tmp_path / "dest"
    write(dest, "big.bin", "an older version")
    r = materialise(git_dir, commit, dest)
    assert r.missing_paths == ("big.bin",)
    assert snapshot(dest) == {"ok.txt": "kept\n"}
    assert set(json.loads(manifest_path(dest).read_text(encoding="utf-8"))["files"]) == {"ok.txt"}
    assert materialise(git_dir, commit, dest).missing_paths == ("big.bin",)  # and again, without error


def test_materialise_only_a_folder_of_the_commit(repo, tmp_path):
    git_dir, c1, c2 = repo
    dest = tmp_path / "dest"
    materialise(git_dir, c1, dest, "src/pkg")
    assert snapshot(dest) == {"a.py": "a = 1\n", "b.py": "b = 2\n", "copy_of_b.py": "b = 2\n"}
    age(dest)
    r = materialise(git_dir, c2, dest, "src/pkg/")  # incremental, as for a whole tree
    assert snapshot(dest) == {"a.py": "a = 100\n", "b.py": "b = 2\n", "copy_of_b.py": "b = 2\n"}
    assert (r.written, r.unchanged) == (1, 2) and mtime(dest / "b.py") == OLD_NS
    with pytest.raises(RuntimeError, match="no folder"):
        materialise(git_dir, c1, dest, "nowhere")
    with pytest.raises(RuntimeError, match="not a folder"):
        materialise(git_dir, c1, dest, "README.md")
    with pytest.raises(UnsafePathError):
        materialise(git_dir, c1, dest, "../x")
    assert snapshot(dest)["a.py"] == "a = 100\n"  # a refused folder leaves the destination as it was


def test_unknown_commit_is_an_error(repo, tmp_path):
    git_dir, _, _ = repo
    with pytest.raises(RuntimeError):
        materialise(git_dir, "0" * 40, tmp_path / "dest")
    with pytest.raises(RuntimeError):
        materialise(git_dir, "--output=/tmp/x", tmp_path / "dest")


def test_find_git_dir(tmp_path, monkeypatch):
    mirrors = tmp_path / "mirrors"
    bare = mirrors / "pallets+flask" / "repo"
    bare.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True, env=_env())
    assert find_git_dir("pallets/flask", mirrors) == bare
    assert find_git_dir("pallets/click", mirrors) is None
    monkeypatch.setenv(MIRRORS_ENV, str(mirrors))
    assert find_git_dir("pallets/flask") == bare
    monkeypatch.setenv(MIRRORS_ENV, str(tmp_path / "elsewhere"))
    assert find_git_dir("pallets/flask") is None
    for bad in ["flask", "a/b/c", "a/.."]:
        with pytest.raises(ValueError):
            find_git_dir(bad, mirrors)
    assert find_git_dir(str(tmp_path / "no-such-folder"), mirrors) is None  # a path, not owner/name
    assert find_git_dir(str(mirrors)) is None  # a folder that is not a git repository
    assert find_git_dir(str(bare)) == bare  # a path to a repository, wherever it is
