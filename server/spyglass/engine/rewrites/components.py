"""Single-file components (Vue, Svelte, Astro): the grammar reads their scripts and nothing else.

A component keeps its code in ``<script>`` elements, and Astro's also in the ``---`` fence that opens the
file, beside markup and styles that no script grammar can read. Everything outside them is blanked, so that
TypeScript's grammar reads each script where it stands in the file: the text keeps its length and lines, every
byte offset of the parse points into the file as written, and the component's module span still holds its
markup as written (parsing.py reads what is indexed from the file itself, not from the text the grammar read).

A script of another type (``<script type="text/x-template">``, JSON data) is not code and is blanked too.
TypeScript's grammar reads a JavaScript script as well (``lang`` absent); a JSX script is read with errors,
which keep the definitions around them. The forms TypeScript's grammar misreads are rewritten as in a
``.ts`` file (typescript.py).
"""

from __future__ import annotations

import re

from .blanking import NOT_LINE_BREAK_RE
from .typescript import rewrite_typescript

# a script element starts a line (after its indentation), as a component's blocks do: a "<script>" in text, a
# string or an attribute is none; nor is anything inside an HTML comment
START_RE = re.compile(rb"(?m)^[ \t]*(?P<tag><script(?=[\s>/]))|<!--", re.I)
# a start tag's attributes, quoted or not (a ">" inside quotes does not end it), read within TAG_BYTES of its start
TAG_RE = re.compile(rb"<script(?P<attrs>(?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)>", re.I)
TAG_BYTES = 1024
END_RE = re.compile(rb"</script\s*>", re.I)
TYPE_RE = re.compile(rb"""(?:^|\s)type\s*=\s*["']?(?P<type>[^"'\s>]*)""", re.I)
# the types a browser runs as a script (and the TypeScript ones bundlers accept)
SCRIPT_TYPES = frozenset(
    {b"", b"module", b"text/javascript", b"application/javascript", b"text/typescript", b"application/typescript"}
)
# Astro's component script: a "---" line opening the file (after a byte order mark and blank lines) and the next
FENCE_RE = re.compile(rb"\A(?:\xef\xbb\xbf)?(?:[ \t]*\r?\n)*---[ \t]*\r?\n(?P<body>.*?)^---[ \t]*\r?$", re.S | re.M)


def script_ranges(data: bytes, fenced: bool = False) -> list[tuple[int, int]]:
    """The byte ranges of a component's scripts, in file order; with ``fenced``, Astro's opening fence too."""
    ranges = []
    if fenced and (m := FENCE_RE.match(data)):
        ranges.append(m.span("body"))
    pos = ranges[-1][1] if ranges else 0
    # one pass: each start tag is read within TAG_BYTES, and each search goes on from where the last one ended
    while (start := START_RE.search(data, pos)) is not None:
        if start["tag"] is None:  # an HTML comment: skipped whole (a commented-out script is no code)
            close = data.find(b"-->", start.end())
            if close < 0:
                break
            pos = close + 3
            continue
        tag = TAG_RE.match(data, start.start("tag"), start.start("tag") + TAG_BYTES)
        if tag is None:
            pos = start.end()
            continue
        if tag["attrs"].rstrip().endswith(b"/"):  # <script src="..." />: an external script, no text
            pos = tag.end()
            continue
        end = END_RE.search(data, tag.end())
        if end is None:  # no script closes after this point (a compiler rejects the file too)
            break
        kind = TYPE_RE.search(tag["attrs"])
        if kind is None or kind["type"].lower() in SCRIPT_TYPES:
            ranges.append((tag.end(), end.start()))
        pos = end.end()
    return ranges


def scripts_only(data: bytes, fenced: bool = False) -> bytes:
    """``data`` with all but its scripts blanked (line breaks kept), rewritten as TypeScript is."""
    out = bytearray(NOT_LINE_BREAK_RE.sub(b" ", data))
    for start, end in script_ranges(data, fenced):
        out[start:end] = data[start:end]
    return rewrite_typescript(bytes(out))


def rewrite_component(data: bytes) -> bytes:
    """A Vue or Svelte component as TypeScript's grammar should read it: its ``<script>`` elements only."""
    return scripts_only(data)


def rewrite_astro(data: bytes) -> bytes:
    """An Astro component as TypeScript's grammar should read it: its opening fence and ``<script>`` elements."""
    return scripts_only(data, fenced=True)
