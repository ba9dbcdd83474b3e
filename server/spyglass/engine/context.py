"""What an agent needs around one line of code: the enclosing definition, the file's imports, and the
definitions that definition refers to.

A coding agent about to edit line N wants, in one call, what a person sees by glancing around: which
function or class the line is in (signature and doc), what the file imports, and where the names that
code uses are defined. Everything comes from what Spyglass already has: the index's spans (the
enclosing one via :func:`.related.span_at`, definitions by exact name) and a tree-sitter parse of the
file's current text for its imports.

* Imports are syntax nodes, listed per language in one table (:data:`IMPORTS`): node types that are
  import statements wherever they occur, plus calls that import (``require``) when near the top level.
* References are found by a regex over the span's text rather than by tree-sitter identifier nodes: the
  identifier node types differ in every grammar (``identifier``, ``type_identifier``,
  ``field_identifier``, ``constant``, ``name`` ...), a regex treats every language alike (window-indexed
  ones too), and the exact-name lookup in the index discards almost all of what it over-collects
  (a word in a comment only counts if a definition of that name exists). Each name resolves to its
  definitions in the best place that has one: the same file, else a file the imports mention, else
  anywhere.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from tree_sitter import Node, Parser, Query, QueryCursor

from .filerules import is_test_path
from .languages import grammar_for, is_code, language_for
from .related import FILE_KINDS, span_at
from .search import Searcher
from .store import StoredSpan

log = logging.getLogger(__name__)

MAX_IMPORTS = 50
IMPORT_CHARS = 200
MAX_REFERENCES = 20
MAX_NAMES = 200  # distinct identifiers of one span looked up in the index
PER_NAME = 3  # definitions kept for one name (overloads, same-named methods of several classes)
MIN_NAME = 3
CALL_DEPTH = 3  # an importing call counts up to this far below the root: `const x = require("x")`


@dataclass(frozen=True)
class ImportSyntax:
    """How one language writes imports: statement node types, and optionally importing calls."""

    nodes: frozenset[str]
    call: str | None = None  # node of a call
    callee_field: str = ""  # the call's field holding the called name
    callees: frozenset[str] = frozenset()  # names of importing functions


_REQUIRE = ImportSyntax(frozenset({"import_statement"}), "call_expression", "function", frozenset({"require"}))

IMPORTS: dict[str, ImportSyntax] = {
    "python": ImportSyntax(frozenset({"import_statement", "import_from_statement", "future_import_statement"})),
    "javascript": _REQUIRE,
    "typescript": _REQUIRE,
    "tsx": _REQUIRE,
    "go": ImportSyntax(frozenset({"import_declaration"})),
    "rust": ImportSyntax(frozenset({"use_declaration", "extern_crate_declaration"})),
    "java": ImportSyntax(frozenset({"import_declaration"})),
    "c": ImportSyntax(frozenset({"preproc_include"})),
    "cpp": ImportSyntax(frozenset({"preproc_include"})),
    "csharp": ImportSyntax(frozenset({"using_directive"})),
    "ruby": ImportSyntax(frozenset(), "call", "method", frozenset({"require", "require_relative", "load"})),
    "php": ImportSyntax(
        frozenset(
            {
                "namespace_use_declaration",
                "require_expression",
                "require_once_expression",
                "include_expression",
                "include_once_expression",
            }
        )
    ),
    "bash": ImportSyntax(frozenset(), "command", "name", frozenset({"source", "."})),
}

# Words never worth a lookup: reserved words and literals of the parsed languages (3+ characters); words that
# are also common function names (match, type, register, delete ...) stay, since an exact definition decides.
KEYWORDS = frozenset(
    """
    and abstract alias any assert async await begin bool boolean break byte case catch char class const
    constexpr continue crate debugger def defer del double dyn elif else elsif end ensure enum esac except
    explicit export extends extern false fallthrough final finally float for foreach from func function global
    goto impl implements import inline instanceof int interface internal lambda let long loop mod mut
    namespace native new nil nonlocal not null operator override package pass private protected pub public
    raise readonly ref rescue restrict retry return self short signed sizeof static struct super switch
    synchronized then this throw throws trait true try typedef typeof union unless unsafe unsigned until use
    using var virtual void volatile when where while with yield None True False Self
    """.split()
)

_IDENT_RE = re.compile(r"[^\W\d]\w*")
_WORD_RE = re.compile(r"\w+")
_WS_RE = re.compile(r"\s+")


@dataclass
class FileContext:
    """The context of one line: ``span`` is None when no definition encloses it (``message`` says why)."""

    path: str
    line: int
    language: str | None
    span: StoredSpan | None = None
    imports: list[str] = field(default_factory=list)
    references: list[StoredSpan] = field(default_factory=list)
    message: str | None = None


def line_context(searcher: Searcher, rel: str, line: int, text: str | None) -> FileContext:
    """The context of 1-based ``line`` of ``rel`` (workspace-relative), whose current text is ``text``
    (None when the file does not exist)."""
    if line < 1:
        raise ValueError(f"line numbers start at 1, not {line}")
    data = text.encode("utf-8", "surrogatepass") if text is not None else None
    language = language_for(rel, data)
    out = FileContext(rel, line, language, imports=file_imports(data, language) if data else [])
    found = span_at(searcher, rel, line)
    if found is None or found.kind in FILE_KINDS:
        out.message = _no_span_message(searcher, rel, line, text, found)
        return out
    out.span = found
    out.references = references(searcher, found, out.imports)
    return out


def _no_span_message(searcher: Searcher, rel: str, line: int, text: str | None, found: StoredSpan | None) -> str:
    if found is not None:
        return f"line {line} of {rel} is not inside a definition"
    if text is None:
        return f"{rel} does not exist"
    state = searcher.store.file_state(rel)
    if state is None:
        return f"{rel} is not indexed (new since the last index update)"
    if state.skip_reason:
        return f"{rel} is not indexed ({state.skip_reason})"
    return f"line {line} is past the end of {rel}"


# --- imports ----------------------------------------------------------------------------------------


def file_imports(data: bytes, language: str | None) -> list[str]:
    """The file's import statements in file order, each on one line; [] for a language without a table
    entry or a grammar."""
    syntax = IMPORTS.get(language or "")
    grammar = grammar_for(language)
    if syntax is None or grammar is None:
        return []
    root = Parser(grammar[0]).parse(data).root_node
    nodes = _statement_nodes(root, language, syntax) + _call_nodes(root, syntax)
    nodes.sort(key=lambda n: n.start_byte)
    return [_one_line(data, n) for n in nodes[:MAX_IMPORTS]]


@functools.cache
def _import_query(language: str, types: frozenset[str]) -> Query | None:
    """A query capturing every node of ``types``; None (logged once) if the grammar lacks one of them."""
    lang, _ = grammar_for(language)
    try:
        return Query(lang, "[" + " ".join(f"({t})" for t in sorted(types)) + "] @import")
    except Exception as e:  # a grammar version that renamed a node type
        log.warning("import query for %s unusable (%s: %s); listing no imports", language, type(e).__name__, e)
        return None


def _statement_nodes(root: Node, language: str, syntax: ImportSyntax) -> list[Node]:
    query = _import_query(language, syntax.nodes) if syntax.nodes else None
    return list(QueryCursor(query).captures(root).get("import", [])) if query is not None else []


def _call_nodes(root: Node, syntax: ImportSyntax) -> list[Node]:
    """The top-level statements holding an importing call (``require "x"``) within CALL_DEPTH levels of
    the root (``const x = require("x")``), not a call inside a function."""
    if syntax.call is None:
        return []
    found: list[Node] = []
    for statement in root.named_children:
        level = [statement]
        for _ in range(CALL_DEPTH):
            if any(n.type == syntax.call and _callee(n, syntax) in syntax.callees for n in level):
                found.append(statement)
                break
            level = [c for n in level if n.type != syntax.call for c in n.named_children]
    return found


def _callee(call: Node, syntax: ImportSyntax) -> str | None:
    name = call.child_by_field_name(syntax.callee_field)
    return name.text.decode("utf-8", "replace").strip() if name is not None and name.text else None


def _one_line(data: bytes, node: Node) -> str:
    text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    return _WS_RE.sub(" ", text).strip()[:IMPORT_CHARS]


# --- references -------------------------------------------------------------------------------------


def references(searcher: Searcher, span: StoredSpan, imports: list[str]) -> list[StoredSpan]:
    """Definitions the index holds for the names ``span``'s text uses, best placed first."""
    names = identifiers(span)
    if not names:
        return []
    order = {name: i for i, name in enumerate(names)}
    imported = _import_words(imports)
    best: dict[str, list[tuple[int, StoredSpan]]] = {}
    for other in searcher.store.spans_named_exactly(names):
        if other.kind in FILE_KINDS or not is_code(other.language) or _overlaps(span, other):
            continue
        tier = 0 if other.path == span.path else 1 if _mentioned(other.path, imported) else 2
        best.setdefault(other.name, []).append((tier, other))
    picked: list[tuple[int, StoredSpan]] = []
    for candidates in best.values():
        top = min(t for t, _ in candidates)
        same = sorted((c for c in candidates if c[0] == top), key=lambda c: _place(c[1]))
        picked.extend(same[:PER_NAME])
    picked.sort(key=lambda c: (c[0], order[c[1].name], _place(c[1])))
    return [s for _, s in picked[:MAX_REFERENCES]]


def identifiers(span: StoredSpan) -> list[str]:
    """The distinct names in ``span``'s text, in order of first use, less its own name, keywords and
    names shorter than MIN_NAME."""
    seen: dict[str, None] = {}
    for name in _IDENT_RE.findall(span.text):
        if len(name) >= MIN_NAME and name != span.name and name not in KEYWORDS:
            seen.setdefault(name, None)
            if len(seen) >= MAX_NAMES:
                break
    return list(seen)


def _import_words(imports: list[str]) -> set[str]:
    return {w.lower() for w in _WORD_RE.findall(" ".join(imports))}


def _mentioned(path: str, words: set[str]) -> bool:
    """Whether an import names this file: its stem (``cart`` of ``shop/cart.py``) or its folder (a Go
    package, a Python package's ``__init__``)."""
    p = PurePosixPath(path)
    return p.stem.lower() in words or p.parent.name.lower() in words


def _place(span: StoredSpan) -> tuple:
    return (is_test_path(span.path), span.path, span.start_line)


def _overlaps(a: StoredSpan, b: StoredSpan) -> bool:
    """The same file and overlapping lines: the span itself, what encloses it or what it encloses."""
    return a.path == b.path and a.start_line <= b.end_line and b.start_line <= a.end_line
