"""Materialise a repository at a commit into a working folder, incrementally.

An evaluation indexes one repository at many commits (every benchmark instance has its own
``base_commit``). Extracting each commit from scratch (``git archive <commit> | tar -x``) would rewrite
every file, give every file a new mtime and so make the next index run re-read the whole tree.
:func:`materialise` instead makes the folder hold exactly the tree of the commit while touching only
what differs:

* the tree is listed with ``git ls-tree -r -z`` (path, mode and blob id of every file);
* the folder is walked (without following symlinks); every entry that is not in the tree is deleted,
  except the index folder ``.spyglass`` at the top, which survives so the next index run is incremental;
* a file whose blob id matches is left alone and keeps its mtime. The blob ids written last time are
  kept in a manifest, :data:`MANIFEST_NAME` inside ``.spyglass`` (never indexed), together with each
  file's size and mtime; a file whose size or mtime no longer matches the manifest (or that the
  manifest does not know) is hashed the way git hashes blobs instead, so a folder edited by hand, a
  run that was interrupted, or a folder filled by ``git archive`` is still handled correctly and cheaply;
* only the blobs that differ are read, in one ``git cat-file --batch`` process.

Symlinks in the tree (mode 120000) become symlinks; submodules (mode 160000) are skipped; the
executable bit of mode 100755 is set. Every path of the tree is checked before anything is touched:
absolute paths, ``.``/``..`` and ``.git`` components are refused with :class:`UnsafePathError`, and the folder is
then left as it was. Files are never written through a symlink: a link standing where the new tree has
a folder is deleted first, and new files are created with ``O_EXCL | O_NOFOLLOW``.

Bare repositories fetched for the benchmarks live at ``<mirrors>/<owner>+<name>/repo``;
:func:`find_git_dir` finds them (the mirrors root comes from the argument, else the environment
variable :data:`MIRRORS_ENV`, else :data:`DEFAULT_MIRRORS`), or any git repository given by its path.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import stat
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from spyglass.engine.filerules import INDEX_DIR_NAME

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_MIRRORS",
    "MANIFEST_NAME",
    "MIRRORS_ENV",
    "MaterialiseError",
    "MaterialiseResult",
    "UnsafePathError",
    "find_git_dir",
    "git_dir_of",
    "is_path",
    "repo_label",
    "manifest_path",
    "materialise",
    "run_git",
]

DEFAULT_MIRRORS = Path("/work/.mirror")
MIRRORS_ENV = "SPYGLASS_EVAL_MIRRORS"
MANIFEST_NAME = "eval-manifest.json"  # inside dest/.spyglass, which discovery never indexes
MANIFEST_VERSION = 1

MODE_FILE = "100644"
MODE_EXECUTABLE = "100755"
MODE_SYMLINK = "120000"
MODE_SUBMODULE = "160000"
_FILE_MODES = {MODE_FILE, MODE_EXECUTABLE, "100664"}  # 100664 only in very old trees
_HASH_CHUNK = 1 << 20


class MaterialiseError(RuntimeError):
    """git failed, or the commit or one of its objects does not exist."""


class UnsafePathError(MaterialiseError, ValueError):
    """A path in the tree would land outside the destination folder (or in its index folder)."""


@dataclass(frozen=True, slots=True)
class MaterialiseResult:
    """What :func:`materialise` did. Paths are POSIX, relative to ``dest``."""

    commit: str  # the full commit id
    written: int  # files and symlinks created or rewritten
    deleted: int  # files and symlinks removed (folders not counted)
    unchanged: int  # files and symlinks left as they were (mtime kept)
    skipped: int  # submodules and entries under the reserved index folder
    seconds: float  # wall time of the whole call
    changed_paths: tuple[str, ...] = ()  # the written paths, sorted
    deleted_paths: tuple[str, ...] = ()  # the deleted paths, sorted
    missing_paths: tuple[str, ...] = ()  # in the tree, but the snapshot lacks their blobs; not on disk


@dataclass(frozen=True, slots=True)
class _Entry:
    mode: str
    sha: str


# --------------------------------------------------------------------------------------------------
# Public API


def manifest_path(dest: Path) -> Path:
    """Where :func:`materialise` keeps its record of the blobs in ``dest``."""
    return Path(dest) / INDEX_DIR_NAME / MANIFEST_NAME


def find_git_dir(repo: str, mirrors: Path | None = None) -> Path | None:
    """The git directory of ``repo``, or None if there is none.

    ``repo`` is either a path to any git repository on this machine (a clone, a bare repository, a worktree
    or its ``.git``; ``~`` is expanded) or "owner/name" of a fetched snapshot at
    ``<mirrors>/<owner>+<name>/repo`` (bare, or a clone with a ``.git`` folder). ``mirrors`` defaults to
    ``$SPYGLASS_EVAL_MIRRORS``, else ``/work/.mirror``. An existing folder wins over an owner/name reading.
    Raises ``ValueError`` for something that is neither an existing folder nor "owner/name".
    """
    if is_path(repo):
        return git_dir_of(Path(repo).expanduser())
    owner, sep, name = repo.strip().strip("/").partition("/")
    if not sep or not owner or not name or "/" in name or any(p in (".", "..") for p in (owner, name)):
        raise ValueError(f"repository must be a path to a git repository or 'owner/name', not {repo!r}")
    if mirrors is None:
        mirrors = Path(os.environ.get(MIRRORS_ENV) or DEFAULT_MIRRORS)
    base = Path(mirrors) / f"{owner}+{name}" / "repo"
    for candidate in (base, base / ".git"):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def is_path(repo: str) -> bool:
    """Whether ``repo`` names a folder on this machine rather than an "owner/name" snapshot."""
    return repo.startswith(("/", "./", "../", "~")) or repo in (".", "..") or Path(repo).expanduser().is_dir()


def git_dir_of(folder: Path) -> Path | None:
    """The git directory of the repository at ``folder`` (as git itself finds it), or None if it is none."""
    if not folder.is_dir():
        return None
    try:
        proc = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--absolute-git-dir"], capture_output=True, text=True, check=False
        )
    except OSError as e:
        raise MaterialiseError(f"cannot run git: {e}") from e
    return Path(proc.stdout.strip()) if proc.returncode == 0 and proc.stdout.strip() else None


def repo_label(repo: str) -> str:
    """A short name for ``repo`` in ids and folder names: "owner__name", or a path's folder name."""
    if is_path(repo):
        folder = Path(repo).expanduser().resolve()
        name = folder.parent.name if folder.name == ".git" else folder.name
        return name.removesuffix(".git") or "repo"
    return repo.strip("/").replace("/", "__")


