"""Reading code by reference: ``get_span`` (a span's current text by ID) and ``get_context`` (what
surrounds a line: the enclosing definition, the file's imports, the definitions it refers to)."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import Field

from ...engine import parse_span_id
from .. import render
from ..models import ContextOutput, SpanOutput
from ..session import Session
from ._common import MAX_TOKENS_DEFAULT, MAX_TOKENS_LIMIT, READ_ONLY, answer, trim
from .search import definition

CONTEXT_LINES_LIMIT = 50


def register(server: MCPServer, session: Session) -> None:
    @server.tool(
        name="get_span",
        description="The current text of a span by the id search_code or find_symbol gave. Says if the code "
        "moved (new id given) or changed since the id was issued. context_lines adds lines around it.",
        annotations=READ_ONLY,
    )
    def get_span(
        id: Annotated[str, Field(min_length=3, max_length=2000, description="A span id: PATH:START-END#HASH.")],
        context_lines: Annotated[
            int, Field(ge=0, le=CONTEXT_LINES_LIMIT, description=f"Lines before and after (0-{CONTEXT_LINES_LIMIT}).")
        ] = 0,
        max_tokens: Annotated[
            int, Field(ge=100, le=MAX_TOKENS_LIMIT, description=f"Budget for the text (max {MAX_TOKENS_LIMIT}).")
        ] = MAX_TOKENS_DEFAULT,
    ) -> Annotated[CallToolResult, SpanOutput]:
        try:
            ref = parse_span_id(id)
        except ValueError as e:
            raise ToolError(f"{e}; span ids look like src/app.py:10-42#0123456789") from None
        session.rel(ref.path)  # refuses ids that point outside the workspace
        found = session.call("get_span", session.ws.span, id, context_lines=context_lines)
        text, trimmed = trim(session.clean(found.text) or "", max_tokens)
        out = SpanOutput.of(found, text, trimmed)
        return answer(out, render.span(out))

    @server.tool(
        name="get_context",
        description="What surrounds a line of a file: the enclosing definition (signature, docs), the file's "
        "imports, and the definitions that code refers to (with ids for get_span). Cheaper than reading the file.",
        annotations=READ_ONLY,
    )
    def get_context(
        path: Annotated[str, Field(min_length=1, max_length=4096, description="A file, relative to the workspace.")],
        line: Annotated[int, Field(ge=1, description="1-based line number.")],
    ) -> Annotated[CallToolResult, ContextOutput]:
        rel = session.rel(path)
        if not (session.root / rel).is_file():
            raise ToolError(f"{rel} is not a file in the workspace")
        found = session.call("get_context", session.ws.context, rel, line)
        span = found.span
        out = ContextOutput(
            path=rel,
            line=line,
            language=found.language,
            symbol=definition(session, span) if span else None,
            doc=session.clean(span.doc) if span else None,
            imports=[session.clean(i) or "" for i in found.imports],
            references=[definition(session, d) for d in found.references],
            message=found.message,
        )
        return answer(out, render.context(out))
