"""Discovery: which files of a workspace get indexed, and why the others are skipped.

:func:`discover` walks the workspace root once (``os.scandir``, pruning skipped directories so that a
``node_modules`` with 100k files costs one directory entry) and returns the files to index, sorted by
path, plus a count of every skip reason and the path skipped for each. :func:`check_path` answers the same
question for one path (editor and file-watcher events) and applies exactly the same rules, including every
ignore file on the way down from the root. Counts are per directory entry: a pruned directory counts once, whatever it
holds.

This module holds the walk and the precedence of the rules. The skip reasons and the per-name tables
(default excludes, secrets, binaries) are in :mod:`spyglass.engine.filerules`; compiling ignore files and
finding the git ignore files above the root is :mod:`spyglass.engine.ignorefiles`.

Rules, in the order they are applied to each directory entry (the first that decides wins):

1. **Hard rules, never overridable.** Version-control folders (:data:`VCS_NAMES`, reason ``"vcs"``),
   the index folder (``settings.index_dir`` and any folder named ``.spyglass``, reason ``"index dir"``)
   and secret files (:data:`SECRET_DIRS` and :func:`is_secret_file`, reason ``"secret"``; the list is
   in :mod:`~spyglass.engine.filerules`). Secrets are skipped even when ``settings.include`` or a
   negated ignore pattern matches them.
2. **``settings.exclude``**: gitignore-syntax globs relative to the root (reason ``"excluded"``). A
   negated glob (``!build/``) re-includes what the rules below would skip, default excludes included.
3. **``.spyglassignore`` files** at any level (gitignore syntax, patterns relative to their directory;
   reason ``"ignored"``). They take precedence over ``.gitignore`` files, so ``!generated/`` in a
   ``.spyglassignore`` re-includes a git-ignored folder, and also overrides the default excludes.
4. **Git ignore rules** (reason ``"ignored"``): ``.gitignore`` at every level (a deeper file wins over a
   shallower one), then the ``.gitignore`` files above the root in the enclosing repository, its
   ``.git/info/exclude`` and the global excludes file (which files, and how they are found:
   :mod:`~spyglass.engine.ignorefiles`). As in git, they do not apply to a file git tracks (added before
   a rule matched it, or with ``git add -f``: the index says which, :mod:`~spyglass.engine.gitindex`).
   As in git, a file inside an ignored directory cannot be re-included, because ignored directories are
   not entered (a tracked file in one is not indexed either). A git negation (e.g. the common ``!*/``)
   does *not* override the default excludes below.
5. **Default excludes**: virtualenvs, dependency, build-output, cache and editor folders, lock files,
   generated and binary files (reasons ``"virtualenv"``, ``"dependencies"``, ``"build output"``,
   ``"cache"``, ``"editor metadata"``, ``"lock file"``, ``"generated"``, ``"binary"``; the tables and
   how names match: :mod:`~spyglass.engine.filerules`).
6. **``settings.include``**: if non-empty, a file that matches none of these gitignore-syntax globs is
   skipped (``"not included"``). Include only narrows; it never re-admits a file skipped above.
7. **Size**: files larger than ``settings.max_file_size`` bytes are skipped (``"too large"``); a notebook may be
   larger, its code may not (notebooks.py).

File-system rules. Symlinks (to files and to folders) are judged by the rules above under the
link's own path, then:

* a link whose resolved target lies outside the root is never followed (``"symlink outside root"``);
* a folder link whose target is the folder holding it or one of its ancestors is not entered
  (``"symlink loop"``; a self-referencing chain of links is one too), so no walk can cycle;
* a dangling link is ``"broken symlink"``; a link into a VCS folder, the index folder or to a secret
  gets that reason;
* a link whose target is indexed (or, for a folder, walked) under its real path anyway is a
  ``"symlink duplicate"`` (e.g. a virtualenv's ``lib64 -> lib``): every content is indexed once;
* otherwise the link is followed and its content indexed under the link's path -- the way to pull a
  git-ignored or excluded file or folder into the index.

FIFOs, sockets and devices are ``"not a regular file"``; ``PermissionError`` anywhere is
``"unreadable"`` and never aborts the walk; entries deleted during the walk are silently dropped.
Content sniffing is left to the indexer, which reads the file anyway (see :func:`looks_binary`);
discovery judges binaries by extension only.

``check_path`` can also answer ``"missing"`` (no such file), ``"outside root"`` and ``"directory"``;
:func:`discover` never counts these.
"""

