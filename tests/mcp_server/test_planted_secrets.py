"""The planted secrets (tests/planted_secrets.py) through the MCP tools an agent calls: search_code,
find_symbol, get_span (with context) and get_context. No planted value nor a 12-character slice of it (that
the query did not contain) comes back, in the text or the structured content. Lexical index, in-memory client.
"""

from __future__ import annotations

import json

import pytest
from mcp import Client

import planted_secrets as planted
from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace
from spyglass.mcp.app import build_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    root = planted.write_corpus(tmp_path_factory.mktemp("planted"))
    live = LiveIndex(Workspace.open(root, writer=True, overrides={"embed": False}), watch=False).start()
    assert live.wait_idle(timeout=120)
    server, _session = build_server(live)
    yield server
    live.stop()


def _shown(result) -> str:
    """What an answer shows, less the query it echoes."""
    data = dict(result.structured_content or {})
    data.pop("query", None)
    for r in data.get("results", []):
        r.get("why", {}).pop("terms", None)  # the query's own words found in the span
    texts = [c.text for c in result.content if c.type == "text"]
    return json.dumps(data) + "\n".join(texts)


async def test_no_tool_returns_a_planted_secret(server):
    async with Client(server) as client:
        for p in planted.PLANTED:
            for query in (*p.queries, p.value[: len(p.value) // 2]):
                found = await client.call_tool("search_code", {"query": query, "k": 10, "min_score": 0})
                text = "\n".join(c.text for c in found.content if c.type == "text").replace(query, "")
                assert planted.leaks(_shown(found).replace(query, ""), ignore=query) == [], (p.kind, query, text)
                for r in found.structured_content["results"]:
                    span = await client.call_tool("get_span", {"id": r["id"], "context_lines": 20})
                    assert planted.leaks(_shown(span)) == [], (p.kind, r["id"])
                    context = await client.call_tool("get_context", {"path": r["path"], "line": r["start_line"]})
                    assert planted.leaks(_shown(context)) == [], (p.kind, r["path"])
            for word in p.queries[0].split():
                symbols = await client.call_tool("find_symbol", {"name": word, "k": 20})
                assert planted.leaks(_shown(symbols), ignore=word) == [], (p.kind, word)
