"""``ask_codebase``: an answer in words from the local LLM the user configured, citing the spans it used.

Listed only when ``llm_url`` is set (see engine/asking.py for what is sent where)."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from .. import render
from ..models import AskOutput, SearchResult
from ..session import Session
from ._common import READ_ONLY, answer

K_LIMIT = 20

ASK_DESCRIPTION = " ".join(
    [
        "Ask a question about this codebase and get a short answer in words from the local LLM the user set up,",
        "grounded in the code search finds for it. The answer cites span ids (for get_span); `sources` lists",
        "every span it was given. Slower than search_code (seconds) and only as good as a small model: prefer",
        "search_code to find code, and this to have a found piece of code explained or summarised.",
    ]
)


def register(server: MCPServer, session: Session) -> None:
    if session.index is None or not session.index.ws.can_ask:  # no index: no settings to read either
        return

    @server.tool(name="ask_codebase", description=ASK_DESCRIPTION, annotations=READ_ONLY)
    def ask_codebase(
        question: Annotated[str, Field(min_length=1, max_length=4000, description="The question.")],
        k: Annotated[int, Field(ge=1, le=K_LIMIT, description=f"Spans to give the model (1-{K_LIMIT}).")] = 8,
    ) -> Annotated[CallToolResult, AskOutput]:
        session.require_index()
        found = session.call("ask_codebase", session.ws.ask, question, k=k)
        out = AskOutput(
            question=question,
            answer=session.clean(found.answer) or "",
            cited=found.cited,
            sources=[SearchResult.of(h, session.clean(h.snippet) or "") for h in found.sources],
            model=found.model,
            elapsed_ms=found.elapsed_ms,
        )
        return answer(out, render.ask(out))
