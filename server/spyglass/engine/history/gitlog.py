"""Reading a repository's recent commits with the ``git`` command: which commits, and what each touched.

One ``git log -p -U0`` process streams the commits asked for (their messages, author dates and the
post-image line ranges of every hunk); one ``git cat-file --batch`` process serves the file versions a
commit left, which :mod:`.touched` parses to name the definitions it changed. Paths come back relative
to the workspace (which may be a folder inside the repository); files outside it are dropped here.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

# a hunk header: (old start, old count, new start, new count); a count left out is 1
HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
INDEX_LINE = re.compile(rb"^index ([0-9a-f]+)\.\.([0-9a-f]+)")
# commits are split on NUL + RS: git never puts a NUL in a patch (such a file is "Binary files ... differ") nor
# in a message, so the only NULs are the format's own (RS alone can be in a file's text)
RECORD = b"\x00\x1e"
TIMEOUT_S = 300
# never reach the network (a partial clone would fetch missing objects) or ask for a password
GIT_ENV = {**os.environ, "GIT_NO_LAZY_FETCH": "1", "GIT_TERMINAL_PROMPT": "0"}


class GitUnavailable(RuntimeError):
    """No history to read: git is not installed, the folder is not in a repository, or git failed."""


@dataclass(slots=True)
class FileChange:
    path: str  # relative to the workspace
    added: int = 0
    deleted: int = 0
    blob: str | None = None  # the file as the commit left it; None when it deleted the file
    lines: list[tuple[int, int]] = field(default_factory=list)  # changed line ranges in that version


@dataclass(slots=True)
class CommitChanges:
    sha: str
    time: int  # author date, seconds since the epoch
    message: str
    files: list[FileChange]


class Repository:
    """The git repository holding ``root`` (its HEAD), or with ``git_dir`` that repository as of ``ref``
    (a tree materialised from it, as the evaluation does); raises :class:`GitUnavailable` when there is none."""

    def __init__(self, root: Path, git_dir: Path | None = None, ref: str = "HEAD"):
        self.git = shutil.which("git")
        if self.git is None:
            raise GitUnavailable("git is not installed")
        self.root = root
        self.ref = ref
        self._where = ["--git-dir", str(git_dir)] if git_dir is not None else []
        if git_dir is not None:
            return
        try:
            self._run("rev-parse", "--show-toplevel")
        except GitUnavailable as e:
            raise GitUnavailable(f"{root} is not in a git repository") from e

    def _run(self, *args: str, stdin: bytes | None = None) -> bytes:
        try:
            done = subprocess.run(
                [self.git or "git", *self._where, "-c", "core.quotePath=false", *args],
                cwd=self.root,
                env=GIT_ENV,
                input=stdin,
                capture_output=True,
                timeout=TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            raise GitUnavailable(f"git {args[0]} failed: {e}") from e
        if done.returncode:
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitUnavailable(f"git {args[0]} failed: {message[-1] if message else done.returncode}")
        return done.stdout

    def head(self) -> str | None:
        """The commit checked out; None in a repository with no commit yet."""
        try:
            return self._run("rev-parse", "--verify", "-q", f"{self.ref}^{{commit}}").decode().strip() or None
        except GitUnavailable:
            return None

    def recent(self, n: int) -> list[str]:
        """The newest ``n`` non-merge commits reachable from the ref that touch the workspace, newest first."""
        if n <= 0:
            return []
        out = self._run("rev-list", "--no-merges", f"--max-count={int(n)}", self.ref, "--", *self._paths)
        return out.decode().split()

    def changes(self, shas: Iterable[str]) -> list[CommitChanges]:
        """Each commit in ``shas`` (in that order) with the files it touched inside the workspace. A commit
        whose diff cannot be read (an object missing from a shallow or partial clone: never fetched here)
        comes with its message and no files; one that cannot be read at all is left out."""
        shas = list(shas)
        if not shas:
            return []
        try:
            return self._changes(shas, patch=True)
        except GitUnavailable:
            if len(shas) > 1:
                half = len(shas) // 2
                return self.changes(shas[:half]) + self.changes(shas[half:])
        try:
            return self._changes(shas, patch=False)
        except GitUnavailable as e:
            log.info("commit %s cannot be read: %s", shas[0], e)
            return []

    def _changes(self, shas: list[str], patch: bool) -> list[CommitChanges]:
        diff = ["-p", "-U0", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", "--full-index"]
        args = [
            "log", "--no-walk=unsorted", "--stdin", *(diff if patch else []),
            "--format=%x00%x1e%H%x00%at%x00%B%x00", *self._relative, "--", *self._paths,
        ]  # fmt: skip
        out = self._run(*args, stdin="\n".join(shas).encode() + b"\n")
        found = []
        for record in out.split(RECORD)[1:]:
            head, _, diff_text = record.partition(b"\x00\n")  # the format's last NUL, then git's newline
            sha, when, message = (head.split(b"\x00", 2) + [b"", b""])[:3]
            found.append(
                CommitChanges(
                    sha.decode("ascii", "replace").strip(),
                    int(when) if when.strip().isdigit() else 0,
                    message.decode("utf-8", "replace").strip(),
                    _file_changes(diff_text),
                )
            )
        return found

    @property
    def _paths(self) -> list[str]:
        """The workspace's folder as a pathspec: "." from inside a work tree; the whole repository otherwise."""
        return [] if self._where else ["."]

    @property
    def _relative(self) -> list[str]:
        return [] if self._where else ["--relative"]

    def blobs(self) -> BlobReader:
        return BlobReader([self.git or "git", *self._where], self.root)


