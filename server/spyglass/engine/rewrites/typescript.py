"""TypeScript that tree-sitter-typescript 0.23 cannot read, rewritten before parsing.

A generic call signature on its own line after another member of an interface or object type (Hono's
overloads: ``  <T>(x: T): R`` under ``  (): HonoBase<...>``) is read as the previous member's type
arguments, and the grammar gives up on the rest of the file: Hono's ``types.ts`` parsed as one error, with 47
of its 80 definitions. A ``;`` put in the signature's indentation ends the previous member, as TypeScript's
own parser does at the line break. The text keeps its length and lines, so every byte offset of the parse
points into the file as written, and what is indexed comes from the file as written. Not for TSX, where a
line may start with an element.
"""

from __future__ import annotations

import re

IDENTIFIER = rb"[A-Za-z_$][\w$]{0,200}"

COMMENT = rb"(?://[^\r\n]{0,2000})?"
# a line whose code (before any ``//`` comment) ends in a name, ``>``, ``)``, ``]`` or a quote, not ``;`` or
# ``,``; then blank or comment lines; then the signature's indentation and ``<`` opening its type parameters
CALL_SIGNATURE_RE = re.compile(
    rb"(?m)^(?P<code>(?:(?!//)[^\r\n]){0,500}?[\w$>)\]'\"])"
    rb"(?P<gap>[ \t]*" + COMMENT + rb"\r?\n(?:[ \t]*" + COMMENT + rb"\r?\n){0,20}[ \t]{0,200})[ \t]"
    rb"(?=<(?:[ \t]*\r?\n|[ \t]*" + IDENTIFIER + rb"[ \t]*(?:extends\b|=|,|>[ \t]*\()))"
)


def rewrite_typescript(data: bytes) -> bytes:
    """``data`` with a ``;`` before each generic call signature that follows another member: same length."""
    return CALL_SIGNATURE_RE.sub(rb"\g<code>\g<gap>;", data)