from __future__ import annotations

import collections
import errno
import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path

from spyglass.engine.filerules import (
    BAD_NAME,
    BROKEN_SYMLINK,
    DIRECTORY,
    EXCLUDED,
    IGNORED,
    INDEX_DIR,
    INDEX_DIR_NAME,
    MISSING,
    NOT_INCLUDED,
    NOT_REGULAR,
    OUTSIDE_ROOT,
    SECRET,
    SECRET_DIRS,
    SYMLINK_DUPLICATE,
    SYMLINK_LOOP,
    SYMLINK_OUTSIDE_ROOT,
    TOO_LARGE,
    UNREADABLE,
    VCS,
    VCS_NAMES,
    VIRTUALENV,
    VIRTUALENV_MARKERS,
    default_reason,
    is_secret_file,
    is_secret_name,
    looks_binary,
)
from spyglass.engine.gitindex import tracked_paths
from spyglass.engine.ignorefiles import IGNORE_FILES, Compiled, Layer, compile_lines, load_ignore_file, outer_git_layers
from spyglass.engine.notebooks import size_limit
from spyglass.engine.settings import Settings

__all__ = ["Discovery", "FileEntry", "check_path", "discover", "is_secret_file", "looks_binary"]

# --------------------------------------------------------------------------------------------------
# Public API


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file to index."""

    path: str  # POSIX path relative to the root
    size: int  # bytes
    mtime_ns: int  # modification time, nanoseconds (of the target, for a symlink)


@dataclass
class Discovery:
    """The result of a walk: files to index, sorted by path, skip reason -> count, and what was skipped."""

    files: list[FileEntry] = field(default_factory=list)
    skipped: collections.Counter[str] = field(default_factory=collections.Counter)
    # (root-relative path, reason) of every counted skip, sorted by path; a pruned folder is one entry
    skipped_paths: list[tuple[str, str]] = field(default_factory=list)


def discover(root: Path, settings: Settings) -> Discovery:
    """Walk ``root`` and return the files to index and why everything else was skipped.

    Raises ``FileNotFoundError``/``NotADirectoryError`` if ``root`` is not a directory.
    """
    rules = _Rules(root, settings)
    files: list[FileEntry] = []
    found = Discovery()

    def skip(path: str, reason: str) -> None:
        found.skipped[reason] += 1
        found.skipped_paths.append((printable(path) or ".", reason))

    stack: list[tuple[_Dir | None, _Child]] = [(None, rules.root_child())]
    while stack:
        parent, child = stack.pop()
        try:
            with os.scandir(child.abs) as it:
                entries = list(it)
        except (FileNotFoundError, NotADirectoryError):
            if parent is None:
                raise
            continue  # deleted during the walk
        except OSError:  # PermissionError and friends
            skip(child.prefix.rstrip("/"), UNREADABLE)
            continue
        d = rules.enter(parent, child, {e.name for e in entries})
        if isinstance(d, str):
            skip(child.prefix.rstrip("/"), d)
            continue
        for e in entries:
            try:
                is_link = e.is_symlink()
                is_dir = not is_link and e.is_dir(follow_symlinks=False)
                is_reg = not is_link and not is_dir and e.is_file(follow_symlinks=False)
            except OSError:
                skip(d.prefix + e.name, UNREADABLE)
                continue
            res = rules.judge(d, e.name, e.path, is_link, is_dir, is_reg, e)
            if isinstance(res, FileEntry):
                files.append(res)
            elif isinstance(res, _Child):
                stack.append((d, res))
            elif res != MISSING:
                skip(d.prefix + e.name, res)
    files.sort(key=lambda f: f.path)
    found.files = files
    found.skipped_paths.sort()
    return found


def check_path(root: Path, rel_path: str, settings: Settings) -> str | None:
    """Return ``None`` if the file at ``rel_path`` should be indexed, else the reason it is skipped.

    ``rel_path`` is relative to ``root`` (POSIX or native separators); an absolute path inside the
    root is accepted too. Every folder on the way down is judged as :func:`discover` judges it, with
    the ignore files found there, so the answer is always the one a full walk would give. A folder
    gets the reason it is skipped, or ``"directory"`` if the walk enters it. Costs a few system calls
    per path component; compiled ignore files are cached (keyed by path, mtime and size).
    """
    rules = _Rules(root, settings)
    rel = _relativise(rules, rel_path)
    if rel is None:
        return OUTSIDE_ROOT
    res = rules.resolve(rel)
    if isinstance(res, str):
        return res
    return None if isinstance(res, FileEntry) else DIRECTORY


# --------------------------------------------------------------------------------------------------
# Internals


@dataclass(frozen=True, slots=True)
class _Child:
    """A directory to enter."""

    abs: str
    prefix: str  # root-relative path with a trailing "/", "" for the root
    real: str  # resolved path
    forced: bool  # kept by a negation in settings.exclude or a .spyglassignore


@dataclass(frozen=True, slots=True)
class _Dir:
    """An entered directory and the rules in force inside it."""

    abs: str
    prefix: str
    real: str
    ancestors: frozenset[str]  # resolved paths of this directory and all above it, for loop detection
    spy: tuple[Layer, ...]  # .spyglassignore layers, lowest precedence first
    git: tuple[Layer, ...]  # git layers, lowest precedence first


class Escaped(OSError):
    """A file opened under the root turned out to be outside it (a folder on the way became a symlink to
    elsewhere after the walk) or not a regular file (a FIFO, a device)."""


def read_inside(root: Path | str, rel: str) -> bytes:
    """The bytes of the regular file at ``root/rel``, read only when the file actually opened is inside
    ``root``: the walk judged the path, but a folder on the way may have been swapped for a symlink since.
    Opened non-blocking, so a FIFO put there never blocks. Raises ``FileNotFoundError`` and other
    ``OSError``s as ``open`` does, and :class:`Escaped`."""
    root_real = os.path.realpath(root)
    fd = os.open(os.path.join(root, rel), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Escaped(errno.EINVAL, "not a regular file", rel)
        real = _opened_path(fd, os.path.join(root, rel))
        if real != root_real and not real.startswith(root_real.rstrip(os.sep) + os.sep):
            raise Escaped(errno.EXDEV, f"resolves outside the workspace, to {real}", rel)
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    finally:
        os.close(fd)


def _opened_path(fd: int, path: str) -> str:
    """Where an open file really is: the kernel's answer on Linux, else the resolved path if it is the same
    file as the one open."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        real = os.path.realpath(path)
        st, now = os.fstat(fd), os.stat(real)
        if (st.st_dev, st.st_ino) != (now.st_dev, now.st_ino):
            raise Escaped(errno.EXDEV, "changed while it was opened", path) from None
        return real


