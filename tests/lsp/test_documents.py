"""Documents: an unsaved editor buffer is searchable at once and gone when closed; a file another process
writes is found."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import wait_until

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


async def test_unsaved_edit_is_searchable_then_saved_and_closed(client: LanguageClient, project: Path):
    path = project / "shop" / "shipping.py"
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
        )
    )
    end = len(text.splitlines())
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=end, character=0), end=types.Position(line=end, character=0)
                    ),
                    text="\n\ndef insured_parcel_price(value: float) -> float:\n    return value * 0.02\n",
                )
            ],
        )
    )

    async def found():
        hits = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="insured_parcel_price"))
        return hits and hits[0].name == "insured_parcel_price" and hits

    hits = await wait_until(found, timeout=10)
    assert hits[0].location.range.start.line == end + 2
    assert "insured_parcel_price" not in path.read_text(encoding="utf-8")  # nothing written to the disk

    # closing without saving: the disk is the truth again
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )

    async def gone():
        hits = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="insured_parcel_price"))
        return not hits or hits[0].name != "insured_parcel_price"

    await wait_until(gone, timeout=10)


async def test_file_written_by_another_process_is_found(client: LanguageClient, project: Path):
    (project / "shop" / "returns.py").write_text(
        'def refund_amount(paid: float) -> float:\n    """Money back for a returned order."""\n    return paid\n',
        encoding="utf-8",
    )

    async def found():
        hits = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="refund_amount"))
        return hits and hits[0].name == "refund_amount"

    await wait_until(found, timeout=10)
