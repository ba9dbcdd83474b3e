"""Spyglass's own requests (the VS Code extension's contract, in ``shared/lsp.schema.json`` and docs/lsp.md).

- ``spyglass/search`` {query, k?, filters?: {globs?, languages?, kinds?}, maxTokens?, tier?} -> ranked results,
  the tier that ran and what it cost (elapsedMs)
- ``spyglass/related`` {textDocument: {uri}, position} -> the span there and related locations (peek)
- ``spyglass/span`` {id} -> a span's current text and whether it is stale
- ``spyglass/status`` -> per folder: files, spans, embedded fraction, pending work, model, last update
- ``spyglass/reindex`` {paths?} -> re-index (everything, or these files) and what changed
Malformed params get a JSON-RPC "invalid params" error that says what is wrong.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path

from ...engine import FOLLOWING, OutsideWorkspace, SearchFilters, SpyglassError, Tier, UnknownValue, parse_span_id
from ..convert import hit_json, range_json, related_json, span_json, uri_of
from ..server import SpyglassServer

MAX_K = 200


class _Params(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class Filters(_Params):
    globs: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    kinds: list[str] = Field(default_factory=list)


class SearchParams(_Params):
    query: str = Field(min_length=1, max_length=20000)  # as MCP's search_code: longer only costs time
    k: int = Field(10, ge=1, le=MAX_K)
    filters: Filters = Field(default_factory=Filters)
    max_tokens: int | None = Field(None, ge=50, le=100_000)
    tier: Tier | None = None  # the folder's [search] tier setting when none


class TextDocument(_Params):
    model_config = ConfigDict(extra="ignore")
    uri: str


class Position(_Params):
    line: int = Field(ge=0)
    character: int = Field(ge=0)


class RelatedParams(_Params):
    model_config = ConfigDict(extra="ignore")  # work-done and partial-result tokens may come along
    text_document: TextDocument
    position: Position
    k: int = Field(3, ge=1, le=50)


class SpanParams(_Params):
    id: str = Field(min_length=1)


class ReindexParams(_Params):
    paths: list[str] | None = None  # file URIs or paths; none: reconcile every folder with the disk


def plain(obj: Any) -> Any:
    """pygls hands unknown methods' params over as nested namedtuples: back to JSON-like data."""
    if hasattr(obj, "_asdict"):
        return {k: plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    return obj


def parse(model: type[_Params], params: Any) -> Any:
    data = plain(params)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise JsonRpcInvalidParams(f"params must be an object, not {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'params'}: {err['msg']}" for err in e.errors())
        raise JsonRpcInvalidParams(f"invalid params: {problems}") from None


def _path_of(text: str) -> str:
    return (to_fs_path(text) or text) if text.startswith("file:") else text


# -- handlers' bodies (run on worker threads) ---------------------------------------------------------
def search(ls: SpyglassServer, p: SearchParams) -> dict:
    try:
        filters = SearchFilters(globs=p.filters.globs, languages=p.filters.languages, kinds=p.filters.kinds)
    except UnknownValue as e:
        raise JsonRpcInvalidParams(str(e)) from None
    started = time.perf_counter()
    results: list[dict] = []
    folders = []
    truncated = False
    tier: str = p.tier or "balanced"
    for folder in list(ls.folders.values()):
        if folder.ws is None:
            folders.append(folder.status())
            continue
        answer = folder.ws.search(p.query, k=p.k, filters=filters, max_tokens=p.max_tokens, tier=p.tier)
        tier = answer.tier
        truncated = truncated or answer.truncated
        results.extend(hit_json(folder.root, h) for h in answer.results)
        status = folder.status()
        status["mode"] = answer.index.mode
        if answer.index.note:
            status["note"] = answer.index.note
        folders.append(status)
    results.sort(key=lambda r: -r["score"])
    return {
        "query": p.query,
        "results": results[: p.k],
        "truncated": truncated,
        "folders": folders,
        "tier": tier,
        "elapsedMs": round(1000 * (time.perf_counter() - started), 1),
    }


def related(ls: SpyglassServer, p: RelatedParams) -> dict:
    path = _path_of(p.text_document.uri)
    folder = ls.folder_for(path)
    if folder is None or folder.ws is None:
        return {"span": None, "related": []}
    try:
        answer = folder.ws.related(path, p.position.line + 1, k=p.k)
    except OutsideWorkspace as e:
        raise JsonRpcInvalidParams(str(e)) from None
    if answer.span is None:
        return {"span": None, "related": []}
    items = [related_json(folder.root, r) for r in answer.related]
    return {"span": span_json(folder.root, answer.span), "related": items}


def span(ls: SpyglassServer, p: SpanParams) -> dict:
    try:
        ref = parse_span_id(p.id)
    except ValueError as e:
        raise JsonRpcInvalidParams(str(e)) from None
    candidates = [f for f in ls.folders.values() if f.ws is not None and (f.root / ref.path).exists()]
    candidates = candidates or [f for f in ls.folders.values() if f.ws is not None]
    if not candidates:
        raise JsonRpcInvalidParams("no workspace folder is open")
    folder = candidates[0]
    ws = folder.ws
    if ws is None:  # the folder closed while the request waited
        raise JsonRpcInvalidParams("no workspace folder is open")
    try:
        found = ws.span(p.id)
    except OutsideWorkspace as e:
        raise JsonRpcInvalidParams(str(e)) from None
    return {
        "id": found.id,
        "status": found.status,
        "uri": uri_of(folder.root, found.path),
        "path": found.path,
        "range": range_json(found.start_line, found.end_line),
        "currentId": found.current_id,
        "kind": found.kind,
        "symbol": found.symbol,
        "text": found.text,
        "message": found.message,
    }


def status(ls: SpyglassServer) -> dict:
    return {"folders": [f.status() for f in list(ls.folders.values())]}


async def reindex(ls: SpyglassServer, p: ReindexParams) -> dict:
    waits = []
    by_folder: dict[Path, list[str]] = {}
    for text in p.paths or []:
        path = _path_of(text)
        folder = ls.folder_for(path)
        if folder is None:
            raise JsonRpcInvalidParams(f"{text} is in no open workspace folder")
        by_folder.setdefault(folder.root, []).append(path)
    targets = by_folder if p.paths else {root: None for root in ls.folders}
    out = []
    for root, paths in targets.items():
        folder = ls.folders[root]
        if folder.live is not None and folder.live.role == "follower":
            out.append({"root": str(folder.root), "ok": False, "error": FOLLOWING})  # waiting would never end
        elif folder.live is not None:
            waits.append((folder, asyncio.wrap_future(folder.live.request_sync(paths))))
    for folder, fut in waits:
        try:
            summary = await fut
            out.append({"root": str(folder.root), "ok": True, "report": summary})
        except SpyglassError as e:
            out.append({"root": str(folder.root), "ok": False, "error": str(e)})
    return {"folders": out}


def setup(server: SpyglassServer) -> None:
    @server.feature("spyglass/search")
    async def on_search(ls: SpyglassServer, params: Any) -> dict:
        return await ls.run_engine(search, ls, parse(SearchParams, params))

    @server.feature("spyglass/related")
    async def on_related(ls: SpyglassServer, params: Any) -> dict:
        return await ls.run_engine(related, ls, parse(RelatedParams, params))

    @server.feature("spyglass/span")
    async def on_span(ls: SpyglassServer, params: Any) -> dict:
        return await ls.run_engine(span, ls, parse(SpanParams, params))

    @server.feature("spyglass/status")
    async def on_status(ls: SpyglassServer, params: Any) -> dict:
        return await ls.run_engine(status, ls)

    @server.feature("spyglass/reindex")
    async def on_reindex(ls: SpyglassServer, params: Any) -> dict:
        return await reindex(ls, parse(ReindexParams, params))