def is_utf8(name: str) -> bool:
    """Whether a name read from the file system is text: Python keeps bytes that are not UTF-8 as lone
    surrogates (``surrogateescape``), which no index row, URI or JSON answer can carry."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(path: str) -> str:
    """A path as text to show: bytes that are not UTF-8 written as ``\\xff``."""
    return path if is_utf8(path) else os.fsencode(path).decode("utf-8", "backslashreplace")


def _relativise(rules: _Rules, rel_path: str) -> str | None:
    """A normalised root-relative POSIX path, "" for the root itself, None if outside the root."""
    p = os.fspath(rel_path)
    if os.path.isabs(p):
        absolute = os.path.normpath(p)
        for base in (rules.root_abs, rules.root_real):
            rel = os.path.relpath(absolute, base)
            if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
                break
        else:
            return None
        p = rel
    p = posixpath.normpath(p.replace(os.sep, "/"))
    if p == ".":
        return ""
    if p == ".." or p.startswith("../") or p.startswith("/"):
        return None
    return p


class _Rules:
    """Everything fixed for one root and one Settings: compiled globs and the outer ignore layers."""

    def __init__(self, root: Path, settings: Settings) -> None:
        self.root_abs = os.path.abspath(root)
        self.root_real = os.path.realpath(root)
        self.real_prefix = self.root_real if self.root_real.endswith(os.sep) else self.root_real + os.sep
        self.max_file_size = settings.max_file_size
        self.exclude: Layer | None = None
        if settings.exclude:
            compiled = compile_lines(tuple(settings.exclude))
            self.exclude = Layer(compiled, 0, "") if compiled else None
        # include: None = everything, else the globs a file or one of its folders must match
        self.include: Compiled | None = None
        self.include_nothing = False
        if settings.include:
            self.include = compile_lines(tuple(settings.include))
            self.include_nothing = self.include is None  # only comments or blank lines
        index = os.path.join(self.root_abs, os.path.expanduser(settings.index_dir))
        rel = os.path.relpath(os.path.realpath(index), self.root_real)
        self.index_rel = (
            None
            if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep)
            else rel.replace(os.sep, "/")
        )
        self.outer_git = outer_git_layers(self.root_real)
        self.tracked = tracked_paths(Path(self.root_abs))  # files git tracks, which its ignore rules do not skip
        self._walked: dict[str, bool] = {}
        self._resolving = False

    def resolve(self, rel: str) -> FileEntry | _Dir | str:
        """Judge the entry at a normalised root-relative path and every folder on the way down."""
        if not os.access(self.root_abs, os.R_OK):
            return UNREADABLE
        d = self.enter(None, self.root_child(), None)
        assert not isinstance(d, str)
        if not rel:
            return d
        parts = rel.split("/")
        last = len(parts) - 1
        for i, name in enumerate(parts):
            path = os.path.join(d.abs, name)
            try:
                st = os.lstat(path)
            except PermissionError:
                return UNREADABLE
            except OSError:
                return MISSING
            mode = st.st_mode
            res = self.judge(d, name, path, stat.S_ISLNK(mode), stat.S_ISDIR(mode), stat.S_ISREG(mode), st)
            if isinstance(res, str):
                return res
            if isinstance(res, FileEntry):
                return res if i == last else MISSING  # a file where a folder should be
            if not os.access(res.abs, os.R_OK):
                return UNREADABLE
            nd = self.enter(d, res, None)
            if isinstance(nd, str):
                return nd
            d = nd
        return d

    def target_walked(self, target_rel: str) -> bool:
        """Whether the walk reaches a symlink's target under its own path (then the link is a duplicate).

        The target is a resolved path, so resolving it meets no further symlinks; the guard only
        matters if the tree changes meanwhile.
        """
        known = self._walked.get(target_rel)
        if known is None:
            if self._resolving:
                return False
            self._resolving = True
            try:
                known = not isinstance(self.resolve(target_rel), str)
            finally:
                self._resolving = False
            self._walked[target_rel] = known
        return known

    def root_child(self) -> _Child:
        return _Child(self.root_abs, "", self.root_real, False)

    def enter(self, parent: _Dir | None, child: _Child, names: set[str] | None) -> _Dir | str:
        """Set up a directory about to be walked, or the reason to skip it after all (a virtualenv).

        ``names`` are the directory's entries if already listed, else the file system is probed.
        """
        if parent is None:
            spy: tuple[Layer, ...] = ()
            git = self.outer_git
            ancestors: frozenset[str] = frozenset((child.real,))
        else:
            if not child.forced:
                if names is not None:
                    is_venv = any(m in names for m in VIRTUALENV_MARKERS)
                else:
                    is_venv = any(os.path.lexists(os.path.join(child.abs, m)) for m in VIRTUALENV_MARKERS)
                if is_venv:
                    return VIRTUALENV
            spy, git = parent.spy, parent.git
            ancestors = parent.ancestors | {child.real}
        strip = len(child.prefix)
        for fname in IGNORE_FILES:
            if names is not None and fname not in names:
                continue
            compiled = load_ignore_file(os.path.join(child.abs, fname))
            if compiled is None:
                continue
            layer = Layer(compiled, strip, "")
            if fname == ".gitignore":
                git = (*git, layer)
            else:
                spy = (*spy, layer)
        return _Dir(child.abs, child.prefix, child.real, ancestors, spy, git)

    def name_rules(self, d: _Dir, name: str, rel: str, is_dir: bool) -> tuple[str | None, bool]:
        """Rules 1-5 of the module doc: (skip reason or None, kept by a spyglass-side negation)."""
        if name in VCS_NAMES:
            return VCS, False
        lname = name.lower()
        if is_dir:
            if name == INDEX_DIR_NAME or rel == self.index_rel:
                return INDEX_DIR, False
            if lname in SECRET_DIRS:
                return SECRET, False
            path = rel + "/"
        else:
            # no secret folder is ever entered, so the name (and the path tail) is all there is to check
            if is_secret_name(lname, rel):
                return SECRET, False
            path = rel
        if self.exclude is not None:
            verdict = self.exclude.check(path)
            if verdict is not None:
                return (EXCLUDED, False) if verdict else (None, True)
        for layer in reversed(d.spy):
            verdict = layer.check(path)
            if verdict is not None:
                return (IGNORED, False) if verdict else (None, True)
        for layer in reversed(d.git):
            verdict = layer.check(path)
            if verdict is not None:
                if verdict and (is_dir or rel not in self.tracked):  # git's rules are for untracked files
                    return IGNORED, False
                break
        return default_reason(name, lname, is_dir), False

    def target_reason(self, target_rel: str, is_dir: bool) -> str | None:
        """Hard rules applied to where a symlink points (root-relative path of the target)."""
        if not target_rel:
            return None
        parts = target_rel.split("/")
        if any(p in VCS_NAMES for p in parts):
            return VCS
        if INDEX_DIR_NAME in parts or (
            self.index_rel is not None and (target_rel == self.index_rel or target_rel.startswith(self.index_rel + "/"))
        ):
            return INDEX_DIR
        if is_dir:
            return SECRET if any(p.lower() in SECRET_DIRS for p in parts) else None
        return SECRET if is_secret_file(target_rel) else None

    def judge(
        self,
        d: _Dir,
        name: str,
        path: str,
        is_link: bool,
        is_dir: bool,
        is_reg: bool,
        lst: os.DirEntry[str] | os.stat_result,
    ) -> FileEntry | _Child | str:
        """Decide one directory entry: a file to index, a directory to enter, or a skip reason."""
        if not is_utf8(name):
            return BAD_NAME
        st: os.stat_result | None = None
        link_problem = None
        if is_link:
            try:
                st = os.stat(path)
            except FileNotFoundError:
                link_problem = BROKEN_SYMLINK
            except PermissionError:
                link_problem = UNREADABLE
            except OSError as e:
                link_problem = SYMLINK_LOOP if e.errno == errno.ELOOP else BROKEN_SYMLINK
            else:
                is_dir = stat.S_ISDIR(st.st_mode)
                is_reg = stat.S_ISREG(st.st_mode)
        rel = d.prefix + name
        reason, forced = self.name_rules(d, name, rel, is_dir)
        if reason is not None:
            return reason
        if link_problem is not None:
            return link_problem
        real = None
        if is_link:
            real = os.path.realpath(path)
            if real == self.root_real:
                target_rel = ""
            elif real.startswith(self.real_prefix):
                target_rel = real[len(self.real_prefix) :].replace(os.sep, "/")
            else:
                return SYMLINK_OUTSIDE_ROOT
            if is_dir and real in d.ancestors:
                return SYMLINK_LOOP
            reason = self.target_reason(target_rel, is_dir)
            if reason is not None:
                return reason
            if self.target_walked(target_rel):
                return SYMLINK_DUPLICATE
        if is_dir:
            return _Child(path, rel + "/", real or os.path.join(d.real, name), forced)
        if not is_reg:
            return NOT_REGULAR
        if self.include_nothing or (self.include is not None and not self.include.covers(rel)):
            return NOT_INCLUDED
        if st is None:
            try:
                st = lst.stat(follow_symlinks=False) if isinstance(lst, os.DirEntry) else lst
            except FileNotFoundError:
                return MISSING
            except OSError:
                return UNREADABLE
        if st.st_size > size_limit(rel, self.max_file_size):  # a notebook is held to the limit by its code
            return TOO_LARGE
        if not os.access(path, os.R_OK):
            return UNREADABLE
        return FileEntry(rel, st.st_size, st.st_mtime_ns)