def _file_changes(diff: bytes) -> list[FileChange]:
    """The files of one commit's ``-U0`` patch, in its order (renames are off: a path is the same on both sides)."""
    files: list[FileChange] = []
    for section in (b"\n" + diff).split(b"\ndiff --git ")[1:]:
        header, *lines = section.split(b"\n")
        half = (len(header) - 1) // 2  # "a/P b/P", both halves the same length
        change = FileChange(_unquote(header[:half]).split("/", 1)[-1])
        deleted = False
        for line in lines:
            if m := INDEX_LINE.match(line):
                change.blob = m.group(2).decode()
            elif line.startswith(b"deleted file mode"):
                deleted = True
            elif m := HUNK.match(line):
                removed = int(m.group(2)) if m.group(2) is not None else 1
                start, added = int(m.group(3)), int(m.group(4)) if m.group(4) is not None else 1
                change.added += added
                change.deleted += removed
                change.lines.append((start, start + added - 1) if added else (max(1, start), start + 1))
        if deleted or (change.blob is not None and set(change.blob) == {"0"}):
            change.blob = None
        files.append(change)
    return files


def _unquote(name: bytes) -> str:
    """A path as git prints it: C-quoted (``"a/tab\\there"``) when it holds odd characters."""
    text = name.decode("utf-8", "surrogateescape").strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        raw = text[1:-1].encode("utf-8", "surrogateescape").decode("unicode_escape").encode("latin-1")
        text = raw.decode("utf-8", "replace")
    return text


class BlobReader:
    """File versions by blob id, from one ``git cat-file --batch`` process."""

    def __init__(self, git: list[str], root: Path):
        self._proc = subprocess.Popen(
            [*git, "cat-file", "--batch"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=GIT_ENV,
        )  # fmt: skip

    def read(self, blob: str, limit: int) -> bytes | None:
        """The blob's bytes; None when it is missing or larger than ``limit``."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(blob.encode() + b"\n")
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().split()
        if len(header) != 3:  # "<id> missing"
            return None
        size = int(header[2])
        data = self._proc.stdout.read(size + 1)[:size]
        return data if size <= limit else None

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout:
            self._proc.stdout.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
