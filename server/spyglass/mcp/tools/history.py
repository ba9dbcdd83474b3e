"""The repository's history: ``search_history`` ("when and why did X change")."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from .. import render
from ..models import CommitOut, HistoryInfo, HistoryOutput
from ..session import Session
from ._common import MAX_TOKENS_DEFAULT, MAX_TOKENS_LIMIT, READ_ONLY, answer

K_LIMIT = 30

HISTORY_DESCRIPTION = " ".join(
    [
        "Search the repository's recent commits: when and why something changed.",
        'Query with words from the change ("coupon rounding fix"), a function or class name, or a file;',
        "`path` keeps commits that touched that file or folder (an empty query then lists them newest first).",
        "Each commit comes with its date, message, the files it touched and the definitions it changed,",
        "each with the id of that definition today (for get_span). Only commits the index holds (the",
        "newest 1,000 by default; index_status says how many and up to which HEAD).",
    ]
)


def register(server: MCPServer, session: Session) -> None:
    @server.tool(name="search_history", description=HISTORY_DESCRIPTION, annotations=READ_ONLY)
    def search_history(
        query: Annotated[str, Field(max_length=20000, description="What changed, or why (may be empty).")] = "",
        path: Annotated[
            str | None, Field(max_length=4096, description="Only commits touching this file or folder.")
        ] = None,
        k: Annotated[int, Field(ge=1, le=K_LIMIT, description=f"Most commits (1-{K_LIMIT}).")] = 5,
        max_tokens: Annotated[
            int, Field(ge=100, le=MAX_TOKENS_LIMIT, description=f"Budget for the answer (max {MAX_TOKENS_LIMIT}).")
        ] = MAX_TOKENS_DEFAULT,
    ) -> Annotated[CallToolResult, HistoryOutput]:
        rel = session.rel(path) if path else None
        session.require_index()
        found = session.call("search_history", session.ws.history, query, k=k, path=rel, max_tokens=max_tokens)
        out = HistoryOutput(
            query=query,
            commits=[CommitOut.of(c, session.clean) for c in found.commits],
            truncated=found.truncated,
            history=HistoryInfo.of(found.history),
        )
        return answer(out, render.history(out))
