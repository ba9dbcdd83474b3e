"""One workspace folder as the language server holds it: its index, kept live, and its progress reports.

Indexing progress goes to the client twice: as standard work-done progress (``$/progress``, see
progress.py; cancelling pauses the background work until the next ``spyglass/reindex``) and as the lighter
``spyglass/statusChanged`` notification a status bar can follow.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types

from ..engine import LiveIndex, LiveStatus, Phase, SpyglassError, Workspace
from ..metrics import Metrics, figures_of
from .convert import status_json
from .progress import IndexingProgress, ProgressHost
from .settings import ClientSettings

log = logging.getLogger(__name__)

STATUS_METHOD = "spyglass/statusChanged"
STATUS_EVERY = 0.5  # seconds between statusChanged notifications while the state stays the same
PROGRESS_EVERY = 0.25  # seconds between $/progress reports


class FolderHost(ProgressHost, Protocol):
    """What a folder needs from the language server."""

    @property
    def settings(self) -> ClientSettings: ...

    @property
    def protocol(self) -> Any: ...  # pygls's protocol: notify

    def tell(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None: ...

    @property
    def metrics(self) -> Metrics | None: ...  # opt-in (``--metrics``)


class Folder:
    def __init__(self, root: Path, server: FolderHost, ws: Workspace | None, error: str | None = None):
        self.root = root
        self.server = server
        self.ws = ws
        self.error = error  # why this folder cannot be searched at all
        self.live: LiveIndex | None = None
        self.progress = IndexingProgress(server, f"Spyglass: indexing {root.name}", on_cancel=self._paused_by_user)
        self._last_status = 0.0
        self._last_state: str | None = None
        self._last_progress = 0.0

    @classmethod
    def open(cls, root: Path, server: FolderHost) -> Folder:
        """Open (or create) the folder's index and start keeping it fresh; never raises."""
        try:
            ws = Workspace.open(root, writer=True, memory_vectors=True, overrides=server.settings.engine_overrides())
        except (SpyglassError, OSError) as e:
            message = f"cannot open the index of {root}: {e}"
            server.tell(message, types.MessageType.Error)
            return cls(root, server, None, message)
        for warning in ws.warnings:
            server.tell(f"{root.name}: {warning}")
        folder = cls(root, server, ws)
        metrics = server.metrics
        folder.live = live = LiveIndex(
            ws,
            on_status=folder._on_status,
            on_progress=folder._on_progress,
            on_work=metrics.worked if metrics else None,
        )
        if metrics:
            metrics.watch(id(folder), lambda: figures_of(live))
        live.start()
        return folder

    def close(self) -> None:
        if self.server.metrics:
            self.server.metrics.unwatch(id(self))
        if self.live is not None:
            self.live.stop()
        elif self.ws is not None:
            self.ws.close()

    def status(self) -> dict:
        if self.live is None:
            return {"root": str(self.root), "state": "error", "error": self.error}
        return status_json(self.root, self.live.status())

    # -- callbacks from the writer thread --------------------------------------------------------
    def _on_status(self, status: LiveStatus) -> None:
        state = status.state
        if status.error:  # told once: a model that cannot load, an index that cannot be written
            self.server.tell(f"{self.root.name}: {status.error}", types.MessageType.Error)
        now = time.monotonic()
        changed = state != self._last_state
        if changed or now - self._last_status >= STATUS_EVERY:
            self._last_status, self._last_state = now, state
            self.server.call_soon(self.server.protocol.notify, STATUS_METHOD, status_json(self.root, status))
        if changed:
            busy = state in ("indexing", "embedding") and not status.paused
            self.server.call_soon(self.progress.begin if busy else self.progress.end)

    def _on_progress(self, phase: Phase, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last_progress < PROGRESS_EVERY and done < total:
            return
        self._last_progress = now
        self.server.call_soon(self.progress.report, phase, done, total)

    def _paused_by_user(self) -> None:
        log.info("%s: indexing cancelled by the user; paused until the next reindex", self.root)
        if self.live is not None:
            self.live.pause()
