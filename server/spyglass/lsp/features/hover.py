"""``textDocument/hover``: the enclosing symbol's signature and summary, then the spans related to it."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from ...engine import OutsideWorkspace, Related
from ..convert import uri_of
from ..server import SpyglassServer

RELATED = 3
DOC_CHARS = 300
RELATION_LABELS = {"uses": "used in", "similar": "similar", "documents": "documented in"}


def _md_code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`" if text else ""


def card(root: Path, answer: Related) -> str | None:
    """The hover's Markdown, or None when the position is in no definition."""
    span = answer.span
    if span is None or span.kind in ("module", "window"):
        return None
    lines = []
    head = span.signature or f"{span.kind} {span.symbol}"
    lines.append(f"```{span.language}\n{head}\n```")
    doc = span.doc.strip().split("\n\n")[0].strip()
    if doc:
        lines.append(doc[:DOC_CHARS] + ("…" if len(doc) > DOC_CHARS else ""))
    if answer.related:
        lines.append("**Related** (Spyglass)")
        for r in answer.related:
            line = r.line or r.span.start_line  # a use links to the line where it is used
            link = f"[{r.span.path}:{line}]({uri_of(root, r.span.path)}#L{line})"
            label = RELATION_LABELS.get(r.relation, r.relation)
            preview = _md_code(r.preview)
            lines.append(f"- {label}: {link} {r.span.symbol} {preview}".rstrip())
    return "\n\n".join(lines[:2]) + ("\n\n" + "\n".join(lines[2:]) if len(lines) > 2 else "")


def answer(ls: SpyglassServer, path: str, line: int) -> types.Hover | None:
    folder = ls.folder_for(path)
    if folder is None or folder.ws is None:
        return None
    try:
        result = folder.ws.related(path, line, k=RELATED)
    except OutsideWorkspace:
        return None
    text = card(folder.root, result)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def setup(server: SpyglassServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: SpyglassServer, params: types.HoverParams) -> types.Hover | None:
        if not ls.settings.hover:
            return None
        path = to_fs_path(params.text_document.uri)
        if not path:
            return None
        return await ls.run_engine(answer, ls, path, params.position.line + 1)
