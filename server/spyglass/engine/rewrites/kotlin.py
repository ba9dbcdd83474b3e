"""Kotlin that tree-sitter-kotlin 1.1 cannot read, rewritten before parsing.

Each form below makes the grammar give up on the rest of the file or class: a file of Exposed's column types
parsed as one error, with 18 of its 200 definitions. Each is rewritten to a form the grammar reads with the
same meaning for the spans: blanked (``m`` turned into spaces) or an identifier the grammar does not take
for a keyword. The text keeps its length and lines, so every byte offset of the parse points into the file as
written, and what is indexed comes from the file as written. Repetitions are bounded, so a hostile line is
read in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .blanking import blank_group

ANNOTATION = rb"(?<![\w@])@[\w.:]{1,200}(?:\([^()\n]{0,300}\))?"  # @PublishedApi, @OptIn(InternalApi::class)
FILE_ANNOTATION = rb"@file:[\w.]{1,200}(?:\([^()\n]{0,300}\))?"  # @file:JvmName("FlowKt")
VISIBILITY = rb"(?:(?:public|private|internal|protected)[ \t]+)?"
GAP = rb"[ \t]*(?:\r?\n[ \t]*)?"  # after an annotation: spaces, at most one line break
TYPE = rb"[\w.<>?*, \t]{1,200}?"  # the type of an `is` check: ExpressionWithColumnType<*>, Map<K, V>?
PARENTHESES = rb"\((?:[^()]|\((?:[^()]|\([^()]*\))*\)){0,1000}\)"  # three levels deep, across lines

BLANKED = [
    # a guard in a when branch (Kotlin 2.1), on one line or in parentheses over several:
    # `is String if value.isHexAndDashFormat() ->`, `is ExpressionWithColumnType<*> if (\n ...\n) ->`
    # (the type holds no `->`, and a one-line guard no braces: `is String -> if (x) a else b.map { y -> y }` is none)
    re.compile(
        rb"(?m)^[ \t]*!?is[ \t]+" + TYPE + rb"[ \t](?P<m>if(?:[ \t]*" + PARENTHESES + rb"|\b[^\n{}]{0,300}?[^\s{}]))"
        rb"(?=[ \t]{0,200}(?:\r?\n[ \t]{0,200}){0,2}->)"
    ),
    # a file annotation after another on its line: `@file:JvmMultifileClass @file:JvmName("FlowKt")`
    re.compile(rb"(?m)^[ \t]*" + FILE_ANNOTATION + rb"(?P<m>(?:[ \t]+" + FILE_ANNOTATION + rb"){1,8})"),
    # annotations of a property's accessor: `@OptIn(InternalApi::class)\n get() =`, `@InternalAPI set(value) {`
    re.compile(rb"(?P<m>(?:" + ANNOTATION + GAP + rb"){1,4})(?=" + VISIBILITY + rb"(?<![\w$])(?:get|set)[ \t]*\()"),
    # annotations of a primary constructor on the line after the class name, on the constructor's line:
    # `value class ChannelResult<out T>\n@PublishedApi internal constructor(` (on a line of their own, the grammar
    # needs them: `class Reader\n  @JvmOverloads\n  constructor(`)
    re.compile(
        rb"\bclass[ \t]+[\w$]+(?:[ \t]*<[^{}()\n]{0,300}>)?[ \t]*\r?\n[ \t]*(?P<m>(?:" + ANNOTATION + rb"[ \t]+){1,4})"
        rb"(?=" + VISIBILITY + rb"constructor[ \t]*\()"
    ),
]

# words the grammar reserves that Kotlin allows as names: modifiers, and the soft keywords, which include them
MODIFIERS = (
    rb"open|sealed|lateinit|override|abstract|final|inline|suspend|external|infix|tailrec|vararg|internal|"
    rb"private|public|protected|crossinline|noinline"
)
SOFT_KEYWORDS = rb"by|dynamic|get|set|where|" + MODIFIERS
STATEMENT_START = rb"(?m)(?:^|(?<=[{;]))([ \t]*)"


def _capitalized(m: re.Match[bytes]) -> bytes:
    word = m.group(2)
    return m.group(1) + word[:1].upper() + word[1:]


RENAMED: list[tuple[re.Pattern[bytes], bytes | Callable[[re.Match[bytes]], bytes]]] = [
    # such a word starting a statement, assigned or read: `where?.let {` (Exposed's WHERE clause), `set = set or bit`
    (re.compile(STATEMENT_START + rb"(" + SOFT_KEYWORDS + rb")(?=[ \t]*(?:[-+*/%]?=(?!=)|\??\.))"), _capitalized),
    # a modifier called at a statement's start: `CloseGuard().apply { open(closer) }`
    (re.compile(STATEMENT_START + rb"(" + MODIFIERS + rb")(?=\()"), _capitalized),
    # a name made of `in`, `as`, `else`, `by`, `where` or `constructor` and a digit or `_`, starting a statement:
    # the grammar reads `in1.close()` (okhttp's tests) as the operator `in` continuing the line before
    (re.compile(STATEMENT_START + rb"(in|as|else|by|where|constructor)(?=[0-9_])"), _capitalized),
    # `suspend` as a parameter, a named argument or a call of that parameter:
    # `suspend: (waiter: W) -> Boolean`, `suspend = { ... }`, `if (suspend(waiter)) return` (not the type
    # `(suspend() -> Unit)?`)
    (re.compile(rb"(?<![\w.$])suspend(?=[ \t]*(?:=(?!=)|:(?!:)))"), b"Suspend"),
    (re.compile(rb"(?<=[(!])suspend(?=\()(?!\([^()\n]*\)[ \t]*->)"), b"Suspend"),
]


def rewrite_kotlin(data: bytes) -> bytes:
    """``data`` with the forms above rewritten for the grammar: same length, same lines."""
    for pattern in BLANKED:
        data = pattern.sub(blank_group, data)
    for pattern, replacement in RENAMED:
        data = pattern.sub(replacement, data)
    return data