def materialise(git_dir: Path, commit: str, dest: Path, subdir: str | None = None) -> MaterialiseResult:
    """Make ``dest`` hold exactly the tree of ``commit`` from the repository at ``git_dir``; with ``subdir``
    (a folder of the repository, e.g. ``lib/rack``), only that folder's tree, as ``dest``'s top.

    ``dest`` is created if needed. Files not in the tree are deleted (the top-level ``.spyglass``
    folder is kept), files whose content differs are written, identical files keep their mtime.
    Raises :class:`MaterialiseError` if git fails or the commit is unknown, and
    :class:`UnsafePathError` (before touching ``dest``) if a tree path would escape ``dest``.
    """
    start = time.perf_counter()
    git_dir = Path(git_dir)
    dest = Path(dest)
    full = _resolve_commit(git_dir, commit)
    tree, skipped = _list_tree(git_dir, _tree_of(git_dir, full, subdir) if subdir else full)
    algo = "sha256" if len(full) == 64 else "sha1"

    dest.mkdir(parents=True, exist_ok=True)
    on_disk, disk_dirs = _scan(dest)
    manifest = _read_manifest(dest)

    # 1. delete whatever the tree does not have (a folder where the tree has a file, a file or link
    #    where the tree has a folder, and everything absent), so that every parent left is a real folder
    wanted_dirs = _parent_dirs(tree)
    deleted = sorted(p for p in on_disk if p not in tree)
    for rel in deleted:
        _unlink(dest / rel)
    stale_dirs = [d for d in disk_dirs if d not in wanted_dirs]
    stale_set = set(stale_dirs)
    for d in sorted(stale_dirs):
        parent = d.rpartition("/")[0]
        if parent not in stale_set:  # topmost only; rmtree takes the rest
            shutil.rmtree(dest / d, ignore_errors=False)
    for rel in deleted:
        on_disk.pop(rel, None)

    # 2. decide which of the tree's entries must be written
    to_write: dict[str, _Entry] = {}
    unchanged: dict[str, os.stat_result] = {}
    for rel, entry in tree.items():
        st = on_disk.get(rel)
        if st is not None and _same(dest / rel, entry, st, manifest.get(rel), algo):
            unchanged[rel] = st
            _fix_exec_bit(dest / rel, entry, st)
        else:
            to_write[rel] = entry

    # 3. write them, reading each distinct blob once
    written, missing = _write_blobs(git_dir, dest, to_write)
    if missing:
        for rel in missing:
            _unlink(dest / rel)
            tree.pop(rel)
            to_write.pop(rel)
        log.warning(
            "%s at %s: %d file(s) left out, the snapshot lacks their content (e.g. %s)",
            git_dir,
            full[:12],
            len(missing),
            ", ".join(missing[:3]),
        )

    _write_manifest(dest, full, tree, unchanged, written)
    result = MaterialiseResult(
        commit=full,
        written=len(to_write),
        deleted=len(deleted),
        unchanged=len(unchanged),
        skipped=skipped,
        seconds=time.perf_counter() - start,
        changed_paths=tuple(sorted(to_write)),
        deleted_paths=tuple(deleted),
        missing_paths=tuple(missing),
    )
    log.info(
        "materialised %s at %s into %s: %d written, %d deleted, %d unchanged in %.2fs",
        git_dir,
        full[:12],
        dest,
        result.written,
        result.deleted,
        result.unchanged,
        result.seconds,
    )
    return result


