"""search_history and the history in index_status, through the SDK's in-memory client over a real git
repository and a real index."""

from __future__ import annotations

import pytest
from mcp import Client
from tests.history_repo import Repo

from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace
from spyglass.mcp.app import build_server

TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    repo = Repo(tmp_path_factory.mktemp("history") / "w")
    repo.commit("Add orders", {"shop/orders.py": "def place(order):\n    return order\n"})
    repo.commit(
        f"Fix double charging when an order is retried\n\nThe retry sent the card twice. token {TOKEN}",
        {"shop/orders.py": "def place(order):\n    if order.paid:\n        return order\n    return order\n"},
    )
    for n in range(6):
        repo.commit(f"Tune the report {n}", {"shop/report.py": f"def report():\n    return {n}\n"})
    ws = Workspace.open(repo.root, writer=True, overrides={"embed": False})
    live = LiveIndex(ws, watch=False).start()
    assert live.wait_idle(timeout=60)
    built, _session = build_server(live)
    yield built, repo
    live.stop()


async def call(server, tool: str, **args):
    async with Client(server) as client:
        return await client.call_tool(tool, args)


async def test_search_history_answers_when_and_why_with_spans(server):
    built, repo = server
    result = await call(built, "search_history", query="why was the card charged twice")
    assert not result.is_error
    out = result.structured_content
    first = out["commits"][0]
    assert first["subject"] == "Fix double charging when an order is retried"
    assert TOKEN not in first["message"] and "[REDACTED:" in first["message"]
    [touched] = first["files"]
    assert touched["path"] == "shop/orders.py" and touched["symbols"][0]["name"] == "place"
    span = await call(built, "get_span", id=touched["symbols"][0]["id"])
    assert "order.paid" in span.structured_content["text"]
    assert out["history"]["commits"] == 8 and out["history"]["head"] == repo.head()
    text = result.content[0].text
    assert "Fix double charging" in text and touched["symbols"][0]["id"] in text and TOKEN not in text


async def test_search_history_filters_by_path_bounds_its_answer_and_refuses_outside_paths(server):
    built, _ = server
    out = (await call(built, "search_history", path="shop/report.py", k=3)).structured_content
    assert [c["subject"] for c in out["commits"]] == ["Tune the report 5", "Tune the report 4", "Tune the report 3"]
    small = (await call(built, "search_history", query="report", k=6, max_tokens=100)).structured_content
    assert small["truncated"] and len(small["commits"]) < 6
    refused = await call(built, "search_history", query="x", path="../../etc/passwd")
    assert refused.is_error and "outside the workspace" in refused.content[0].text


async def test_index_status_names_the_indexed_head_and_the_hot_spots(server):
    built, repo = server
    out = (await call(built, "index_status")).structured_content
    assert out["history"]["head"] == repo.head() and out["history"]["branch"] == "main"
    assert out["hot_spots"][0] == {"path": "shop/report.py", "commits": 6, "last_change": "2026-01-08T12:00:00+00:00"}
    assert "hot spots: shop/report.py (6)" in (await call(built, "index_status")).content[0].text
