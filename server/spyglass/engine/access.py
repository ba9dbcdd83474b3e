"""Saying what to do when a file or folder Spyglass needs cannot be read or written: permissions, a
read-only file system. Every such failure names the path, what was denied and to whom, and for the index,
how to put it somewhere else."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import apsw

from .errors import IndexAccessDenied, WorkspaceUnreadable

DENIED = (errno.EACCES, errno.EPERM, errno.EROFS)
ELSEWHERE = (
    "put the index in a folder you can write: `spyglass index --db DIR/index.db` (and the same --db for search, "
    "span and status, or `spyglass mcp --db`), or set index_dir to that folder (SPYGLASS_INDEX_DIR=DIR, index_dir "
    "in .spyglass.toml, or indexLocation in the editor's settings)"
)


def is_denied(e: BaseException) -> bool:
    """Whether ``e`` means "not allowed" rather than "not there" or "broken"."""
    if isinstance(e, OSError):
        return e.errno in DENIED
    return isinstance(e, apsw.ReadOnlyError | apsw.PermissionsError)


def _user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return f"uid {os.geteuid()}"


def _why(e: BaseException) -> str:
    if isinstance(e, OSError) and e.errno == errno.EROFS:
        return "read-only file system"
    return f"permission denied for user {_user()}"


def index_denied(db_path: Path, writing: bool, e: BaseException) -> IndexAccessDenied:
    """The error for an index that cannot be read, created or written."""
    target = Path(e.filename) if isinstance(e, OSError) and e.filename else db_path
    verb = "write" if writing else "read"
    if writing and not target.exists():
        verb = "create"
    what = "the index folder" if target == db_path.parent else "the index" if target == db_path else ""
    return IndexAccessDenied(f"cannot {verb} {what + ' ' if what else ''}{target}: {_why(e)}; {ELSEWHERE}")


def workspace_unreadable(root: Path, e: BaseException) -> WorkspaceUnreadable:
    """The error for a workspace folder that cannot be listed."""
    return WorkspaceUnreadable(f"cannot read the workspace {root}: {_why(e)}; Spyglass must be able to list it")


def check_readable(root: Path) -> None:
    """Raise :class:`WorkspaceUnreadable` unless ``root`` can be listed."""
    try:
        with os.scandir(root) as it:
            next(it, None)
    except OSError as e:
        if is_denied(e):
            raise workspace_unreadable(root, e) from e
        raise


def denied_message(e: OSError) -> str:
    """One line for any other file Spyglass was not allowed to use."""
    return f"cannot use {e.filename or 'a file'}: {_why(e)}"
