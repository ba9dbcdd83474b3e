"""``workspace/symbol``: names (exact, prefix, fuzzy) and meaning, across every open folder."""

from __future__ import annotations

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from ..convert import symbol_information
from ..server import SpyglassServer

MAX_QUERY = 1000  # characters: a name or a few words; a longer query only costs time (10 MB took minutes)


def find(ls: SpyglassServer, query: str) -> list[types.SymbolInformation]:
    k = ls.settings.max_results
    found: list[tuple[float, int, types.SymbolInformation]] = []
    for folder in list(ls.folders.values()):
        if folder.ws is None:
            continue
        for i, match in enumerate(folder.ws.symbols(query, k=k)):
            found.append((match.score, i, symbol_information(folder.root, match.span)))
    found.sort(key=lambda t: (-t[0], t[1]))
    return [info for _, _, info in found[:k]]


def setup(server: SpyglassServer) -> None:
    @server.feature(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(
        ls: SpyglassServer, params: types.WorkspaceSymbolParams
    ) -> list[types.SymbolInformation]:
        query = params.query.strip()
        if not query:
            return []
        if len(query) > MAX_QUERY:
            raise JsonRpcInvalidParams(f"query: at most {MAX_QUERY} characters, not {len(query)}")
        return await ls.run_engine(find, ls, query)
