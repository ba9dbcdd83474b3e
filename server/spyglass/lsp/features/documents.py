"""Open editor buffers: their unsaved text is indexed (debounced) so that search sees what is typed."""

from __future__ import annotations

import logging

from lsprotocol import types
from pygls.uris import to_fs_path

from ...engine import OutsideWorkspace, TextChange
from ..server import SpyglassServer

log = logging.getLogger(__name__)


def _changes(params: types.DidChangeTextDocumentParams) -> list[TextChange] | None:
    """The edits as the engine takes them (None if one replaced the whole text)."""
    out = []
    for c in params.content_changes:
        r = getattr(c, "range", None)
        if r is None:
            return None
        out.append(TextChange(r.start.line, r.start.character, r.end.line, r.end.character, c.text))
    return out


def _buffer_changed(ls: SpyglassServer, uri: str, changes: list[TextChange] | None = None) -> None:
    doc = ls.workspace.get_text_document(uri)
    folder = ls.folder_for(doc.path) if doc.path else None
    if folder is None or folder.live is None:
        return
    try:
        folder.live.buffer_changed(doc.path, doc.source, changes)
    except OutsideWorkspace:  # a symlink out of the folder: not ours to index
        pass


def _buffer_closed(ls: SpyglassServer, uri: str) -> None:
    path = to_fs_path(uri)
    folder = ls.folder_for(path) if path else None
    if path is None or folder is None or folder.live is None:
        return
    try:
        folder.live.buffer_closed(path)
    except OutsideWorkspace:
        pass


def setup(server: SpyglassServer) -> None:
    # pygls keeps each document's text up to date (incremental sync) before these handlers run; they
    # pass the text and the edits on (the edits keep the buffer's syntax tree in step, for an incremental
    # re-parse) and return: typing never waits for indexing
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SpyglassServer, params: types.DidOpenTextDocumentParams) -> None:
        _buffer_changed(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SpyglassServer, params: types.DidChangeTextDocumentParams) -> None:
        _buffer_changed(ls, params.text_document.uri, _changes(params))

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SpyglassServer, params: types.DidSaveTextDocumentParams) -> None:
        _buffer_closed(ls, params.text_document.uri)  # the disk holds the buffer's text now

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SpyglassServer, params: types.DidCloseTextDocumentParams) -> None:
        _buffer_closed(ls, params.text_document.uri)
