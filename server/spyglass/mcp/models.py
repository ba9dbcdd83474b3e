"""The tools' structured outputs, built from the engine's answers. Their JSON Schemas are published as the
tools' output schemas; line numbers are 1-based and inclusive, paths POSIX and relative to the workspace
root. Text that may hold secrets (snippets, signatures, span text) comes in already redacted."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pydantic import BaseModel, Field

from ..engine import (
    CommitHit,
    HistoryState,
    HotFile,
    LiveStatus,
    SearchedIndex,
    SearchHit,
    SpanLookup,
    SpanSummary,
    SymbolMatch,
)


def _fields(answer: Any, **overrides: Any) -> dict[str, Any]:
    """An engine answer's fields by name, with ``overrides``: the answers use the wire's field names, so a
    model takes the ones it declares (pydantic ignores the rest)."""
    return {f.name: getattr(answer, f.name) for f in fields(answer)} | overrides


class Why(BaseModel):
    signals: dict[str, float] = Field(description="Each matching signal's score (0-1): vector, lexical, name, ...")
    terms: list[str] = Field(description="Query terms found in the span.")


class IndexState(BaseModel):
    """How complete and fresh the index was when the answer was made."""

    files: int
    spans: int
    embedded_fraction: float = Field(description="Share of spans with a vector (1.0 = fully embedded).")
    pending_files: int = Field(description="Changed files not yet re-indexed.")
    pending_embeddings: int
    state: str = Field(description="starting, indexing, embedding, idle, following or error")
    last_update: str | None = None
    mode: str | None = Field(None, description="hybrid (vectors used) or lexical.")
    note: str | None = Field(None, description="Why the search was lexical only, if it was.")

    @classmethod
    def of(cls, index: SearchedIndex, live: LiveStatus) -> IndexState:
        """The index a search used, with the live index's state and pending work."""
        pending_files = live.pending.files + live.pending.buffers
        return cls.model_validate(_fields(index, pending_files=pending_files, state=live.state))


class SearchResult(BaseModel):
    id: str = Field(description="Stable span ID for get_span.")
    path: str
    start_line: int
    end_line: int
    kind: str
    symbol: str
    language: str
    score: float = Field(description="0-1; above ~0.5 is a strong match, below ~0.3 weak.")
    why: Why
    snippet: str = Field(description="The span's most relevant lines (trimmed).")
    file_matches: int = Field(description="Spans of this file that matched (more than 1: the file has more).")

    @classmethod
    def of(cls, hit: SearchHit, snippet: str) -> SearchResult:
        why = Why(signals=hit.why.signals, terms=hit.why.terms)
        return cls.model_validate(_fields(hit, why=why, snippet=snippet))


class SearchOutput(BaseModel):
    query: str
    results: list[SearchResult]
    truncated: bool = Field(description="Results were dropped or shortened to fit max_tokens.")
    index: IndexState
    tier: str = Field(description="The tier that ran: fast, balanced or deep.")
    elapsed_ms: float = Field(description="What the search cost, in milliseconds.")


class SpanOutput(BaseModel):
    id: str
    status: str = Field(description="current, moved, stale (text changed) or missing (file gone)")
    current_id: str | None = Field(None, description="The span's ID now, if it moved or changed.")
    path: str
    start_line: int
    end_line: int
    kind: str | None = None
    symbol: str | None = None
    text: str
    text_start_line: int = Field(description="First line of `text` (with context_lines, before the span).")
    text_end_line: int
    trimmed: bool = Field(description="The text was cut to max_tokens.")
    message: str

    @classmethod
    def of(cls, found: SpanLookup, text: str, trimmed: bool) -> SpanOutput:
        return cls.model_validate(_fields(found, text=text, trimmed=trimmed))


class Definition(BaseModel):
    id: str
    path: str
    start_line: int
    end_line: int
    kind: str
    symbol: str
    signature: str
    container: str | None = None
    score: float | None = None
    match: str | None = Field(
        None, description="exact, prefix, word, substring, typo (a swap of two letters is one edit) or fuzzy"
    )

    @classmethod
    def of(cls, span: SpanSummary, signature: str, found: SymbolMatch | None = None) -> Definition:
        """A definition; ``found``: how a name search matched it."""
        match = {"score": found.score, "match": found.match} if found else {}
        return cls.model_validate(_fields(span, signature=signature, **match))


class SymbolOutput(BaseModel):
    name: str
    results: list[Definition]


