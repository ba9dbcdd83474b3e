"""The real language server process, driven by pytest-lsp's client over stdio, on a small fixture project."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import time
from pathlib import Path

import jsonschema
import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

FIXTURE = Path(__file__).parents[1] / "fixtures" / "shop"
SCHEMA = json.loads((Path(__file__).parents[2] / "shared" / "lsp.schema.json").read_text(encoding="utf-8"))

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


def check(answer, definition: str) -> None:
    """``answer`` validates against ``#/$defs/<definition>`` of the shared contract."""
    schema = {"$ref": f"#/$defs/{definition}", "$defs": SCHEMA["$defs"]}
    jsonschema.validate(answer, schema)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp") / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    return root


async def request(client: LanguageClient, method: str, params) -> dict:
    return await client.protocol.send_request_async(method, params)


async def wait_until(predicate, timeout: float = 60.0, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(step)


def plain(obj):
    if hasattr(obj, "_asdict"):
        return {k: plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    return obj


async def status(client: LanguageClient) -> dict:
    return plain(await request(client, "spyglass/status", {}))


async def idle_and_embedded(client: LanguageClient) -> dict | None:
    s = await status(client)
    folder = s["folders"][0] if s["folders"] else None
    if folder and folder.get("state") == "idle" and folder["embeddedFraction"] == 1.0 and folder["spans"]:
        return s
    return None


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "spyglass", "lsp", "--stdio"]),
)
async def client(lsp_client: LanguageClient, project: Path):
    statuses: list = []
    lsp_client.feature("spyglass/statusChanged")(lambda params: statuses.append(plain(params)))
    lsp_client.statuses = statuses
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="shop")],
            initialization_options={"maxResults": 20, "hover": True},
        )
    )
    await wait_until(lambda: idle_and_embedded(lsp_client), timeout=120)
    yield
    await lsp_client.shutdown_session()


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


async def test_workspace_symbol_by_name_fuzzy_and_meaning(client: LanguageClient, project: Path):
    exact = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="compute_discount"))
    assert exact[0].name == "compute_discount"
    assert exact[0].kind == types.SymbolKind.Function
    assert exact[0].location.uri == (project / "shop" / "pricing.py").as_uri()
    assert exact[0].location.range.start.line == 5  # 0-based: `def compute_discount` is on line 6

    fuzzy = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="totprice"))
    assert fuzzy[0].name == "total_price"
    assert fuzzy[0].kind == types.SymbolKind.Method and fuzzy[0].container_name == "Cart"

    meaning = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="cost of sending a parcel"))
    assert meaning[0].name == "shipping_cost"

    assert await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")) == []


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


async def test_search_request_matches_the_contract(client: LanguageClient, project: Path):
    answer = plain(await request(client, "spyglass/search", {"query": "coupon discount on the order total", "k": 5}))
    check(answer, "SearchResult")
    top = answer["results"][0]
    assert top["path"] == "shop/pricing.py" and top["symbol"] == "compute_discount"
    assert top["uri"] == (project / "shop" / "pricing.py").as_uri()
    assert top["range"]["start"]["line"] == 5
    assert top["why"]["signals"] and "discount" in top["why"]["terms"]
    assert answer["folders"][0]["mode"] == "hybrid"

    only_ts = plain(
        await request(client, "spyglass/search", {"query": "fetch order", "filters": {"languages": ["typescript"]}})
    )
    assert only_ts["results"] and {r["language"] for r in only_ts["results"]} == {"typescript"}


async def test_related_and_span_requests(client: LanguageClient, project: Path):
    uri = (project / "shop" / "pricing.py").as_uri()
    related = plain(
        await request(
            client, "spyglass/related", {"textDocument": {"uri": uri}, "position": {"line": 7, "character": 4}}
        )
    )
    check(related, "RelatedResult")
    assert related["span"]["symbol"] == "compute_discount"
    relations = {(r["path"], r["relation"]) for r in related["related"]}
    assert ("shop/cart.py", "uses") in relations and ("docs/pricing.md", "documents") in relations
    use = next(r for r in related["related"] if r["relation"] == "uses")
    assert (use["previewLine"], use["preview"]) == (
        31,
        "return add_tax(subtotal - compute_discount(subtotal, self.coupon))",
    )

    span = plain(await request(client, "spyglass/span", {"id": related["span"]["id"]}))
    check(span, "SpanResult")
    assert span["status"] == "current" and span["text"].startswith("def compute_discount")


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


async def test_reindex_reports_what_changed(client: LanguageClient, project: Path):
    (project / "shop" / "shipping.py").write_text(
        (project / "shop" / "shipping.py").read_text(encoding="utf-8") + "\n\nFREE_SHIPPING_OVER = 50\n",
        encoding="utf-8",
    )
    answer = plain(await request(client, "spyglass/reindex", {}))
    check(answer, "ReindexResult")
    assert answer["folders"][0]["ok"] is True
    one = plain(await request(client, "spyglass/reindex", {"paths": [(project / "shop" / "cart.py").as_uri()]}))
    check(one, "ReindexResult")
    report = one["folders"][0]["report"]
    assert report["unchanged"] >= 1 and report["parsed"] == 0  # the watcher may add its own unchanged files


@pytest.mark.parametrize(
    "method, params, message",
    [
        ("spyglass/search", {"k": 5}, "query"),
        ("spyglass/search", {"query": "x", "k": 0}, "k"),
        ("spyglass/search", {"query": "x", "bogus": 1}, "bogus"),
        ("spyglass/span", {"id": "not an id"}, "not a span ID"),
        (
            "spyglass/related",
            {"textDocument": {"uri": "file:///etc/passwd"}, "position": {"line": 0, "character": 0}},
            None,
        ),
        ("spyglass/reindex", {"paths": ["/etc/passwd"]}, "no open workspace folder"),
    ],
)
async def test_bad_requests_get_errors_not_crashes(client: LanguageClient, method, params, message):
    if message is None:  # outside every folder: an empty answer, not an error
        assert plain(await request(client, method, params)) == {"span": None, "related": []}
    else:
        with pytest.raises(JsonRpcInvalidParams, match=message):
            await request(client, method, params)
    assert (await status(client))["folders"][0]["state"] in ("idle", "indexing", "embedding")
