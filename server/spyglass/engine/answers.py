"""What the engine answers: the typed results its public API returns to the front ends.

The front ends turn these into their wire formats (CLI --json, LSP, MCP); nothing here knows a protocol.
Field names and order are those of the CLI's JSON (``spyglass ... --json`` prints these fields as they
stand); a field whose metadata is :data:`OMITTED_WHEN_NONE` is left out of that JSON when it is None. The
vocabularies (Literal types) are the ones ``shared/lsp.schema.json`` and ``extension/src/protocol.ts``
declare; a test compares them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from .snippets import Snippet, shorten
from .spans import Kind

if TYPE_CHECKING:
    from .store import StoredSpan

SearchMode = Literal["hybrid", "lexical"]  # hybrid: vectors took part; lexical: they could not
SpanStatus = Literal["current", "moved", "stale", "missing"]
Relation = Literal["uses", "similar", "documents"]
MatchKind = Literal["exact", "prefix", "word", "substring", "typo", "fuzzy", "semantic"]
FolderState = Literal["starting", "indexing", "embedding", "idle", "following", "error"]
Role = Literal["unknown", "owner", "follower"]  # follower: another process writes the index

OMIT_NONE = "omit_none"  # a field metadata key: the field is left out of JSON when it is None
OMITTED_WHEN_NONE = {OMIT_NONE: True}


# -- search -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchLine:
    """The line of a hit that matched best."""

    number: int  # 1-based line of the file
    text: str


@dataclass(frozen=True)
class Why:
    """Why a hit ranks where it does."""

    signals: dict[str, float]  # each signal's value (0..1)
    matched: list[str]  # the signals that made the score, strongest first
    terms: list[str]  # query words found in the span


@dataclass
class SearchHit:
    id: str
    path: str
    start_line: int
    end_line: int
    kind: Kind
    symbol: str
    language: str
    score: float
    snippet: str  # consecutive lines of the file holding the matching line (snippets.py)
    snippet_start_line: int  # the file line ``snippet`` starts at
    match_line: MatchLine
    why: Why
    file_matches: int = 1  # spans of this file that passed the confidence cut (>1: more to read there)

    def shortened(self, max_lines: int) -> SearchHit:
        """This hit with its snippet cut to ``max_lines`` lines that keep the matching line (for a budget)."""
        cut = shorten(
            Snippet(self.snippet, self.snippet_start_line, self.match_line.number, self.match_line.text),
            max_lines,
        )
        return replace(self, snippet=cut.text, snippet_start_line=cut.start_line)


@dataclass
class SearchOutcome:
    """What the searcher found (the workspace adds the index's freshness to make a :class:`SearchAnswer`)."""

    hits: list[SearchHit]
    mode: SearchMode
    note: str | None = None  # why the search fell back to lexical, if it did
    truncated: bool = False  # results were left out or shortened to honour max_tokens
    tier: str = "balanced"  # which tier ran (search.config.Tier)
    elapsed_ms: float = 0.0  # what it cost


# -- the index's freshness and status -------------------------------------------------------------------
@dataclass(frozen=True)
class Freshness:
    """A cheap summary for every answer: how much is indexed and embedded, and since when."""

    files: int
    spans: int
    embedded: int
    embedded_fraction: float  # 0..1, rounded to 4 places; 1.0 for an empty index
    pending_embeddings: int
    model: str | None  # the model the vectors were made with
    last_update: str | None  # ISO 8601, UTC


@dataclass(frozen=True)
class SearchedIndex(Freshness):
    """The index as a search found it: its freshness and whether vectors took part."""

    mode: SearchMode
    note: str | None = field(default=None, metadata=OMITTED_WHEN_NONE)  # why the search was lexical, if it was


@dataclass(frozen=True)
class SearchAnswer:
    query: str
    results: list[SearchHit]  # best first
    truncated: bool  # results were left out or shortened to honour max_tokens
    index: SearchedIndex
    tier: str = "balanced"  # which tier ran: fast, balanced or deep
    elapsed_ms: float = 0.0  # what the search cost, in milliseconds (ranking and snippets)


@dataclass(frozen=True)
class SkippedFile:
    path: str
    reason: str


@dataclass(frozen=True)
class DiskChanges:
    """Files that differ on disk from the index: not indexed yet, changed since, or gone."""

    new: int
    modified: int
    deleted: int


@dataclass(frozen=True)
class Status(Freshness):
    """Coverage and freshness of a workspace's index, for ``spyglass status``."""

    root: str
    index_path: str
    index_bytes: int
    schema_version: int
    languages: dict[str, int]  # spans per language, most first
    skipped: dict[str, int]  # files skipped per reason
    skipped_total: int
    skipped_files: list[SkippedFile]
    files_with_syntax_errors: int
    syntax_error_files: list[str]
    cached_vectors: int
    configured_model: str | None  # the model the settings ask for (None: no embedding)
    writer: dict[str, Any] | None  # who holds the writer lock, as they wrote it (pid, command, since)
    git_head: str | None
    git_branch: str | None
    history: HistoryState  # what the index holds of the repository's history
    hot_files: list[HotFile]  # the files its commits touched most
    warnings: list[str]
    changed_since_update: DiskChanges


@dataclass(frozen=True)
class PendingWork:
    buffers: int  # editor buffers waiting for their debounce
    files: int  # changed files not yet re-indexed
    full_sync: bool  # a reconcile with the disk is due


@dataclass(frozen=True)
class LiveStatus(Freshness):
    """A live index's coverage and what it is doing: for status bars and ``index_status``."""

    root: str
    state: FolderState
    role: Role
    pending: PendingWork
    open_buffers: int
    paused: bool  # the user cancelled the background work until the next reindex
    model_loaded: bool
    error: str | None
    updates: int  # writes applied since start


# -- spans ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SpanSummary:
    """A span without its text: what pickers, hovers and peeks show."""

    id: str
    path: str
    start_line: int
    end_line: int
    kind: Kind
    name: str
    symbol: str  # the qualified name
    signature: str
    doc: str
    container: str | None  # the enclosing definition's qualified name
    language: str

    @classmethod
    def of(cls, span: StoredSpan) -> SpanSummary:
        return cls(
            id=span.span_id,
            path=span.path,
            start_line=span.start_line,
            end_line=span.end_line,
            kind=span.kind,
            name=span.name,
            symbol=span.qualname,
            signature=span.signature,
            doc=span.doc,
            container=span.parent,
            language=span.language,
        )


@dataclass(frozen=True)
class SymbolMatch:
    """A definition found by name (or, past the name matches, by meaning)."""

    span: SpanSummary
    score: float  # 0..1; the band of the match kind, or the capped search score
    match: MatchKind


@dataclass(frozen=True)
class RelatedItem:
    span: SpanSummary
    relation: Relation
    score: float  # 0..1 within its relation
    preview: str  # one line of the span: for ``uses``, the line where the symbol is used
    line: int  # that line's 1-based number in the file


@dataclass(frozen=True)
class Related:
    """The span at a position (None outside any) and the spans related to it."""

    span: SpanSummary | None
    related: list[RelatedItem]


@dataclass(frozen=True)
class LineContext:
    """What surrounds a line: the enclosing definition (None outside any, ``message`` says why), the file's
    imports and the indexed definitions the enclosing one refers to."""

    path: str
    line: int
    language: str | None
    span: SpanSummary | None
    imports: list[str]
    references: list[SpanSummary]
    message: str | None


@dataclass
class SpanLookup:
    """The answer to "what is span ID now?"."""

    id: str  # the ID asked for
    status: SpanStatus
    path: str
    start_line: int
    end_line: int
    current_id: str | None  # the span's ID now (differs from ``id`` when moved or stale)
    kind: Kind | None
    symbol: str | None
    text: str  # the current lines of the span ("" when missing), with any context lines asked for
    message: str
    # the lines ``text`` covers: the span's own unless context lines were asked for (0: same as the span)
    text_start_line: int = 0
    text_end_line: int = 0

    def __post_init__(self) -> None:
        self.text_start_line = self.text_start_line or self.start_line
        self.text_end_line = self.text_end_line or self.end_line


@dataclass(frozen=True)
class TouchedSymbol:
    name: str  # qualified, as the commit's version of the file named it
    span_id: str | None  # the definition of that name in the file today; None when it is gone


@dataclass(frozen=True)
class TouchedFile:
    path: str
    added: int  # lines
    deleted: int
    symbols: list[TouchedSymbol]


@dataclass(frozen=True)
class CommitHit:
    sha: str
    date: str  # the author date, ISO 8601 UTC
    subject: str
    message: str  # the whole message, secrets redacted
    files: list[TouchedFile]
    files_total: int  # files the commit touched in the workspace (``files`` may hold fewer)
    score: float


@dataclass(frozen=True)
class HistoryState:
    """What the index holds of the repository's history, for status answers."""

    head: str | None  # the commit the history was read at
    branch: str | None
    commits: int
    newest: str | None  # author dates, ISO 8601 UTC
    oldest: str | None
    error: str | None  # why there is none (not a git repository, git not installed)


@dataclass(frozen=True)
class HotFile:
    path: str
    commits: int  # of the indexed ones that touched it
    last_change: str  # ISO 8601 UTC


@dataclass(frozen=True)
class HistoryAnswer:
    query: str
    commits: list[CommitHit]
    truncated: bool  # the token budget cut commits, files or messages
    history: HistoryState
