"""A folder's indexing as standard work-done progress (``$/progress``): begun when the index gets busy,
reported as it goes, ended when it is up to date. Cancellable: the client's cancel calls ``on_cancel``
(the folder pauses its background work until the next ``spyglass/reindex``). Runs on the event loop.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any, Protocol

from lsprotocol import types

from ..engine import Phase

log = logging.getLogger(__name__)

PHASE_LABELS: dict[Phase, str] = {
    "scan": "Scanning files",
    "parse": "Indexing files",
    "model": "Loading the model",
    "embed": "Embedding",
}


class ProgressHost(Protocol):
    """What progress needs from the language server."""

    @property
    def client_progress(self) -> bool: ...  # the client accepts window/workDoneProgress/create

    @property
    def work_done_progress(self) -> Any: ...  # pygls's progress helper: create, begin, report, end, tokens

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> None: ...


class IndexingProgress:
    def __init__(self, host: ProgressHost, title: str, on_cancel: Callable[[], None]):
        self.host = host
        self.title = title
        self.on_cancel = on_cancel
        self._token: str | None = None

    def begin(self) -> None:
        if self._token is not None or not self.host.client_progress:
            return
        token = self._token = f"spyglass-{uuid.uuid4().hex[:12]}"
        progress = self.host.work_done_progress

        def created(*_args: Any) -> None:
            if self._token != token:
                return
            progress.begin(token, types.WorkDoneProgressBegin(title=self.title, cancellable=True, percentage=0))
            future = progress.tokens.get(token)
            if future is not None:
                future.add_done_callback(lambda f: self._cancelled(token) if f.cancelled() else None)

        try:
            progress.create(token, created)
        except Exception:  # the client refused: no progress bar, the status notification remains
            log.exception("cannot create a progress token")
            self._token = None

    def report(self, phase: Phase, done: int, total: int) -> None:
        token = self._token
        if token is None or token not in self.host.work_done_progress.tokens:
            return
        pct = int(100 * done / total) if total else 0
        message = f"{PHASE_LABELS.get(phase, phase)} {done:,}/{total:,}" if total else PHASE_LABELS.get(phase, phase)
        self.host.work_done_progress.report(token, types.WorkDoneProgressReport(message=message, percentage=pct))

    def end(self) -> None:
        token, self._token = self._token, None
        progress = self.host.work_done_progress
        if token is not None and token in progress.tokens:
            progress.end(token, types.WorkDoneProgressEnd(message="Spyglass: index up to date"))
            progress.tokens.pop(token, None)

    def _cancelled(self, token: str) -> None:
        self.on_cancel()
        if self._token == token:
            self.host.call_soon(self.end)
