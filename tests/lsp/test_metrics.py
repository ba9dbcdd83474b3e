"""Opt-in Prometheus metrics of a real `spyglass lsp` process (``--metrics PORT``), driven by pytest-lsp's
client and scraped over HTTP."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from scrape import free_port, scrape, value

from .helpers import FIXTURE, folder_state, request, start, wait_until

PORT = free_port()
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "spyglass", "lsp", "--stdio", "--metrics", str(PORT)])

pytestmark = pytest.mark.slow


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_a_language_server_counts_its_requests(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    await start(client, root)
    await wait_until(lambda: folder_state(client, "idle"), timeout=120)
    await request(client, "spyglass/search", {"query": "coupon discount", "k": 3})
    await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="compute_discount"))
    with pytest.raises(Exception, match="invalid params"):
        await request(client, "spyglass/search", {"query": ""})
    samples = scrape(PORT)

    assert value(samples, "spyglass_searches_total", tool="spyglass/search", tier="balanced") == 1
    assert value(samples, "spyglass_searches_total", tool="workspace/symbol", tier="default") == 1
    assert value(samples, "spyglass_requests_total", server="lsp", method="spyglass/search") == 2
    assert value(samples, "spyglass_errors_total", server="lsp", kind="invalid_params") == 1
    assert value(samples, "spyglass_index_files", workspace=str(root.resolve())) >= 5
    assert value(samples, "spyglass_index_work_seconds_count", kind="sync") >= 1
