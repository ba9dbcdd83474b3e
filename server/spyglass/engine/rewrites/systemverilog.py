"""SystemVerilog whose assertion macros tree-sitter-systemverilog cannot read, rewritten before parsing.

Designs wrap their concurrent assertions in macros (lowRISC's ``prim_assert.sv``: ```ASSERT(Name, a |-> b, clk,
rst)``), and the grammar reads a macro's arguments as expressions, which a property (``|->``, ``|=>``, ``##1``) is
not. Its error can take the whole module: in Ibex (a RISC-V core, with its vendored IP) 69 of the 127 files with an
error were in error from such a call, and the module of ``prim_alert_sender.sv`` was lost to them. A call at the
start of a line whose arguments hold a property operator is blanked, with a ``;`` after it: it defines nothing
(one in the body of a ```define`` is left as it is).
"""

from __future__ import annotations

import re

from .blanking import NOT_LINE_BREAK_RE

# a macro call's start on a line of its own (a compiler directive takes no parentheses after its name)
CALL_RE = re.compile(rb"(?m)^[ \t]*`[A-Za-z_]\w*[ \t]*\(")
PROPERTY_OPERATORS = (b"|->", b"|=>", b"##")
SEMICOLON_RE = re.compile(rb"[ \t]*;")  # the `;` after a call, blanked with it
MAX_CALL = 4096  # a call's text is short: bounded, or a `(` without its `)` would be read to the file's end


def blank_assertion_macros(data: bytes) -> bytes:
    """``data`` with each macro call at a line's start whose arguments hold a property operator blanked."""
    if b"`" not in data or not any(op in data for op in PROPERTY_OPERATORS):
        return data
    out = bytearray(data)
    changed = False
    for m in CALL_RE.finditer(data):
        if _continues(data, m.start()):
            continue  # a line of a `define's body: the macro is text until it is used
        end = _closing(data, m.end(), min(len(data), m.end() + MAX_CALL))
        if end < 0:
            continue
        code = _TEXT_RE.sub(b"", data[m.end() : end])  # a `"##"` in a message is no property
        if not any(op in code for op in PROPERTY_OPERATORS):
            continue
        after = SEMICOLON_RE.match(data, end)
        end = after.end() if after else end
        start = m.start() + len(m[0]) - len(m[0].lstrip())
        out[start:end] = NOT_LINE_BREAK_RE.sub(b" ", data[start:end])
        changed = True
    return bytes(out) if changed else data


def _continues(data: bytes, line_start: int) -> bool:
    """Whether the line before the one starting at ``line_start`` ends with a ``\\`` (LF or CRLF)."""
    end = line_start - 1 if line_start and data[line_start - 1] == 0x0A else line_start
    if end and data[end - 1] == 0x0D:
        end -= 1
    return end > 0 and data[end - 1] == 0x5C


# what the scan for a call's `)` stops at: a parenthesis, a string, a comment (whose parentheses are text)
_TEXT_RE = re.compile(rb'"(?:[^"\\\r\n]|\\.)*"|//[^\r\n]*|/\*.*?\*/', re.DOTALL)  # strings and comments
_SCAN_RE = re.compile(rb"[()]|" + _TEXT_RE.pattern, re.DOTALL)


def _closing(data: bytes, i: int, limit: int) -> int:
    """The index just past the ``)`` that closes the ``(`` before ``i``; -1 if there is none before ``limit``."""
    depth = 1
    for m in _SCAN_RE.finditer(data, i, limit):
        c = data[m.start()]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return m.end()
    return -1