# --------------------------------------------------------------------------------------------------
# git


def run_git(git_dir: Path, *args: str, input: bytes | None = None) -> bytes:
    """The output of ``git --git-dir=<git_dir> <args>``; MaterialiseError when git fails or cannot run."""
    cmd = ["git", f"--git-dir={git_dir}", *args]
    try:
        proc = subprocess.run(cmd, input=input, capture_output=True, check=False)
    except OSError as e:
        raise MaterialiseError(f"cannot run git: {e}") from e
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise MaterialiseError(f"git {' '.join(args)} failed ({proc.returncode}): {err}")
    return proc.stdout


def _resolve_commit(git_dir: Path, commit: str) -> str:
    if not commit or commit.startswith("-") or any(c.isspace() for c in commit):
        raise MaterialiseError(f"not a commit: {commit!r}")
    out = run_git(git_dir, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{commit}^{{commit}}")
    return out.decode("ascii").strip()


def _tree_of(git_dir: Path, commit: str, subdir: str) -> str:
    """The tree id of folder ``subdir`` at ``commit``; MaterialiseError when the commit has no such folder."""
    parts = _check_path(subdir.strip("/"))
    try:
        out = run_git(git_dir, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{commit}:{'/'.join(parts)}")
    except MaterialiseError:
        raise MaterialiseError(f"{commit[:12]} has no folder {subdir!r}") from None
    tree = out.decode("ascii").strip()
    if run_git(git_dir, "cat-file", "-t", tree).strip() != b"tree":
        raise MaterialiseError(f"{subdir!r} at {commit[:12]} is not a folder")
    return tree


def _list_tree(git_dir: Path, commit: str) -> tuple[dict[str, _Entry], int]:
    """The tree's files (path -> mode and blob id), after checking every path; and how many were skipped."""
    out = run_git(git_dir, "ls-tree", "-r", "-z", "--full-tree", commit)
    tree: dict[str, _Entry] = {}
    skipped = 0
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, sha = meta.decode("ascii").split(" ")
        path = os.fsdecode(raw_path)
        parts = _check_path(path)
        if mode == MODE_SUBMODULE or kind == "commit":
            skipped += 1
            continue
        if parts[0] == INDEX_DIR_NAME:
            log.warning("skipping %r: the %s folder at the top is reserved for the index", path, INDEX_DIR_NAME)
            skipped += 1
            continue
        if kind != "blob" or (mode not in _FILE_MODES and mode != MODE_SYMLINK):
            log.warning("skipping %r: unexpected tree entry %s %s", path, mode, kind)
            skipped += 1
            continue
        tree[path] = _Entry(mode, sha)
    return tree, skipped


def _check_path(path: str) -> list[str]:
    """The components of a tree path; raises :class:`UnsafePathError` for one that could leave the folder."""
    parts = path.split("/")
    if path.startswith("/") or "\0" in path or any(p in ("", ".", "..") or p.lower() == ".git" for p in parts):
        raise UnsafePathError(f"refusing unsafe path in tree: {path!r}")
    if os.sep != "/" and any(os.sep in p or (os.altsep and os.altsep in p) or ":" in p for p in parts):
        raise UnsafePathError(f"refusing unsafe path in tree: {path!r}")
    return parts


def _write_blobs(git_dir: Path, dest: Path, to_write: dict[str, _Entry]) -> tuple[dict[str, os.stat_result], list[str]]:
    """Read each distinct blob of ``to_write`` once through ``git cat-file --batch`` and write its paths.

    Returns the stat of every path written, and the sorted paths whose blob the repository lacks (a
    partial snapshot leaves its largest files out); those are not written.
    """
    if not to_write:
        return {}, []
    by_sha: dict[str, list[str]] = {}
    for rel, entry in to_write.items():
        by_sha.setdefault(entry.sha, []).append(rel)
    shas = list(by_sha)
    proc = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    stdin, stderr = proc.stdin, proc.stderr  # narrowed, for the threads below
    errors: list[str] = []
    stderr_chunks: list[bytes] = []

    def feed() -> None:  # a thread, so that neither pipe can fill up and deadlock
        try:
            for i in range(0, len(shas), 512):
                stdin.write("".join(f"{s}\n" for s in shas[i : i + 512]).encode("ascii"))
        except OSError as e:  # git died; the reader reports it
            errors.append(str(e))
        finally:
            try:
                stdin.close()
            except OSError:
                pass

    def drain() -> None:
        stderr_chunks.append(stderr.read())

    feeder = threading.Thread(target=feed, daemon=True)
    drainer = threading.Thread(target=drain, daemon=True)
    feeder.start()
    drainer.start()
    written: dict[str, os.stat_result] = {}
    missing: list[str] = []
    made_dirs: set[str] = set()
    try:
        for sha in shas:
            header = proc.stdout.readline()
            fields = header.split()
            if fields == [sha.encode("ascii"), b"missing"]:
                missing.extend(by_sha[sha])
                continue
            if len(fields) != 3 or fields[0].decode("ascii", "replace") != sha:
                raise MaterialiseError(f"git cat-file: unexpected answer {header[:200]!r} for {sha}")
            size = int(fields[2])
            data = proc.stdout.read(size)
            if len(data) != size or proc.stdout.read(1) != b"\n":
                raise MaterialiseError(f"git cat-file: short read for {sha}")
            for rel in by_sha[sha]:
                entry = to_write[rel]
                target = dest / rel
                parent = rel.rpartition("/")[0]
                if parent and parent not in made_dirs:
                    (dest / parent).mkdir(parents=True, exist_ok=True)
                    made_dirs.add(parent)
                if entry.mode == MODE_SYMLINK:
                    _write_symlink(target, data)
                else:
                    _write_file(target, data, entry.mode == MODE_EXECUTABLE)
                written[rel] = os.lstat(target)
    except BaseException:
        proc.kill()
        raise
    finally:
        proc.stdout.close()
        feeder.join()
        proc.wait()
        drainer.join()
        proc.stderr.close()
    if proc.returncode != 0:
        err = b"".join(stderr_chunks).decode("utf-8", "replace").strip()
        raise MaterialiseError(f"git cat-file --batch failed ({proc.returncode}): {err}")
    return written, sorted(missing)


# --------------------------------------------------------------------------------------------------
# the folder


def _scan(dest: Path) -> tuple[dict[str, os.stat_result], list[str]]:
    """Every non-folder entry under ``dest`` (lstat) and every real folder, as POSIX paths; the
    top-level index folder is left out. Symlinks are never followed."""
    files: dict[str, os.stat_result] = {}
    dirs: list[str] = []
    stack: list[tuple[str, str]] = [("", os.fspath(dest))]
    while stack:
        rel, absdir = stack.pop()
        with os.scandir(absdir) as it:
            for e in it:
                if not rel and e.name == INDEX_DIR_NAME:
                    continue
                r = f"{rel}/{e.name}" if rel else e.name
                if e.is_dir(follow_symlinks=False):
                    dirs.append(r)
                    stack.append((r, e.path))
                else:
                    files[r] = e.stat(follow_symlinks=False)
    return files, dirs


def _parent_dirs(paths: Iterable[str]) -> set[str]:
    dirs: set[str] = set()
    for p in paths:
        parent = p.rpartition("/")[0]
        while parent and parent not in dirs:
            dirs.add(parent)
            parent = parent.rpartition("/")[0]
    return dirs


def _same(path: Path, entry: _Entry, st: os.stat_result, recorded: list | None, algo: str) -> bool:
    """Whether the file or link at ``path`` already holds ``entry``'s blob."""
    if entry.mode == MODE_SYMLINK:
        if not stat.S_ISLNK(st.st_mode):
            return False
        return _blob_id(os.readlink(os.fsencode(path)), algo) == entry.sha
    if not stat.S_ISREG(st.st_mode):
        return False
    if (
        recorded is not None
        and len(recorded) == 4
        and recorded[1] == entry.sha
        and recorded[2] == st.st_size
        and recorded[3] == st.st_mtime_ns
    ):
        return True
    return _file_blob_id(path, st.st_size, algo) == entry.sha


def _blob_id(data: bytes, algo: str) -> str:
    h = hashlib.new(algo, b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def _file_blob_id(path: Path, size: int, algo: str) -> str | None:
    h = hashlib.new(algo, b"blob %d\0" % size)
    n = 0
    try:
        with open(path, "rb") as f:
            while chunk := f.read(_HASH_CHUNK):
                h.update(chunk)
                n += len(chunk)
    except OSError:
        return None
    return h.hexdigest() if n == size else None


def _fix_exec_bit(path: Path, entry: _Entry, st: os.stat_result) -> None:
    if entry.mode == MODE_SYMLINK:
        return
    want = entry.mode == MODE_EXECUTABLE
    if bool(st.st_mode & stat.S_IXUSR) != want:
        mode = stat.S_IMODE(st.st_mode)
        os.chmod(path, mode | 0o111 if want else mode & ~0o111)  # changes ctime only


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _write_file(path: Path, data: bytes, executable: bool) -> None:
    _unlink(path)  # a fresh inode: never write through a link or into a file someone else holds
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o777 if executable else 0o666)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def _write_symlink(path: Path, target: bytes) -> None:
    _unlink(path)
    try:
        os.symlink(target, os.fsencode(path))
    except OSError as e:  # a file system or platform without symlinks: write the target, as git does
        log.warning("cannot create symlink %s (%s); writing its target as a file", path, e)
        _write_file(path, target, False)


# --------------------------------------------------------------------------------------------------
# the manifest


def _read_manifest(dest: Path) -> dict[str, list]:
    path = manifest_path(dest)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        log.warning("ignoring unreadable manifest %s: %s", path, e)
        return {}
    if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION or not isinstance(data.get("files"), dict):
        return {}
    return data["files"]


def _write_manifest(
    dest: Path,
    commit: str,
    tree: dict[str, _Entry],
    unchanged: dict[str, os.stat_result],
    written: dict[str, os.stat_result],
) -> None:
    files = {}
    for rel, entry in tree.items():
        st = written.get(rel) or unchanged[rel]
        files[rel] = [entry.mode, entry.sha, st.st_size, st.st_mtime_ns]
    path = manifest_path(dest)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"version": MANIFEST_VERSION, "commit": commit, "files": files}, f, separators=(",", ":"))
    os.replace(tmp, path)
