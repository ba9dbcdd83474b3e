"""TypeScript that tree-sitter-typescript 0.23 cannot read, rewritten before parsing.

A generic call signature on its own line after another member of an interface or object type (Hono's
overloads: ``  <T>(x: T): R`` under ``  (): HonoBase<...>``) is read as the previous member's type
arguments, and the grammar gives up on the rest of the file: Hono's ``types.ts`` parsed as one error, with 47
of its 80 definitions. A ``;`` put in the signature's indentation ends the previous member, as TypeScript's
own parser does at the line break. The text keeps its length and lines, so every byte offset of the parse
points into the file as written, and what is indexed comes from the file as written. Not for TSX, where a
line may start with an element.

A line is such a signature when it starts, after its indentation, with a type parameter list whose closing
``>`` is followed by ``(``, and the code of the line before it (blank and ``//`` lines skipped, a trailing
``//`` comment cut) ends a member: in a name, ``)``, ``]``, ``>`` or a quote, but not in ``=>`` (a curried
arrow, ``(a) =>\\n  <T>(x: T) => x``) nor in a keyword that takes an expression or a type after it.

Two forms of TypeScript 4.7 and 5.0 the grammar reports as syntax errors without losing a definition are
blanked, so that a file is not listed as broken: variance annotations (``interface ZodType<out Output>``,
``<in out TEvent extends EventObject>``) and ``export type * from './types'``.
"""

from __future__ import annotations

import re

from .blanking import blank_group

# `in`, `out` or `in out` before a type parameter's name, after `<` or `,` and any line breaks and one-line comments
VARIANCE_RE = re.compile(
    rb"[<,][ \t]*(?:(?://[^\r\n]{0,200})?\r?\n[ \t]*|/\*[^\r\n]{0,200}?\*/[ \t]*){0,20}(?P<m>(?:in[ \t]+)?out|in)"
    rb"(?=[ \t]+[A-Za-z_$][\w$]{0,200}\s*(?:extends\b|=|,|>))"
)
EXPORT_TYPE_STAR_RE = re.compile(rb"(?m)^[ \t]*export[ \t]+(?P<m>type)(?=[ \t]+\*)")
SIGNATURE_START_RE = re.compile(rb"([ \t]+)<(?=[ \t]*(?:\r?$|[A-Za-z_$]))")
MEMBER_END_RE = re.compile(rb"[\w$>)\]'\"]$")
KEYWORD_END_RE = re.compile(
    rb"(?:^|[^\w$.])(?:return|yield|await|extends|implements|typeof|keyof|in|of|new|as|satisfies|is|else|case)$"
)
LOOKAHEAD = 5_000  # bytes scanned for the type parameter list's closing ``>``


def _closes_before_parenthesis(data: bytes, start: int) -> bool:
    """Whether the ``<`` at ``start`` opens a list whose matching ``>`` is followed by ``(``."""
    depth = braces = 0
    for i in range(start, min(len(data), start + LOOKAHEAD)):
        c = data[i]
        if c == 0x3C:  # <
            depth += 1
        elif c == 0x3E and data[i - 1] != 0x3D:  # > that is not the arrow of =>
            depth -= 1
            if depth == 0:
                return data[i + 1 : i + 201].lstrip().startswith(b"(")
        elif c == 0x7B:  # { of an object type among the parameters (`I extends Input = {}`)
            braces += 1
        elif c == 0x7D:
            braces -= 1
            if braces < 0:
                return False
        elif c == 0x3B and braces == 0:  # ; ends a statement: this was no parameter list
            return False
    return False


def _code(line: bytes) -> bytes:
    """The line without its ``//`` comment and trailing space."""
    return line.split(b"//", 1)[0].rstrip()


def rewrite_typescript(data: bytes) -> bytes:
    """``data`` rewritten for the grammar (the module doc's three forms): same length, same lines."""
    if b"export" in data:
        data = EXPORT_TYPE_STAR_RE.sub(blank_group, data)
    if b"<" not in data:
        return data
    data = VARIANCE_RE.sub(blank_group, data)
    return _end_call_signatures(data)


def _end_call_signatures(data: bytes) -> bytes:
    """``data`` with a ``;`` before each generic call signature that follows another member."""
    out = bytearray(data)
    previous = b""  # the code of the last line that had any
    offset = 0
    for line in data.split(b"\n"):
        m = SIGNATURE_START_RE.match(line)
        if (
            m is not None
            and MEMBER_END_RE.search(previous)
            and not previous.endswith(b"=>")
            and not KEYWORD_END_RE.search(previous)
            and _closes_before_parenthesis(data, offset + m.end(1))
        ):
            out[offset + m.end(1) - 1] = 0x3B  # ;
        code = _code(line)
        if code:
            previous = code
        offset += len(line) + 1
    return bytes(out)
