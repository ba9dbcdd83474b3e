"""`spyglass index` in a terminal while the language server owns the folder's index: the server updates it."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .test_server import FIXTURE, status, wait_until

pytestmark = [pytest.mark.asyncio(loop_scope="module")]

LEXICAL = {**os.environ, "SPYGLASS_EMBED": "false"}  # no model: the server indexes the lexical signals only


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp-owner") / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    return root


async def owner_idle(client: LanguageClient) -> bool:
    folders = (await status(client))["folders"]
    return bool(folders) and folders[0]["role"] == "owner" and folders[0]["state"] == "idle"


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "spyglass", "lsp", "--stdio"], server_env=LEXICAL),
)
async def client(lsp_client: LanguageClient, project: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="shop")],
        )
    )
    await wait_until(lambda: owner_idle(lsp_client), timeout=120)
    yield
    await lsp_client.shutdown_session()


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
