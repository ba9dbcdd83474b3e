"""Finding code: ``search_code`` (by meaning, names, paths or error text) and ``find_symbol`` (by name)."""

from __future__ import annotations

import time
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import Field

from ...engine import KINDS, SearchFilters, SpanSummary, SymbolMatch, Tier, UnknownValue, checked_kinds
from .. import render
from ..models import Definition, IndexState, SearchOutput, SearchResult, SymbolOutput
from ..session import Session
from ._common import MAX_TOKENS_DEFAULT, MAX_TOKENS_LIMIT, READ_ONLY, answer

K_LIMIT = 50

SEARCH_DESCRIPTION = " ".join(
    [
        "Search this workspace's code by meaning, names, paths or error text;",
        "use it instead of grep or reading whole files.",
        'Query in natural language ("where are retries configured"), with identifiers',
        "(parse_config, HttpClient.send), a path, or a pasted error or traceback.",
        "Results are ranked spans (functions, classes, doc sections) with a trimmed snippet and a stable id",
        "for get_span. Scores are 0-1: above ~0.5 is a strong match, below ~0.3 weak; `why` lists the signals",
        "and terms that matched. An empty result means nothing passed the confidence floor: rephrase rather",
        "than lowering min_score blindly. The answer says how fresh the index is (pending files, share",
        "embedded; lexical-only while the model loads), which tier ran and what it cost.",
    ]
)


def register(server: MCPServer, session: Session) -> None:
    @server.tool(name="search_code", description=SEARCH_DESCRIPTION, annotations=READ_ONLY)
    def search_code(
        query: Annotated[str, Field(min_length=1, max_length=20000, description="What to find.")],
        k: Annotated[int, Field(ge=1, le=K_LIMIT, description=f"Most results (1-{K_LIMIT}).")] = 5,
        min_score: Annotated[
            float | None, Field(ge=0, le=1, description="Drop results scoring below this (default: built-in floor).")
        ] = None,
        paths: Annotated[
            list[str] | None, Field(description="Only under these files or folders (relative to the workspace).")
        ] = None,
        globs: Annotated[
            list[str] | None, Field(description='Only paths matching these globs, e.g. "src/**/*.py".')
        ] = None,
        languages: Annotated[
            list[str] | None, Field(description='Only these languages (any case), e.g. ["python", "go"].')
        ] = None,
        kinds: Annotated[list[str] | None, Field(description=f"Only these span kinds: {', '.join(KINDS)}.")] = None,
        max_tokens: Annotated[
            int, Field(ge=100, le=MAX_TOKENS_LIMIT, description=f"Budget for all snippets (max {MAX_TOKENS_LIMIT}).")
        ] = MAX_TOKENS_DEFAULT,
        tier: Annotated[
            Tier | None,
            Field(
                description="fast: names and full text only (tens of ms); balanced: meaning too (the default); "
                "deep: with a re-ranker configured, a wider search re-scored by it (up to ~2 s). Default: the "
                "workspace's setting."
            ),
        ] = None,
    ) -> Annotated[CallToolResult, SearchOutput]:
        started = time.perf_counter()
        scope = list(globs or [])
        for p in paths or []:
            rel = session.rel(p)
            scope += [rel] if (session.root / rel).is_file() else [f"{rel}/*" if rel != "." else "*"]
        try:
            filters = SearchFilters(globs=scope, languages=list(languages or []), kinds=list(kinds or []))
        except UnknownValue as e:
            raise ToolError(str(e)) from None
        session.require_index()
        found = session.call(
            "search_code",
            session.ws.search,
            query,
            k=k,
            filters=filters,
            min_score=min_score,
            max_tokens=max_tokens,
            tier=tier,
        )
        out = SearchOutput(
            query=query,
            results=[SearchResult.of(h, session.clean(h.snippet) or "") for h in found.results],
            truncated=found.truncated,
            index=IndexState.of(found.index, session.live.status()),
            tier=found.tier,
            elapsed_ms=found.elapsed_ms,
        )
        text = render.search(out)
        session.log_query(
            {
                "tool": "search_code",
                "query": query,
                "k": k,
                "min_score": min_score,
                "results": len(out.results),
                "scores": [r.score for r in out.results],
                "bytes": len(text.encode("utf-8")),
                "latency_ms": round(1000 * (time.perf_counter() - started), 1),
                "mode": out.index.mode,
                "tier": out.tier,
            }
        )
        return answer(out, text)

    @server.tool(
        name="find_symbol",
        description="Find definitions by exact or fuzzy name (functions, methods, classes, types), with signatures. "
        "Use for a name you know or half-know (`parse_conf`, `HttpClient`); use search_code for descriptions.",
        annotations=READ_ONLY,
    )
    def find_symbol(
        name: Annotated[str, Field(min_length=1, max_length=200, description="A name or part of one.")],
        kind: Annotated[str | None, Field(description=f"Only this kind: {', '.join(KINDS)}.")] = None,
        k: Annotated[int, Field(ge=1, le=K_LIMIT, description=f"Most results (1-{K_LIMIT}).")] = 10,
    ) -> Annotated[CallToolResult, SymbolOutput]:
        if kind is not None:
            try:
                kind = checked_kinds([kind])[0]
            except UnknownValue as e:
                raise ToolError(str(e)) from None
        session.require_index()
        found = session.call("find_symbol", session.ws.symbols, name, k=K_LIMIT if kind else k, semantic=False)
        results = [definition(session, m.span, m) for m in found if kind is None or m.span.kind == kind][:k]
        out = SymbolOutput(name=name, results=results)
        return answer(out, render.symbols(out))


def definition(session: Session, span: SpanSummary, found: SymbolMatch | None = None) -> Definition:
    """A definition for the agent, its signature redacted."""
    return Definition.of(span, session.clean(span.signature) or "", found)
