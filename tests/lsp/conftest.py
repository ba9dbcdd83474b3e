"""The language server's fixtures: ``client``, the shared one (a real ``spyglass lsp`` process driven by
pytest-lsp's client over stdio, on the module's own copy of the shop fixture, indexed and embedded before
the first test), and ``fresh_client``, a new server per test that the test itself initializes."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .helpers import FIXTURE, idle_and_embedded, plain, wait_until

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "spyglass", "lsp", "--stdio"])


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The shop fixture, copied once per test module: the module's tests share it (and may change it)."""
    root = tmp_path_factory.mktemp("lsp") / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    return root


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient, project: Path):
    """A server initialized as VS Code on ``project``, once it has indexed and embedded it; its
    ``spyglass/statusChanged`` notifications are kept in ``client.statuses``."""
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


@pytest_lsp.fixture(config=SERVER, loop_scope="module")
async def fresh_client(lsp_client: LanguageClient):
    """A new server for this test alone, not yet initialized (``helpers.start`` does it)."""
    yield
    await lsp_client.shutdown_session()
