"""Where a name is used as code in a span's text: not in a comment, not in a string literal.

The full-text index finds every span whose words include a name, comments and strings included; the
hover card's "used in" links want real uses. Each occurrence of the name as a whole word is looked up in
a tree-sitter parse of the span's text: it is code unless a comment or string node holds it (an
interpolation inside a string, ``f"{name()}"`` or `` `${name()}` ``, is code again). Node types are
matched by what they contain ("comment", "string", ...) so that every grammar's variants are covered.
"""

from __future__ import annotations

import re

from tree_sitter import Node, Parser

from .languages import COMPONENT_LANGUAGES, grammar_for
from .parsing import split_lines

NOT_CODE = ("comment", "string", "heredoc", "char_literal", "rune_literal", "regex")
CODE_AGAIN = ("interpolation", "substitution")  # code inside a string


def code_use_lines(text: str, language: str | None, name: str) -> list[int] | None:
    """The 0-based lines of ``text`` where ``name`` is used as code (each line once, in order); None when
    ``language`` has no grammar, so that nothing can be told apart."""
    if not name:
        return []
    found = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text)]
    if not found:
        return []
    grammar = grammar_for(language)
    if grammar is None or language in COMPONENT_LANGUAGES:  # a component's markup uses names in its own syntax
        return None
    data = text.encode("utf-8", "surrogatepass")
    root = Parser(grammar[0]).parse(data).root_node
    width = len(name.encode("utf-8", "surrogatepass"))
    lines: list[int] = []
    for i in found:
        start = len(text[:i].encode("utf-8", "surrogatepass"))
        node = root.descendant_for_byte_range(start, start + width)
        line = text.count("\n", 0, i)
        if node is not None and _is_code(node) and (not lines or lines[-1] != line):
            lines.append(line)
    return lines


def _is_code(node: Node | None) -> bool:
    while node is not None:
        kind = node.type
        if any(k in kind for k in CODE_AGAIN):
            return True
        if any(k in kind for k in NOT_CODE):
            return False
        node = node.parent
    return True


def file_line(span_text: str, index: int, file_text: str, start_line: int, end_line: int) -> int | None:
    """The 1-based line of the file that line ``index`` of a span's text is, or None if it cannot be told
    (the file changed since it was indexed). A span's text is its lines in order, except that nested
    definitions are cut to their header and one ``...`` line, so lines are matched in order."""
    file_lines = split_lines(file_text)
    last = min(end_line, len(file_lines))
    at = start_line - 1
    for i, line in enumerate(split_lines(span_text)):
        match = next((k for k in range(at, last) if file_lines[k] == line), None)
        if i == index:
            return match + 1 if match is not None else None
        if match is not None:
            at = match + 1
    return None
