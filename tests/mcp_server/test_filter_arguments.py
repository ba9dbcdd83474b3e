"""search_code's and find_symbol's language and kind arguments, through the SDK's in-memory client over a
lexical index of the polyglot fixture: unknown values are tool errors naming the valid ones, and any case
(or a usual alias) of a language name works."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace
from spyglass.mcp.app import build_server


@pytest.fixture
def server(polyglot: Path):
    ws = Workspace.open(polyglot, writer=True, overrides={"embed": False})
    live = LiveIndex(ws, watch=False).start()
    assert live.wait_idle(timeout=60)
    yield build_server(live)[0]
    live.stop()


async def call(server, tool: str, **args):
    async with Client(server) as client:
        return await client.call_tool(tool, args)


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


@pytest.mark.parametrize(
    ("tool", "args", "named"),
    [
        ("search_code", {"query": "cart", "languages": ["klingon"]}, ["klingon", "python", "typescript", "go"]),
        ("search_code", {"query": "cart", "kinds": ["galaxy"]}, ["galaxy", "function", "window", "section"]),
        ("find_symbol", {"name": "Cart", "kind": "galaxy"}, ["galaxy", "function", "window", "section"]),
    ],
)
async def test_unknown_values_are_tool_errors_naming_the_valid_ones(server, tool, args, named):
    result = await call(server, tool, **args)
    assert result.is_error
    assert all(word in text_of(result) for word in named), text_of(result)


async def test_language_and_kind_names_in_any_case(server):
    result = await call(server, "search_code", query="inventory stock", languages=["Python"], kinds=["Function"])
    hits = result.structured_content["results"]
    assert not result.is_error and hits
    assert {h["language"] for h in hits} == {"python"} and {h["kind"] for h in hits} == {"function"}
    found = await call(server, "find_symbol", name="Warehouse", kind="Class")
    assert not found.is_error and found.structured_content["results"]
