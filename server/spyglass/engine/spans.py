"""Spans, the unit of indexing, and their stable IDs.

A span is a function, method, class, heading section, module skeleton or a window of a file no parser
covers. Its ID is derived from where it is and what it says::

    <posix path relative to the root>:<start line>-<end line>#<first 10 hex digits of the text hash>

e.g. ``src/app/config.py:12-40#3f9a0c11be``. Line numbers are 1-based and inclusive. Because the ID
carries the path, the range and the hash, anyone holding it can later tell whether the span is still
there (same range, same hash), has moved (same hash elsewhere in the file) or has changed (stale).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Literal, get_args

Kind = Literal["function", "method", "class", "interface", "struct", "enum", "type", "module", "section", "window"]
KINDS: tuple[Kind, ...] = get_args(Kind)


def known_kind(name: str) -> str | None:
    """``name`` as one of :data:`KINDS` in any case ("Function" -> "function"), or None if it is none."""
    kind = name.strip().lower()
    return kind if kind in KINDS else None


HASH_CHARS = 10
# a path may hold any character a file name can (':', '#', a newline): the last ':START-END#HASH' ends it
_ID_RE = re.compile(rf"(?P<path>.+):(?P<start>\d+)-(?P<end>\d+)#(?P<hash>[0-9a-f]{{{HASH_CHARS}}})", re.S)


def text_hash(text: str) -> str:
    """A content hash of ``text`` (hex blake2b, 128 bits): the key for caches and staleness checks."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class Span:
    """One indexed piece of a file.

    ``text`` is what is indexed for this span. For a definition that contains other definitions
    (a class and its methods, a module and its functions, a section and its subsections) the bodies of
    the children are elided and only their first line is kept, so every line's text is indexed once,
    in the innermost span that holds it, while ``start_line``/``end_line`` still cover the whole symbol.
    """

    kind: Kind
    name: str  # short name ("parse", "Config", "Installation"); the file name for module/window spans
    qualname: str  # "Config.parse", "pkg.func"; equals name at top level
    signature: str  # one line: "def parse(self, text: str) -> Config"; "" when it has none
    doc: str  # docstring or leading doc comment, stripped; "" when none
    parent: str | None  # qualname of the enclosing definition, None at top level
    language: str  # "python", "typescript", ..., "text" for plain windows
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    start_byte: int  # 0-based offset into the file's UTF-8 bytes (a notebook's: into its code, notebooks.py)
    end_byte: int  # exclusive
    text: str
    text_hash: str = field(default="")

    def __post_init__(self) -> None:
        if not self.text_hash:
            object.__setattr__(self, "text_hash", text_hash(self.text))

    def span_id(self, path: str) -> str:
        return make_span_id(path, self.start_line, self.end_line, self.text_hash)


def make_span_id(path: str, start_line: int, end_line: int, hash_hex: str) -> str:
    return f"{path}:{start_line}-{end_line}#{hash_hex[:HASH_CHARS]}"


@dataclass(frozen=True, slots=True)
class SpanRef:
    """A span ID taken apart."""

    path: str
    start_line: int
    end_line: int
    hash_prefix: str


def parse_span_id(span_id: str) -> SpanRef:
    """Split a span ID into its parts; raises ValueError with a readable message if it is not one."""
    m = _ID_RE.fullmatch(span_id.strip())
    if not m:
        raise ValueError(f"not a span ID: {span_id!r} (expected PATH:START-END#HASH, e.g. src/app.py:10-42#3f9a0c11be)")
    start, end = int(m["start"]), int(m["end"])
    if start < 1 or end < start:
        raise ValueError(f"not a span ID: {span_id!r} (bad line range {start}-{end})")
    return SpanRef(m["path"], start, end, m["hash"])
