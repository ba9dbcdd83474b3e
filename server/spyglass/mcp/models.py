"""The tools' structured outputs. Their JSON Schemas are published as the tools' output schemas; line
numbers are 1-based and inclusive, paths POSIX and relative to the workspace root."""

from __future__ import annotations

from pydantic import BaseModel, Field


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


class SearchOutput(BaseModel):
    query: str
    results: list[SearchResult]
    truncated: bool = Field(description="Results were dropped or shortened to fit max_tokens.")
    index: IndexState


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


class ReindexOutput(BaseModel):
    root: str
    done: bool = Field(description="False when another process owns the index (it re-indexes by itself).")
    message: str
    changes: dict[str, int] = Field(default_factory=dict, description="added, changed, deleted, parsed, ...")
