"""Hover: a definition's signature, doc and related links; turned off by a configuration change."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import folder_state, now, start, wait_until

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


async def test_hover_shows_signature_doc_and_related_links(client: LanguageClient, project: Path):
    uri = (project / "shop" / "pricing.py").as_uri()
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=5, character=6)
        )
    )
    assert hover is not None
    text = hover.contents.value
    assert "def compute_discount(total: float, code: str) -> float" in text
    assert "The discount a coupon code gives" in text
    # what uses it (the cart) and where it is documented, as clickable path:line links; a use links to the
    # line where it is used and previews that line
    use = f"[shop/cart.py:32]({(project / 'shop' / 'cart.py').as_uri()}#L32) Cart.total_price"
    assert f"{use} `return add_tax(subtotal - compute_discount(subtotal, self.coupon))`" in text
    assert "docs/pricing.md" in text
    # no card outside any definition (the module docstring line)
    none = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=3)
        )
    )
    assert none is None


async def test_configuration_change_turns_hover_off_and_reports_bad_values(fresh_client, shop):
    await start(fresh_client, shop)
    await wait_until(lambda: folder_state(fresh_client, "idle"), timeout=60)
    uri = (shop / "shop" / "pricing.py").as_uri()
    params = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=5, character=6)
    )
    assert await fresh_client.text_document_hover_async(params) is not None
    fresh_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"spyglass": {"hover": False, "maxResults": "many"}})
    )
    await wait_until(lambda: now(any("maxResults" in m.message for m in fresh_client.messages)), timeout=10)
    assert await fresh_client.text_document_hover_async(params) is None