class ContextOutput(BaseModel):
    path: str
    line: int
    language: str | None = None
    symbol: Definition | None = Field(None, description="The innermost definition around the line.")
    doc: str | None = None
    imports: list[str]
    references: list[Definition] = Field(description="Definitions the symbol's code refers to, known to the index.")
    message: str | None = None


class StatusOutput(BaseModel):
    root: str
    files: int
    spans: int
    embedded: int
    embedded_fraction: float
    pending_embeddings: int
    pending_files: int
    state: str
    role: str = Field(description="owner (this process indexes) or follower (another process does)")
    model: str | None = None
    model_loaded: bool
    last_update: str | None = None
    head_commit: str | None = None
    branch: str | None = None
    error: str | None = None
    history: HistoryInfo | None = Field(None, description="The repository's history held for search_history.")
    hot_spots: list[HotSpot] = Field(default_factory=list, description="The files changed most often lately.")

    @classmethod
    def of(
        cls,
        status: LiveStatus,
        head_commit: str | None,
        branch: str | None,
        history: HistoryState | None = None,
        hot: list[HotFile] | None = None,
    ) -> StatusOutput:
        pending_files = status.pending.files + status.pending.buffers
        return cls.model_validate(
            _fields(
                status,
                pending_files=pending_files,
                head_commit=head_commit,
                branch=branch,
                history=HistoryInfo.of(history) if history is not None else None,
                hot_spots=[HotSpot.of(h) for h in hot or []],
            )
        )


class ReindexOutput(BaseModel):
    root: str
    done: bool = Field(description="False when another process owns the index (it re-indexes by itself).")
    message: str
    changes: dict[str, int] = Field(default_factory=dict, description="added, changed, deleted, parsed, ...")


class TouchedSymbolOut(BaseModel):
    name: str = Field(description="The definition's qualified name in the commit's version of the file.")
    id: str | None = Field(None, description="The span defining that name today, for get_span (null: gone).")


class TouchedFileOut(BaseModel):
    path: str
    added: int = Field(description="Lines added.")
    deleted: int = Field(description="Lines deleted.")
    symbols: list[TouchedSymbolOut] = Field(description="Definitions around the changed lines.")


class CommitOut(BaseModel):
    sha: str
    date: str = Field(description="Author date, ISO 8601 UTC.")
    subject: str
    message: str = Field(description="The whole message (secrets redacted).")
    files: list[TouchedFileOut]
    files_total: int = Field(description="Files it touched in the workspace; `files` may list fewer.")
    score: float

    @classmethod
    def of(cls, hit: CommitHit, clean) -> CommitOut:
        return cls(
            sha=hit.sha,
            date=hit.date,
            subject=clean(hit.subject) or "",
            message=clean(hit.message) or "",
            files=[
                TouchedFileOut(
                    path=f.path,
                    added=f.added,
                    deleted=f.deleted,
                    symbols=[TouchedSymbolOut(name=s.name, id=s.span_id) for s in f.symbols],
                )
                for f in hit.files
            ],
            files_total=hit.files_total,
            score=hit.score,
        )


class HistoryInfo(BaseModel):
    """What the index holds of the repository's history."""

    head: str | None = Field(None, description="The commit the history was read at (the indexed HEAD).")
    branch: str | None = None
    commits: int
    newest: str | None = None
    oldest: str | None = None
    error: str | None = Field(None, description="Why there is no history (not a git repository, no git).")

    @classmethod
    def of(cls, state: HistoryState) -> HistoryInfo:
        return cls.model_validate(_fields(state))


class HotSpot(BaseModel):
    path: str
    commits: int = Field(description="Indexed commits that touched it.")
    last_change: str

    @classmethod
    def of(cls, hot: HotFile) -> HotSpot:
        return cls.model_validate(_fields(hot))


class HistoryOutput(BaseModel):
    query: str
    commits: list[CommitOut]
    truncated: bool = Field(description="Commits, files or messages were cut to fit max_tokens.")
    history: HistoryInfo


class AskOutput(BaseModel):
    question: str
    answer: str = Field(description="The model's answer (secrets redacted).")
    cited: list[str] = Field(description="Span ids the answer cites, in order (only ids it was given).")
    sources: list[SearchResult] = Field(description="The spans the model was given, best first.")
    model: str
    elapsed_ms: float = Field(description="Search and answer together, in milliseconds.")
