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


def included_path(source: str, target: str) -> str | None:
    """The workspace-relative path ``include_str!(target)`` reads from the file ``source``, or None when it
    leaves the workspace (or is absolute)."""
    if target.startswith("/") or "\\" in target:
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


def with_included_docs(path: str, language: str, spans: list[Span], read: Callable[[str], str | None]) -> list[Span]:
    """``spans`` with the text of the files their doc attributes include added to their docs. ``read`` gives
    a workspace-relative file's text, or None when it must not be read (ignored, missing, too large)."""
    if language != "rust":
        return spans
    out = []
    for span in spans:
        if span.kind == "module" and span.parent is None and span.start_line == 1:
            targets = [m["path"] for m in INNER_RE.finditer(span.text)]
        else:
            targets = _outer_includes(span)
        texts = []
        for target in targets:
            rel = included_path(path, target)
            text = read(rel) if rel is not None else None
            if text and text.strip():
                texts.append(text.strip())
        if texts:
            doc = "\n".join([span.doc, *texts] if span.doc else texts)
            span = replace(span, doc=doc[:INCLUDED_CHARS])
        out.append(span)
    return out
