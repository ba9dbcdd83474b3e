"""The language server keeps serving through bad settings, a model that cannot load, a damaged index and
another process owning the index; each test starts its own server process."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from spyglass.engine.lock import WriterLock
from spyglass.engine.workspace import Workspace

from .test_server import plain, request, status, wait_until

pytestmark = pytest.mark.slow


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "spyglass", "lsp"]))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def start(client: LanguageClient, root: Path, options: dict | None = None) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=options,
        )
    )


async def folder_state(client: LanguageClient, *states: str) -> dict | None:
    folder = (await status(client))["folders"]
    return folder[0] if folder and folder[0].get("state") in states else None


async def symbol(client: LanguageClient, name: str) -> list:
    return await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=name))


async def test_bad_settings_and_a_missing_model_are_reported_and_search_goes_on(client, shop):
    await start(client, shop, {"maxResults": -3, "hover": "sometimes", "model": str(shop / "no-such-model")})
    await wait_until(lambda: folder_state(client, "idle", "error"), timeout=60)
    await wait_until(lambda: _async(any("cannot load embedding model" in m.message for m in client.messages)), 30)
    messages = [m.message for m in client.messages]
    assert any("maxResults" in m and "using the default" in m for m in messages), messages
    assert any("hover" in m for m in messages), messages
    assert (await symbol(client, "compute_discount"))[0].name == "compute_discount"
    answer = plain(await request(client, "spyglass/search", {"query": "coupon discount"}))
    assert "compute_discount" in [r["symbol"] for r in answer["results"][:3]]
    assert answer["folders"][0]["mode"] == "lexical"


async def test_configuration_change_turns_hover_off_and_reports_bad_values(client, shop):
    await start(client, shop)
    await wait_until(lambda: folder_state(client, "idle"), timeout=60)
    uri = (shop / "shop" / "pricing.py").as_uri()
    params = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=5, character=6)
    )
    assert await client.text_document_hover_async(params) is not None
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"spyglass": {"hover": False, "maxResults": "many"}})
    )
    await wait_until(lambda: _async(any("maxResults" in m.message for m in client.messages)), timeout=10)
    assert await client.text_document_hover_async(params) is None


async def _async(value):
    return value


async def test_a_damaged_index_is_moved_aside_and_rebuilt(client, shop):
    (shop / ".spyglass").mkdir()
    (shop / ".spyglass" / "index.db").write_bytes(b"this is not a database" * 100)
    await start(client, shop)
    await wait_until(lambda: folder_state(client, "idle"), timeout=60)
    assert any("damaged" in m.message for m in client.messages)
    assert list((shop / ".spyglass").glob("index.db.corrupt-*"))
    assert (await symbol(client, "shipping_cost"))[0].name == "shipping_cost"


async def test_follows_while_another_process_owns_the_index_then_takes_over(client, shop):
    with Workspace.open(shop, writer=True, overrides={"embed": False}) as ws:
        ws.index()
    other = WriterLock(shop / ".spyglass" / "writer.lock")
    other.acquire()
    try:
        await start(client, shop)
        following = await wait_until(lambda: folder_state(client, "following"), timeout=30)
        assert following["role"] == "follower"
        assert (await symbol(client, "compute_discount"))[0].name == "compute_discount"  # reads still work
    finally:
        other.release()
    owner = await wait_until(lambda: folder_state(client, "idle", "embedding", "indexing"), timeout=30)
    assert owner["role"] == "owner"


async def test_several_workspace_folders_each_get_an_index(client, shop, tmp_path):
    other = tmp_path / "billing"
    (other / "billing").mkdir(parents=True)
    (other / "billing" / "invoice.py").write_text(
        'def render_invoice(order):\n    """Lay out an invoice for printing."""\n    return str(order)\n',
        encoding="utf-8",
    )
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            workspace_folders=[
                types.WorkspaceFolder(uri=shop.as_uri(), name="shop"),
                types.WorkspaceFolder(uri=other.as_uri(), name="billing"),
            ],
            initialization_options={"model": str(shop / "no-such-model")},  # lexical: fast and enough here
        )
    )

    async def both_idle():
        folders = (await status(client))["folders"]
        return len(folders) == 2 and all(f.get("state") == "idle" for f in folders)

    await wait_until(both_idle, timeout=60)
    roots = sorted(f["root"] for f in (await status(client))["folders"])
    assert roots == sorted([str(other), str(shop)])
    assert (other / ".spyglass" / "index.db").exists() and (shop / ".spyglass" / "index.db").exists()
    invoice = (await symbol(client, "render_invoice"))[0]
    assert invoice.location.uri == (other / "billing" / "invoice.py").as_uri()
    assert (await symbol(client, "compute_discount"))[0].location.uri.startswith(shop.as_uri())
    answer = plain(await request(client, "spyglass/search", {"query": "invoice printing"}))
    assert answer["results"][0]["symbol"] == "render_invoice" and len(answer["folders"]) == 2
