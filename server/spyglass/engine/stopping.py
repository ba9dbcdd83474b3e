"""Ending a long-running process (the language server, the MCP server) cleanly on SIGINT, SIGTERM and SIGHUP.

Both servers read stdin on a worker thread that no exception can interrupt, and Python waits for such
threads before it exits, so Ctrl-C used to leave them hanging. Instead, the handler runs the process's
clean-up itself (the writer stops, the unsaved editor buffers get the disk's text back, the writer lock is
released) and then ends the process at once.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
INTERRUPTED = 130  # the exit code when a second signal cuts the clean-up short


class StopOnSignals:
    """Installed once, in the main thread, before serving; ``cleanup`` must be safe to run twice (the
    normal end of the process runs it too)."""

    def __init__(self, cleanup: Callable[[], None], name: str):
        self.cleanup = cleanup
        self.name = name
        self._stopping = threading.Event()

    def install(self) -> StopOnSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                signal.signal(sig, self._handle)
        return self

    def _handle(self, signum: int, _frame) -> None:
        if self._stopping.is_set():  # asked again while cleaning up: stop waiting
            self._exit(INTERRUPTED)
        self._stopping.set()
        log.info("%s: %s received, stopping", self.name, signal.Signals(signum).name)
        try:
            self.cleanup()
        except Exception:
            log.exception("%s: clean-up failed", self.name)
        self._exit(0)

    @staticmethod
    def _exit(code: int) -> None:
        logging.shutdown()
        sys.stderr.flush()
        os._exit(code)
