"""Haskell whose ``#else`` and ``#elif`` branches tree-sitter-haskell would skip, rewritten before parsing.

The grammar reads CPP's ``#if`` branch as code and skips its ``#else`` and ``#elif`` branches as one ``cpp``
node. A library whose default build is an ``#else`` branch loses it: aeson's ``KeyMap.hs`` keeps its
``HashMap`` implementation there, and its 43 definitions were no span (only the ordered map's of the ``#if``
branch were); Data.Graph's ``SetM`` and text's ``c_memchr`` had no span at all.

Where every branch of a conditional starts with a top-level declaration (at the line's start), its ``#else``
and ``#elif`` lines are blanked, so every branch is read as code: a name defined in two branches far apart is
two spans, as C's are, and one whose alternatives are adjacent is one span, as a name's clauses are. A
conditional inside a declaration (``   in case r `eqWord#` 0## of``), around the module header, or inside a
pragma is left to the grammar: two alternatives of one expression side by side are no Haskell.
"""

from __future__ import annotations

import re

DIRECTIVE_RE = re.compile(rb"#[ \t]*([a-z]+)")  # #if, #ifdef, #else, #endif, #define, #include ...
NOT_LINE_END_RE = re.compile(rb"[^\r]")
DECLARATION_START_RE = re.compile(rb"[\w(\[$]|\{-#")
MODULE_RE = re.compile(rb"module\b")


def _declaration_start(line: bytes) -> bool:
    """Whether a branch's first code line starts a top-level declaration: a name, an operator in parentheses,
    a splice or a pragma at the line's start, but not the module's header or a string inside a pragma."""
    return DECLARATION_START_RE.match(line) is not None and MODULE_RE.match(line) is None


class _Conditional:
    """An open ``#if``: its ``#else`` and ``#elif`` lines, and whether each branch starts a declaration."""

    def __init__(self) -> None:
        self.elses: list[range] = []
        self.top_level: list[bool] = []
        self.expecting = True  # the current branch's first code line is still to come


def rewrite_haskell(data: bytes) -> bytes:
    """``data`` with the ``#else`` and ``#elif`` lines of top-level conditionals blanked."""
    if b"\n#" not in data and not data.startswith(b"#"):
        return data
    lines = data.split(b"\n")
    open_: list[_Conditional] = []
    waiting: list[_Conditional] = []  # conditionals whose current branch has had no code line yet
    blank: list[range] = []
    in_comment = False
    number = 0
    while number < len(lines):
        line = lines[number]
        directive = DIRECTIVE_RE.match(line)
        if directive is None:
            stripped = line.strip()
            if in_comment:  # a block comment's lines are not a branch's first code line
                in_comment = b"-}" not in stripped
            elif stripped.startswith(b"{-") and not stripped.startswith(b"{-#"):
                in_comment = b"-}" not in stripped[2:]
            elif waiting and stripped and not stripped.startswith(b"--"):
                first = _declaration_start(line)
                for conditional in waiting:  # a nested branch's first line is its enclosing branch's too
                    conditional.top_level.append(first)
                    conditional.expecting = False
                waiting.clear()
            number += 1
            continue
        end = number + 1
        while lines[end - 1].rstrip(b"\r").endswith(b"\\") and end < len(lines):  # `#elif A && \`
            end += 1
        word = directive.group(1)
        if word.startswith(b"if"):
            open_.append(_Conditional())
            waiting.append(open_[-1])
        elif word in (b"else", b"elif") and open_:
            open_[-1].elses.append(range(number, end))
            if not open_[-1].expecting:
                open_[-1].expecting = True
                waiting.append(open_[-1])
        elif word == b"endif" and open_:
            conditional = open_.pop()
            if conditional.elses and all(conditional.top_level):
                blank.extend(conditional.elses)
        number = end
    for directive_lines in blank:
        for number in directive_lines:
            lines[number] = NOT_LINE_END_RE.sub(b" ", lines[number])
    return b"\n".join(lines) if blank else data
