"""Pascal whose conditional compilation gives tree-sitter-pascal two alternatives side by side, rewritten before
parsing.

The grammar reads a compiler directive (``{$IFDEF FPC}``) as a node between any two tokens and every branch of a
conditional as code, so where the branches are alternatives of one construct the text is no Pascal: a ``uses``
list with an ``{$ELSE}`` branch of other units (``SysUtils; {$ELSE} System.SysUtils; {$ENDIF}``), a calling
convention (``{$IFDEF WINDOWS}stdcall{$ELSE}cdecl{$ENDIF}``), a routine's two headers. In Horse (a web framework
for Delphi and Free Pascal) 51 of 180 files were in error so, some from their first line. The ``{$ELSE}`` and
``{$ELSEIF}`` branches are blanked up to their ``{$ENDIF}`` (or ``{$IFEND}``), and so are the conditional
directives themselves (the grammar reads none inside a type: ``TProc = {$IF DEFINED(FPC)}procedure of object``),
so the grammar reads the first branch only; what only a later branch defines is in its enclosing span, no span
of its own.

The grammar also reads no string that starts with a quote written twice (``''''``, ``'''a'``: one quote), and its
error took the routines after it (SynEdit's tokenizers): each quote written twice inside a string is read as
``__``.
"""

from __future__ import annotations

import re

from .blanking import NOT_LINE_BREAK_RE, blank_group

# a program's or a package's unit named with its file (`Main.Form in 'src\\Main.Form.pas' {FrmMain},`), which the
# grammar does not read: the `in '...'` is blanked
USES_IN_RE = re.compile(rb"(?im)^([ \t]*[\w.]+[ \t]+)(?P<m>in[ \t]+'[^'\r\n]*')(?=[ \t]*(?:\{[^}\r\n]*\}[ \t]*)?[,;])")
# a directive's text is short: bounded, or a `{$IF` without its `}` would be read to the file's end from each one
DIRECTIVE_RE = re.compile(rb"\{\$(IFDEF|IFNDEF|IFOPT|IF|ELSEIF|ELSE|ENDIF|IFEND)\b[^}]{0,4096}\}", re.IGNORECASE)
# comments (quotes in them are text) and strings, in one pass; an unclosed comment runs to the end
TOKEN_RE = re.compile(rb"//[^\r\n]*|\{[^}]*(?:\}|\Z)|\(\*.*?(?:\*\)|\Z)|'(?:[^'\r\n]|'')*'", re.DOTALL)


def blank_else_branches(data: bytes) -> bytes:
    """``data`` with its conditional directives and the text of their ``{$ELSE}`` and ``{$ELSEIF}`` branches
    blanked, the file names of a program's units, and a quote written twice inside a string as ``__``."""
    if b"'" in data:
        data = USES_IN_RE.sub(blank_group, data)
        if b"''" in data:
            data = TOKEN_RE.sub(_doubled_quotes, data)
    if b"{$" not in data:
        return data
    open_: list[int | None] = []  # per open conditional: where its blanked branches start (None: in the first)
    blank: list[tuple[int, int]] = []
    for m in DIRECTIVE_RE.finditer(data):
        blank.append((m.start(), m.end()))  # the grammar reads no directive inside a declaration
        word = m[1].upper()
        if word in (b"ELSE", b"ELSEIF"):
            if open_ and open_[-1] is None:
                open_[-1] = m.end()
        elif word in (b"ENDIF", b"IFEND"):
            if open_:
                start = open_.pop()
                if start is not None:
                    blank.append((start, m.start()))
        else:
            open_.append(None)
    if not blank:
        return data
    out = bytearray(data)
    for start, end in blank:
        out[start:end] = NOT_LINE_BREAK_RE.sub(b" ", data[start:end])
    return bytes(out)


def _doubled_quotes(m: re.Match[bytes]) -> bytes:
    token = m.group(0)
    if not token.startswith(b"'") or len(token) < 4:
        return token
    return token[:1] + token[1:-1].replace(b"''", b"__") + token[-1:]
