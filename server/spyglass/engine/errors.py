"""Errors a user (or an agent) can act on: each message says what happened and what to do next."""

from __future__ import annotations


class SpyglassError(Exception):
    """Base class for every error the engine raises on purpose."""


class IndexMissing(SpyglassError):
    """There is no index where one was expected."""


class IndexUnusable(SpyglassError):
    """The index exists but cannot be used (corrupt, from a newer version, unreadable)."""


class IndexCorrupt(IndexUnusable):
    """The database file is damaged or is not a Spyglass index."""


class IndexOutdated(IndexUnusable):
    """The index has an older schema, which only a writer may migrate."""


class IndexFromFuture(IndexUnusable):
    """The index was written by a newer Spyglass with a schema this one does not know."""


class IndexLocked(SpyglassError):
    """Another process is writing the index; ``holder`` is who (pid, command, since), as it wrote it."""

    def __init__(self, message: str, holder: dict | None = None):
        super().__init__(message)
        self.holder = holder or {}


class ModelLoadError(SpyglassError):
    """The embedding model could not be loaded; lexical search still works."""


class OutsideWorkspace(SpyglassError):
    """A path points outside the workspace root."""


class UnknownValue(SpyglassError, ValueError):
    """An argument names a language, span kind or other value that does not exist; the message lists the
    valid ones."""


class IndexAccessDenied(IndexUnusable):
    """The index (or its folder) cannot be read or written: permissions, a read-only file system."""


class WorkspaceUnreadable(SpyglassError):
    """The workspace folder cannot be listed."""
