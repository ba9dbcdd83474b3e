"""`spyglass mcp` on a workspace it may not write: every tool explains why and how to put the index
elsewhere, rather than the server dying with a traceback (run subject to file permissions even as root)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from .test_tools import FIXTURE

pytestmark = pytest.mark.slow

UNPRIVILEGED = str(Path(__file__).parents[1] / "unprivileged.py")


async def test_a_read_only_workspace_is_explained_by_every_tool(tmp_path, read_only):
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    read_only(root)
    async with Client(params(root), read_timeout_seconds=60) as client:
        for name, args in (("search_code", {"query": "discount"}), ("index_status", {})):
            result = await client.call_tool(name, args)
            text = result.content[0].text
            assert result.is_error and str(root / ".spyglass") in text, text
            assert "permission denied" in text and "SPYGLASS_INDEX_DIR" in text and "Errno" not in text, text
    elsewhere = tmp_path / "elsewhere" / "index.db"
    async with Client(params(root, "--db", str(elsewhere)), read_timeout_seconds=60) as client:
        result = await client.call_tool("index_status", {})
        assert not result.is_error and elsewhere.exists(), result.content


def params(root: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=[UNPRIVILEGED, sys.executable, "-m", "spyglass", "mcp", str(root), *extra],
        env=dict(os.environ),
    )
