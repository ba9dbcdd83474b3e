"""A server's life: indexing with progress and status, bad settings and a model that cannot load, a damaged
index, following another process that owns the index and taking over, several folders, and `spyglass index`
in a terminal asking the server that owns the index."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from spyglass.engine.live import FOLLOWING
from spyglass.engine.lock import WriterLock
from spyglass.engine.workspace import Workspace

from .helpers import check, folder_state, now, plain, request, start, status, symbol, wait_until

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


async def test_indexing_reports_progress_and_status(client: LanguageClient, project: Path):
    s = await status(client)
    check(s, "StatusResult")
    folder = s["folders"][0]
    assert folder["root"] == str(project)
    assert folder["files"] == 6 and folder["spans"] > 10 and folder["role"] == "owner"
    # work-done progress: begun, reported and ended on one token
    reports = [r for rs in client.progress_reports.values() for r in rs]
    assert any(isinstance(r, types.WorkDoneProgressBegin) and "indexing" in r.title for r in reports)
    assert any(isinstance(r, types.WorkDoneProgressEnd) for r in reports)
    # the lighter status notification, as the extension's status bar sees it
    assert client.statuses and client.statuses[-1]["state"] == "idle"
    for note in client.statuses:
        check(note, "StatusChanged")


async def test_index_asks_the_language_server_that_owns_the_index(client: LanguageClient, project: Path):
    (project / "ledger.py").write_text(
        "def reconcile_ledger_totals(entries):\n    return sum(e.amount for e in entries)\n", encoding="utf-8"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "spyglass",
        "index",
        str(project),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "COLUMNS": "200"},
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, err.decode()
    assert "asking the process that owns the index" in err.decode() and "Indexed" in out.decode()
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="reconcile_ledger_totals"))
    assert found and found[0].name == "reconcile_ledger_totals"


async def test_bad_settings_and_a_missing_model_are_reported_and_search_goes_on(fresh_client, shop):
    await start(fresh_client, shop, {"maxResults": -3, "hover": "sometimes", "model": str(shop / "no-such-model")})
    await wait_until(lambda: folder_state(fresh_client, "idle", "error"), timeout=60)
    await wait_until(lambda: now(any("cannot load embedding model" in m.message for m in fresh_client.messages)), 30)
    messages = [m.message for m in fresh_client.messages]
    assert any("maxResults" in m and "using the default" in m for m in messages), messages
    assert any("hover" in m for m in messages), messages
    assert (await symbol(fresh_client, "compute_discount"))[0].name == "compute_discount"
    answer = plain(await request(fresh_client, "spyglass/search", {"query": "coupon discount"}))
    assert "compute_discount" in [r["symbol"] for r in answer["results"][:3]]
    assert answer["folders"][0]["mode"] == "lexical"


async def test_a_damaged_index_is_moved_aside_and_rebuilt(fresh_client, shop):
    (shop / ".spyglass").mkdir()
    (shop / ".spyglass" / "index.db").write_bytes(b"this is not a database" * 100)
    await start(fresh_client, shop)
    await wait_until(lambda: folder_state(fresh_client, "idle"), timeout=60)
    assert any("damaged" in m.message for m in fresh_client.messages)
    assert list((shop / ".spyglass").glob("index.db.corrupt-*"))
    assert (await symbol(fresh_client, "shipping_cost"))[0].name == "shipping_cost"


async def test_follows_while_another_process_owns_the_index_then_takes_over(fresh_client, shop):
    with Workspace.open(shop, writer=True, overrides={"embed": False}) as ws:
        ws.index()
    other = WriterLock(shop / ".spyglass" / "writer.lock")
    other.acquire()
    try:
        await start(fresh_client, shop)
        following = await wait_until(lambda: folder_state(fresh_client, "following"), timeout=30)
        assert following["role"] == "follower"
        assert (await symbol(fresh_client, "compute_discount"))[0].name == "compute_discount"  # reads still work
        # a re-index request is answered at once: the owner re-indexes, a follower has nothing to do
        answer = plain(await request(fresh_client, "spyglass/reindex", {}))
        assert answer["folders"] == [{"root": str(shop), "ok": False, "error": FOLLOWING}]
    finally:
        other.release()
    owner = await wait_until(lambda: folder_state(fresh_client, "idle", "embedding", "indexing"), timeout=30)
    assert owner["role"] == "owner"


async def test_several_workspace_folders_each_get_an_index(fresh_client, shop, tmp_path):
    other = tmp_path / "billing"
    (other / "billing").mkdir(parents=True)
    (other / "billing" / "invoice.py").write_text(
        'def render_invoice(order):\n    """Lay out an invoice for printing."""\n    return str(order)\n',
        encoding="utf-8",
    )
    await fresh_client.initialize_session(
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
        folders = (await status(fresh_client))["folders"]
        return len(folders) == 2 and all(f.get("state") == "idle" for f in folders)

    await wait_until(both_idle, timeout=60)
    roots = sorted(f["root"] for f in (await status(fresh_client))["folders"])
    assert roots == sorted([str(other), str(shop)])
    assert (other / ".spyglass" / "index.db").exists() and (shop / ".spyglass" / "index.db").exists()
    invoice = (await symbol(fresh_client, "render_invoice"))[0]
    assert invoice.location.uri == (other / "billing" / "invoice.py").as_uri()
    assert (await symbol(fresh_client, "compute_discount"))[0].location.uri.startswith(shop.as_uri())
    answer = plain(await request(fresh_client, "spyglass/search", {"query": "invoice printing"}))
    assert answer["results"][0]["symbol"] == "render_invoice" and len(answer["folders"]) == 2
