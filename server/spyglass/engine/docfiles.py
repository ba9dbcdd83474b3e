"""Documentation a definition keeps in a file of its own: Rust's ``#[doc = include_str!("path")]``.

rustdoc makes the named file's text the documentation of the item the attribute is on, and an inner
attribute (``#![doc = include_str!("../docs/extract.md")]``, a crate's ``#![doc = include_str!("../README.md")]``)
the documentation of the module it is in. Crates such as axum keep every module's and many methods' docs that
way, so without it those modules have no documentation at all to be found by. The path is relative to the
source file, as ``include_str!`` reads it.

Only a file the index itself would index is read (the caller's ``read``), so nothing ignored or outside the
workspace becomes a span's doc.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import replace

from .spans import Span

# one attribute: ``#[doc = include_str!("x.md")]`` (outer) or ``#![doc = include_str!("x.md")]`` (inner)
_INCLUDE = r'#{bang}\[\s*doc\s*=\s*include_str!\s*\(\s*"(?P<path>[^"\\\n]+)"\s*\)\s*\]'
INNER_RE = re.compile(r"^" + _INCLUDE.format(bang="!"), re.MULTILINE)  # unindented: the file's own module
OUTER_RE = re.compile(r"^\s*" + _INCLUDE.format(bang=""))
ATTRIBUTE_OR_COMMENT = ("#[", "//")
INCLUDED_CHARS = 1000  # as much of the file as a doc keeps (parsing.DOC_CHARS)
MAX_INCLUDES = 16  # files one span reads at most (a hostile file may name thousands)


def included_path(source: str, target: str) -> str | None:
    """The workspace-relative path ``include_str!(target)`` reads from the file ``source``, or None when it
    leaves the workspace (or is absolute)."""
    if target.startswith("/") or "\\" in target or any(ord(c) < 32 for c in target):
        return None
    path = posixpath.normpath(posixpath.join(posixpath.dirname(source), target))
    return None if path == ".." or path.startswith("../") or path == "." else path


def _outer_includes(span: Span) -> list[str]:
    """The include paths of the attributes above a definition (the first lines of its span)."""
    found = []
    for line in span.text.splitlines():
        if not line.lstrip().startswith(ATTRIBUTE_OR_COMMENT):
            break
        if m := OUTER_RE.match(line):
            found.append(m["path"])
    return found


def _is_file_module(span: Span, file_name: str) -> bool:
    """Whether ``span`` is (a part of) the span of the whole file, not an inline ``mod name { }``."""
    return span.kind == "module" and span.parent is None and span.name == file_name


def _with_docs(path: str, doc: str, targets: list[str], read: Callable[[str], str | None]) -> str:
    """``doc`` and the text of the files ``targets`` name (each read once, at most MAX_INCLUDES of them),
    as much as a doc keeps."""
    for target in list(dict.fromkeys(targets))[:MAX_INCLUDES]:
        if len(doc) >= INCLUDED_CHARS:
            break
        rel = included_path(path, target)
        text = read(rel) if rel is not None else None
        if text and text.strip():
            doc = f"{doc}\n{text.strip()}" if doc else text.strip()
    return doc[:INCLUDED_CHARS]


def with_included_docs(path: str, language: str, spans: list[Span], read: Callable[[str], str | None]) -> list[Span]:
    """``spans`` with the text of the files their doc attributes include added to their docs. ``read`` gives
    a workspace-relative file's text, or None when it must not be read (ignored, missing, too large)."""
    if language != "rust":
        return spans
    file_name = posixpath.basename(path)
    head = next((s for s in spans if _is_file_module(s, file_name) and s.start_line == 1), None)
    # inner attributes open a file, so its first part holds them; every part of a long file gets the doc
    module_doc = _with_docs(path, head.doc, [m["path"] for m in INNER_RE.finditer(head.text)], read) if head else ""
    out = []
    for span in spans:
        if _is_file_module(span, file_name):
            doc = module_doc if head is not None and span.doc == head.doc else span.doc
        else:
            doc = _with_docs(path, span.doc, _outer_includes(span), read)
        out.append(replace(span, doc=doc) if doc != span.doc else span)
    return out
