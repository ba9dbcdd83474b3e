"""The language server object: the open workspace folders, the client's settings, and messages to the user.

Features live in ``lsp/features/``, one module per LSP area, each with a ``setup(server)`` that registers
its handlers. Handlers never block the event loop: engine calls run on worker threads
(:meth:`SpyglassServer.run_engine`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..engine import OutsideWorkspace
from ..metrics import Metrics
from .folders import Folder
from .settings import ClientSettings
from .wire import serve

log = logging.getLogger(__name__)
T = TypeVar("T")


class SpyglassServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("spyglass", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.settings = ClientSettings()
        self.folders: dict[Path, Folder] = {}
        self.roots: list[Path] = []
        self.client_progress = False  # the client accepts window/workDoneProgress/create
        self.loop: asyncio.AbstractEventLoop | None = None
        self.metrics: Metrics | None = None  # opt-in (``--metrics``)
        self._told: set[str] = set()

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on stdio, reading frames with ``wire.serve`` rather than pygls' loop, which leaves a request
        its types refuse unanswered and loses the stream after a bad header (see ``wire.py``)."""
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(serve(self.protocol, stdin or sys.stdin.buffer, self.thread_pool))
        except BrokenPipeError:
            log.error("the client's end of the pipe is closed: stopping")
        except (KeyboardInterrupt, SystemExit):  # SystemExit: the exit notification
            pass
        finally:
            self.shutdown()

    # -- folders ---------------------------------------------------------------------------------
    def folder_for(self, path: str | Path) -> Folder | None:
        """The open folder holding ``path`` (the innermost one when folders nest)."""
        p = Path(path).resolve()
        best = None
        for root, folder in self.folders.items():
            if p.is_relative_to(root) and (best is None or len(root.parts) > len(best.root.parts)):
                best = folder
        return best

    def open_folder(self, root: Path) -> None:
        root = root.resolve()
        if root in self.folders:
            return
        folder = Folder.open(root, self)
        self.folders[root] = folder
        self._adopt_open_documents(folder)

    def _adopt_open_documents(self, folder: Folder) -> None:
        """Documents the editor opened before this folder's index was ready (an editor sends didOpen right
        after ``initialized``, while the index is still opening): their text is indexed now."""
        if folder.live is None:
            return
        for doc in list(self.workspace.text_documents.values()):
            if doc.path and self.folder_for(doc.path) is folder:
                try:
                    folder.live.buffer_changed(doc.path, doc.source)
                except OutsideWorkspace:  # a symlink out of the folder
                    pass

    def close_folder(self, root: Path) -> None:
        folder = self.folders.pop(root.resolve(), None)
        if folder is not None:
            folder.close()

    def close_all(self) -> None:
        for root in list(self.folders):
            self.close_folder(root)

    # -- running engine work ---------------------------------------------------------------------
    async def run_engine(self, fn, *args, **kwargs):
        """Run a blocking engine call on a worker thread (SQLite and the model never block the loop)."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    def call_soon(self, fn, *args: Any) -> None:
        """Run ``fn`` on the event loop from any thread (engine callbacks come from worker threads)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:  # the loop is shutting down
                pass

    # -- telling the user ------------------------------------------------------------------------
    def tell(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        """Show ``message`` to the user once per session (and log it); safe from any thread."""
        if message in self._told:
            return
        self._told.add(message)
        log.log(logging.ERROR if kind == types.MessageType.Error else logging.WARNING, "%s", message)
        self.call_soon(self.window_show_message, types.ShowMessageParams(type=kind, message=f"Spyglass: {message}"))
