"""Every MCP tool through the SDK's in-memory client, over a real index of a copy of the shop fixture (the
real model, real SQLite): answers, bad arguments, path escapes, redaction, budgets and empty results."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from mcp import Client

from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace
from spyglass.mcp.app import build_server

FIXTURE = Path(__file__).parents[1] / "fixtures" / "shop"
AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE"  # AWS's documented example key, split so scanners do not flag this file
DB_PASSWORD = "pr0d-" + "Passw0rd-42"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mcp") / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    (root / "shop" / "storage.py").write_text(
        '"""Where orders are stored."""\n\n'
        f'DB_PASSWORD = "{DB_PASSWORD}"\n'
        f'AWS_ACCESS_KEY_ID = "{AWS_KEY}"\n\n\n'
        "def connect_order_database(host: str):\n"
        '    """Open the connection to the order database."""\n'
        "    return (host, DB_PASSWORD, AWS_ACCESS_KEY_ID)\n",
        encoding="utf-8",
    )
    (root.parent / "outside.py").write_text("SECRET = 1\n", encoding="utf-8")
    os.symlink(root.parent / "outside.py", root / "shop" / "escape.py")
    return root


@pytest.fixture(scope="module")
def live(project: Path):
    ws = Workspace.open(project, writer=True, memory_vectors=True)
    live = LiveIndex(ws, watch=False).start()
    assert live.wait_idle(timeout=120, embedded=True)
    yield live
    live.stop()


@pytest.fixture
def client(live: LiveIndex, tmp_path: Path):
    """The server; each call connects an in-memory client (a client must close in the task that opened it)."""
    server, _session = build_server(live, query_log=tmp_path / "queries.jsonl")
    return server


async def call(server, tool: str, **args):
    async with Client(server) as client:
        return await client.call_tool(tool, args)


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def test_the_tools_are_listed_with_schemas_and_read_only_hints(client):
    async with Client(client) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == {
        "search_code",
        "get_span",
        "get_context",
        "find_symbol",
        "search_history",
        "index_status",
        "reindex",
    }
    for name, tool in tools.items():
        assert tool.description and tool.output_schema, name
        assert tool.annotations.read_only_hint is (name != "reindex"), name
    props = tools["search_code"].input_schema["properties"]
    assert props["k"]["default"] == 5 and props["k"]["maximum"] == 50
    assert props["max_tokens"]["maximum"] == 8000 and "description" in props["query"]


async def test_search_code_ranks_and_explains(client, tmp_path):
    result = await call(client, "search_code", query="the discount a coupon code gives", k=3)
    assert not result.is_error
    data = result.structured_content
    top = data["results"][0]
    assert top["symbol"] == "compute_discount" and top["path"] == "shop/pricing.py"
    assert top["id"].startswith("shop/pricing.py:6-12#") and top["why"]["signals"]
    assert data["index"]["embedded_fraction"] == 1.0 and data["index"]["mode"] == "hybrid"
    text = text_of(result)
    assert "compute_discount" in text and top["id"] in text and "def compute_discount" in text
    logged = [json.loads(line) for line in (tmp_path / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
    assert logged[-1]["query"] == "the discount a coupon code gives" and logged[-1]["results"] == len(data["results"])
    assert logged[-1]["bytes"] == len(text.encode("utf-8")) and logged[-1]["latency_ms"] > 0
    assert data["tier"] == "balanced" and data["elapsed_ms"] > 0 and "(balanced, " in text


async def test_search_code_runs_the_tier_asked_for(client):
    # deep without a re-ranker configured runs balanced, and says so
    for tier, ran, mode in (
        ("fast", "fast", "lexical"),
        ("balanced", "balanced", "hybrid"),
        ("deep", "balanced", "hybrid"),
    ):
        result = await call(client, "search_code", query="the discount a coupon code gives", k=3, tier=tier)
        data = result.structured_content
        assert not result.is_error and data["tier"] == ran and data["index"]["mode"] == mode, tier
        assert data["results"][0]["symbol"] == "compute_discount" and f"({ran}, " in text_of(result)
    assert "needs a re-ranker" in data["index"]["note"]
    bad = await call(client, "search_code", query="discount", tier="turbo")
    assert bad.is_error and "tier" in text_of(bad)


async def test_search_code_filters_and_budget(client):
    only_ts = (
        await call(client, "search_code", query="fetch an order", languages=["typescript"], k=10)
    ).structured_content
    assert only_ts["results"] and {r["language"] for r in only_ts["results"]} == {"typescript"}
    in_docs = (await call(client, "search_code", query="coupon codes", paths=["docs"])).structured_content
    assert in_docs["results"] and all(r["path"].startswith("docs/") for r in in_docs["results"])
    small = await call(client, "search_code", query="shop cart prices taxes shipping", k=20, max_tokens=100)
    snippets = sum(len(r["snippet"]) + len(r["path"]) + len(r["symbol"]) for r in small.structured_content["results"])
    assert snippets <= 100 * 4


async def test_an_empty_answer_is_a_valid_answer(client):
    result = await call(client, "search_code", query="quantum chromodynamics lattice gauge", min_score=0.9)
    assert not result.is_error and result.structured_content["results"] == []
    assert "Nothing passed the confidence floor" in text_of(result)


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("search_code", {"query": ""}, "query"),
        ("search_code", {"query": "x", "k": 0}, "k"),
        ("search_code", {"query": "x", "k": 500}, "k"),
        ("search_code", {"query": "x", "max_tokens": 10**6}, "max_tokens"),
        ("search_code", {"query": "x", "kinds": ["galaxy"]}, "unknown kind"),
        ("search_code", {"query": "x", "paths": ["../outside.py"]}, "outside the workspace"),
        ("search_code", {"query": "x", "paths": ["/etc"]}, "outside the workspace"),
        ("get_span", {"id": "not a span id"}, "span ids look like"),
        ("get_span", {"id": "../outside.py:1-1#0123456789"}, "outside the workspace"),
        ("get_span", {"id": "shop/pricing.py:6-12#abc", "context_lines": 999}, "context_lines"),
        ("get_context", {"path": "/etc/passwd", "line": 1}, "outside the workspace"),
        ("get_context", {"path": "shop/escape.py", "line": 1}, "outside the workspace"),
        ("get_context", {"path": "shop/nothing.py", "line": 1}, "not a file"),
        ("get_context", {"path": "shop/pricing.py", "line": 0}, "line"),
        ("find_symbol", {"name": "x", "kind": "galaxy"}, "unknown kind"),
        ("reindex", {"paths": ["../../etc/passwd"]}, "outside the workspace"),
        ("no_such_tool", {}, "no_such_tool"),
    ],
)
async def test_bad_arguments_are_tool_errors_with_clear_text(client, tool, args, message):
    result = await call(client, tool, **args)
    assert result.is_error
    assert message in text_of(result)


async def test_get_span_current_with_context_and_trimmed(client):
    hit = (await call(client, "search_code", query="compute_discount")).structured_content["results"][0]
    span = (await call(client, "get_span", id=hit["id"])).structured_content
    assert span["status"] == "current" and span["text"].startswith("def compute_discount")
    assert (span["text_start_line"], span["text_end_line"]) == (6, 12) and not span["trimmed"]
    wider = (await call(client, "get_span", id=hit["id"], context_lines=3)).structured_content
    assert (wider["text_start_line"], wider["text_end_line"]) == (3, 15) and "TAX_RATE = 0.2" in wider["text"]
    cut = (await call(client, "get_span", id="shop/cart.py:1-40#0000000000", max_tokens=100)).structured_content
    assert cut["status"] == "stale" and len(cut["text"]) <= 400


async def test_get_span_reports_a_missing_file(client):
    result = await call(client, "get_span", id="shop/gone.py:1-3#0123456789")
    assert not result.is_error and result.structured_content["status"] == "missing"


async def test_secrets_are_redacted_everywhere(client):
    # the module span holds the secrets (its functions only name them): ask for it, since within a file a
    # module comes after its matching functions
    result = await call(
        client, "search_code", query="where orders are stored", paths=["shop/storage.py"], kinds=["module"], k=5
    )
    text = text_of(result)
    assert "storage.py" in text and any(r["kind"] == "module" for r in result.structured_content["results"])
    dumped = json.dumps(result.structured_content)
    for secret in (DB_PASSWORD, AWS_KEY):
        assert secret not in text and secret not in dumped
    assert "[REDACTED" in text
    module = next(r for r in result.structured_content["results"] if r["path"] == "shop/storage.py")
    span = await call(client, "get_span", id=module["id"], context_lines=10)
    assert DB_PASSWORD not in text_of(span) and AWS_KEY not in json.dumps(span.structured_content)


async def test_get_context_gives_the_symbol_imports_and_references(client):
    result = await call(client, "get_context", path="shop/cart.py", line=30)
    data = result.structured_content
    assert data["symbol"]["symbol"] == "Cart.total_price"
    assert any("pricing" in i for i in data["imports"])
    assert {"compute_discount", "add_tax"} <= {d["symbol"] for d in data["references"]}
    assert "Cart.total_price" in text_of(result)


async def test_find_symbol_exact_fuzzy_and_kind(client):
    exact = (await call(client, "find_symbol", name="add_tax")).structured_content["results"]
    assert exact[0]["symbol"] == "add_tax" and exact[0]["signature"].startswith("def add_tax")
    fuzzy = (await call(client, "find_symbol", name="cmptdisc")).structured_content["results"]
    assert fuzzy[0]["symbol"] == "compute_discount" and fuzzy[0]["match"] == "fuzzy"
    classes = (await call(client, "find_symbol", name="Cart", kind="class")).structured_content["results"]
    assert classes and all(d["kind"] == "class" for d in classes)
    none = await call(client, "find_symbol", name="zzzqqqxxx")
    assert none.structured_content["results"] == [] and "No definition" in text_of(none)


async def test_index_status_and_reindex_see_a_new_file(client, project):
    status = (await call(client, "index_status")).structured_content
    assert status["role"] == "owner" and status["embedded_fraction"] == 1.0 and status["model_loaded"]
    assert status["files"] >= 6 and status["head_commit"] is None  # not a git repository
    (project / "shop" / "refunds.py").write_text(
        "def refund_order(order_id: int) -> bool:\n    return True\n", encoding="utf-8"
    )
    done = await call(client, "reindex", paths=["shop/refunds.py"])
    assert not done.is_error and done.structured_content["done"] and done.structured_content["changes"]["added"] == 1
    found = (await call(client, "find_symbol", name="refund_order")).structured_content["results"]
    assert found[0]["path"] == "shop/refunds.py"
