"""workspace/symbol: by exact name, fuzzily, and by meaning."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


async def test_workspace_symbol_by_name_fuzzy_and_meaning(client: LanguageClient, project: Path):
    exact = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="compute_discount"))
    assert exact[0].name == "compute_discount"
    assert exact[0].kind == types.SymbolKind.Function
    assert exact[0].location.uri == (project / "shop" / "pricing.py").as_uri()
    assert exact[0].location.range.start.line == 5  # 0-based: `def compute_discount` is on line 6

    fuzzy = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="totprice"))
    assert fuzzy[0].name == "total_price"
    assert fuzzy[0].kind == types.SymbolKind.Method and fuzzy[0].container_name == "Cart"

    meaning = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="cost of sending a parcel"))
    assert meaning[0].name == "shipping_cost"

    assert await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")) == []
