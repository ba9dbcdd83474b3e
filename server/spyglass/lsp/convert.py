"""Engine answers (typed, 1-based inclusive lines, paths relative to a root) to LSP shapes."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path

from ..engine import LiveStatus, RelatedItem, SearchHit, SpanSummary

SYMBOL_KINDS = {
    "function": types.SymbolKind.Function,
    "method": types.SymbolKind.Method,
    "class": types.SymbolKind.Class,
    "interface": types.SymbolKind.Interface,
    "struct": types.SymbolKind.Struct,
    "enum": types.SymbolKind.Enum,
    "type": types.SymbolKind.TypeParameter,
    "module": types.SymbolKind.Module,
    "section": types.SymbolKind.String,
    "window": types.SymbolKind.File,
}


def uri_of(root: Path, rel: str) -> str:
    return from_fs_path(str(root / rel)) or (root / rel).as_uri()


def line_range(start_line: int, end_line: int) -> types.Range:
    """Whole lines ``start_line``..``end_line`` (1-based, inclusive) as an LSP range."""
    return types.Range(
        start=types.Position(line=max(0, start_line - 1), character=0),
        end=types.Position(line=max(0, end_line), character=0),
    )


def range_json(start_line: int, end_line: int) -> dict:
    """The same range as plain JSON, for custom requests."""
    return {
        "start": {"line": max(0, start_line - 1), "character": 0},
        "end": {"line": max(0, end_line), "character": 0},
    }


def location(root: Path, span: SpanSummary) -> types.Location:
    return types.Location(uri=uri_of(root, span.path), range=line_range(span.start_line, span.end_line))


def symbol_information(root: Path, span: SpanSummary) -> types.SymbolInformation:
    return types.SymbolInformation(
        name=span.name,
        kind=SYMBOL_KINDS.get(span.kind, types.SymbolKind.Variable),
        location=location(root, span),
        container_name=span.container or span.path,
    )


def span_json(root: Path, span: SpanSummary) -> dict:
    """A span summary for the wire: camelCase, with uri and range."""
    return {
        "id": span.id,
        "uri": uri_of(root, span.path),
        "path": span.path,
        "range": range_json(span.start_line, span.end_line),
        "kind": span.kind,
        "name": span.name,
        "symbol": span.symbol,
        "signature": span.signature,
        "container": span.container,
        "language": span.language,
    }


def related_json(root: Path, item: RelatedItem) -> dict:
    """A related span for ``spyglass/related``: the span, the relation and the line to preview (0-based)."""
    return {
        **span_json(root, item.span),
        "relation": item.relation,
        "score": item.score,
        "preview": item.preview,
        "previewLine": item.line - 1,
    }


def hit_json(root: Path, hit: SearchHit) -> dict:
    """A search hit for ``spyglass/search``."""
    return {
        "id": hit.id,
        "uri": uri_of(root, hit.path),
        "path": hit.path,
        "range": range_json(hit.start_line, hit.end_line),
        "kind": hit.kind,
        "symbol": hit.symbol,
        "language": hit.language,
        "score": hit.score,
        "snippet": hit.snippet,
        "why": asdict(hit.why),
        "fileMatches": hit.file_matches,
    }


def status_json(root: Path, status: LiveStatus) -> dict:
    """A folder's status (``LiveIndex.status``) in camelCase: ``FolderStatus`` in the schema."""
    return {
        "root": str(root),
        "uri": from_fs_path(str(root)) or root.as_uri(),
        "files": status.files,
        "spans": status.spans,
        "embedded": status.embedded,
        "embeddedFraction": status.embedded_fraction,
        "pendingEmbeddings": status.pending_embeddings,
        "model": status.model,
        "lastUpdate": status.last_update,
        "state": status.state,
        "role": status.role,
        "error": status.error,
        "paused": status.paused,
        "modelLoaded": status.model_loaded,
        "pending": {
            "buffers": status.pending.buffers,
            "files": status.pending.files,
            "fullSync": status.pending.full_sync,
        },
    }
