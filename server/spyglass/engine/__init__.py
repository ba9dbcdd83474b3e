"""The engine: discovery, parsing, embedding, the store, indexing and search, behind one facade.

Nothing in this package imports an editor or agent protocol. This module is its public surface: the
front ends (``spyglass.cli``, ``spyglass.lsp``, ``spyglass.mcp``) import from here and nowhere deeper
(import-linter contracts in pyproject.toml, run by tests/test_floors.py, check it), so what they may rely
on is the list below.
"""

from .access import denied_message as access_denied_message
from .access import is_denied as is_access_denied
from .answers import (
    OMIT_NONE,
    CommitHit,
    DiskChanges,
    FolderState,
    Freshness,
    HistoryAnswer,
    HistoryState,
    HotFile,
    LineContext,
    LiveStatus,
    MatchKind,
    MatchLine,
    PendingWork,
    Related,
    RelatedItem,
    Relation,
    Role,
    SearchAnswer,
    SearchedIndex,
    SearchHit,
    SearchMode,
    SkippedFile,
    SpanLookup,
    SpanStatus,
    SpanSummary,
    Status,
    SymbolMatch,
    Why,
)
from .asking import AskAnswer, LlmUnavailable
from .buffers import TextChange
from .embedding import Embedder
from .encoders.export import export_onnx
from .errors import (
    IndexAccessDenied,
    IndexCorrupt,
    IndexFromFuture,
    IndexLocked,
    IndexMissing,
    IndexUnusable,
    ModelLoadError,
    OutsideWorkspace,
    SpyglassError,
    UnknownValue,
    WorkspaceUnreadable,
)
from .gitinfo import head as git_head
from .indexer import CHANGE_COUNTS, PHASES, IndexReport, Phase, ProgressFn
from .live import FOLLOWING, LiveIndex, WorkKind
from .owner import OwnerUnavailable
from .owner import update_index as index_through_owner
from .redact import redact as redact_secrets
from .search import CHARS_PER_TOKEN, TIERS, SearchFilters, Tier, checked_kinds, checked_languages
from .settings import DEFAULT_MODEL, Settings
from .spans import KINDS, Kind, parse_span_id
from .stopping import StopOnSignals
from .workspace import Workspace, find_root

__all__ = [
    "AskAnswer",
    "LlmUnavailable",
    "CommitHit",
    "HistoryAnswer",
    "HistoryState",
    "HotFile",
    "CHANGE_COUNTS",
    "CHARS_PER_TOKEN",
    "DEFAULT_MODEL",
    "Embedder",
    "FOLLOWING",
    "KINDS",
    "OMIT_NONE",
    "PHASES",
    "DiskChanges",
    "FolderState",
    "Freshness",
    "IndexAccessDenied",
    "IndexCorrupt",
    "IndexFromFuture",
    "IndexLocked",
    "IndexMissing",
    "IndexReport",
    "IndexUnusable",
    "Kind",
    "LineContext",
    "LiveIndex",
    "WorkKind",
    "LiveStatus",
    "MatchKind",
    "MatchLine",
    "ModelLoadError",
    "OutsideWorkspace",
    "OwnerUnavailable",
    "PendingWork",
    "Phase",
    "ProgressFn",
    "Related",
    "RelatedItem",
    "Relation",
    "Role",
    "SearchAnswer",
    "SearchFilters",
    "TIERS",
    "Tier",
    "SearchHit",
    "SearchMode",
    "SearchedIndex",
    "Settings",
    "SkippedFile",
    "SpanLookup",
    "SpanStatus",
    "SpanSummary",
    "SpyglassError",
    "Status",
    "StopOnSignals",
    "SymbolMatch",
    "TextChange",
    "UnknownValue",
    "Why",
    "Workspace",
    "WorkspaceUnreadable",
    "access_denied_message",
    "checked_kinds",
    "checked_languages",
    "export_onnx",
    "find_root",
    "git_head",
    "index_through_owner",
    "is_access_denied",
    "parse_span_id",
    "redact_secrets",
]
