"""The language server on a workspace folder it may not write: the user is told which path, why, and how to
put the index elsewhere (run subject to file permissions even as root)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from .helpers import FIXTURE, folder_state, start, wait_until

pytestmark = pytest.mark.slow

UNPRIVILEGED = str(Path(__file__).parents[1] / "unprivileged.py")


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, UNPRIVILEGED, sys.executable, "-m", "spyglass", "lsp"])
)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_a_read_only_folder_is_explained(client, tmp_path, read_only):
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    read_only(root)
    await start(client, root)
    folder = await wait_until(lambda: folder_state(client, "error"), timeout=30)
    errors = [m.message for m in client.messages if "cannot" in m.message]
    for text in (folder["error"], *errors):
        assert str(root / ".spyglass") in text and "permission denied" in text, text
        assert "index_dir" in text and "Errno" not in text, text
    assert errors
