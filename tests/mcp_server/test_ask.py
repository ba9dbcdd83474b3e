"""ask_codebase through the SDK's in-memory client: listed only when an LLM is configured, answering from a
real llama.cpp server, and a clear tool error when the endpoint is down."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mcp import Client
from tests.llmserver import free_port, llama_server

from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace
from spyglass.mcp.app import build_server

FIXTURE = Path(__file__).parents[1] / "fixtures" / "shop"

pytestmark = pytest.mark.slow


def _server(root: Path, **settings):
    ws = Workspace.open(root, writer=True, overrides={"embed": False, **settings})
    live = LiveIndex(ws, watch=False).start()
    assert live.wait_idle(timeout=60)
    return live, build_server(live)[0]


@pytest.fixture
def shop(tmp_path) -> Path:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    return root


async def test_ask_codebase_answers_with_a_real_local_model_and_cites_given_spans(shop):
    with llama_server() as url:
        live, server = _server(shop, llm_url=url)
        try:
            async with Client(server) as client:
                names = {t.name for t in (await client.list_tools()).tools}
                result = await client.call_tool("ask_codebase", {"question": "How is a coupon discount computed?"})
        finally:
            live.stop()
    assert "ask_codebase" in names
    assert not result.is_error, result.content[0].text
    out = result.structured_content
    assert out["answer"].strip() and out["sources"] and out["elapsed_ms"] > 0
    assert set(out["cited"]) <= {s["id"] for s in out["sources"]}
    assert out["sources"][0]["id"] in result.content[0].text


async def test_ask_codebase_is_not_listed_without_an_llm_and_says_when_its_endpoint_is_down(shop):
    live, server = _server(shop)
    try:
        async with Client(server) as client:
            assert "ask_codebase" not in {t.name for t in (await client.list_tools()).tools}
    finally:
        live.stop()
    live, server = _server(shop, llm_url=f"http://127.0.0.1:{free_port()}/v1")
    try:
        async with Client(server) as client:
            result = await client.call_tool("ask_codebase", {"question": "anything"})
    finally:
        live.stop()
    assert result.is_error and "cannot be reached" in result.content[0].text
