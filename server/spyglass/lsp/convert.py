"""Engine answers (plain dicts, 1-based inclusive lines, paths relative to a root) to LSP shapes."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path

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


def location(root: Path, item: dict) -> types.Location:
    return types.Location(uri=uri_of(root, item["path"]), range=line_range(item["start_line"], item["end_line"]))


def symbol_information(root: Path, item: dict) -> types.SymbolInformation:
    container = item.get("container") or None
    return types.SymbolInformation(
        name=item["name"],
        kind=SYMBOL_KINDS.get(item["kind"], types.SymbolKind.Variable),
        location=location(root, item),
        container_name=container or item["path"],
    )


def span_json(root: Path, item: dict) -> dict:
    """A span summary (``Workspace.span_summary``) for the wire: camelCase, with uri and range."""
    return {
        "id": item["id"],
        "uri": uri_of(root, item["path"]),
        "path": item["path"],
        "range": range_json(item["start_line"], item["end_line"]),
        "kind": item["kind"],
        "name": item["name"],
        "symbol": item["symbol"],
        "signature": item.get("signature", ""),
        "container": item.get("container"),
        "language": item["language"],
    }


def hit_json(root: Path, hit: dict) -> dict:
    """A search hit for ``spyglass/search``."""
    return {
        "id": hit["id"],
        "uri": uri_of(root, hit["path"]),
        "path": hit["path"],
        "range": range_json(hit["start_line"], hit["end_line"]),
        "kind": hit["kind"],
        "symbol": hit["symbol"],
        "language": hit["language"],
        "score": hit["score"],
        "snippet": hit["snippet"],
        "why": hit["why"],
        "fileMatches": hit.get("file_matches", 1),
    }


def freshness_json(root: Path, info: dict) -> dict:
    """A folder's freshness (``Workspace.freshness`` / ``LiveIndex.status``) in camelCase."""
    out = {
        "root": str(root),
        "uri": from_fs_path(str(root)) or root.as_uri(),
        "files": info["files"],
        "spans": info["spans"],
        "embedded": info["embedded"],
        "embeddedFraction": info["embedded_fraction"],
        "pendingEmbeddings": info["pending_embeddings"],
        "model": info.get("model"),
        "lastUpdate": info.get("last_update"),
    }
    for key, name in (
        ("state", "state"),
        ("role", "role"),
        ("error", "error"),
        ("paused", "paused"),
        ("model_loaded", "modelLoaded"),
        ("mode", "mode"),
        ("note", "note"),
    ):
        if key in info:
            out[name] = info[key]
    if "pending" in info:
        p = info["pending"]
        out["pending"] = {"buffers": p["buffers"], "files": p["files"], "fullSync": p["full_sync"]}
    return out
