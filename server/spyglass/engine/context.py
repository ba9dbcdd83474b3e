"""What an agent needs around one line of code: the enclosing definition, the file's imports, and the
definitions that definition refers to.

A coding agent about to edit line N wants, in one call, what a person sees by glancing around: which
function or class the line is in (signature and doc), what the file imports, and where the names that
code uses are defined. Everything comes from what Spyglass already has: the index's spans (the
enclosing one via :func:`.related.span_at`, definitions by exact name) and a tree-sitter parse of the
file's current text for its imports.

* Imports are syntax nodes, listed per language in one table (:data:`IMPORTS`): node types that are
  import statements wherever they occur, plus calls that import (``require``) when near the top level.
* References are resolved by :mod:`.references`: how the code uses a name (``self.x``, ``x`` on its own,
  ``module.x``, ``other.x``) decides where its definition may be.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass, field

from tree_sitter import Node, Parser, Query, QueryCursor

from .languages import grammar_for, language_for, syntax_of
from .parsing import parse_tree
from .references import references
from .related import FILE_KINDS, span_at
from .rewrites import rewritten
from .search import Searcher
from .store import StoredSpan

log = logging.getLogger(__name__)

MAX_IMPORTS = 50
IMPORT_CHARS = 200


@dataclass(frozen=True)
class ImportSyntax:
    """How one language writes imports: statement node types, and optionally importing calls."""

    nodes: frozenset[str]
    call: str | None = None  # node of a call
    callee_field: str = ""  # the call's field holding the called name ("": its first named child)
    callees: frozenset[str] = frozenset()  # names of importing functions
    scopes: frozenset[str] = frozenset()  # calls whose body holds statements too (Elixir's defmodule)
    body: str = ""  # ... the node type of that body
    depth: int = 3  # an importing call counts up to this far below a statement: `const x = require("x")`


_REQUIRE = ImportSyntax(frozenset({"import_statement"}), "call_expression", "function", frozenset({"require"}))

IMPORTS: dict[str, ImportSyntax] = {
    "python": ImportSyntax(frozenset({"import_statement", "import_from_statement", "future_import_statement"})),
    "javascript": _REQUIRE,
    "typescript": _REQUIRE,
    "go": ImportSyntax(frozenset({"import_declaration"})),
    "rust": ImportSyntax(frozenset({"use_declaration", "extern_crate_declaration"})),
    "java": ImportSyntax(frozenset({"import_declaration"})),
    "c": ImportSyntax(frozenset({"preproc_include"})),
    "cpp": ImportSyntax(frozenset({"preproc_include"})),
    "objective-c": ImportSyntax(frozenset({"preproc_include"})),  # #import and #include
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
    "kotlin": ImportSyntax(frozenset({"import"})),
    "scala": ImportSyntax(frozenset({"import_declaration"})),
    "swift": ImportSyntax(frozenset({"import_declaration"})),
    "haskell": ImportSyntax(frozenset({"import"})),
    "julia": ImportSyntax(frozenset({"using_statement", "import_statement"})),
    "ocaml": ImportSyntax(frozenset({"open_module"})),
    "ocaml-interface": ImportSyntax(frozenset({"open_module_signature"})),
    "fsharp": ImportSyntax(frozenset({"import_decl"})),
    "groovy": ImportSyntax(frozenset({"import_declaration"})),
    "solidity": ImportSyntax(frozenset({"import_directive"})),
    "fortran": ImportSyntax(frozenset({"use_statement"})),
    "vb": ImportSyntax(frozenset({"imports_statement"})),
    "pascal": ImportSyntax(frozenset({"declUses"})),  # a `uses` clause, over its lines
    "ada": ImportSyntax(frozenset({"with_clause"})),
    # SystemVerilog's and Verilog's (one grammar): `import pkg::*;` (also in a module's head), `` `include "x.svh" ``
    "systemverilog": ImportSyntax(frozenset({"package_import_declaration", "include_compiler_directive"})),
    "vhdl": ImportSyntax(frozenset({"library_clause", "use_clause"})),
    "glsl": ImportSyntax(frozenset({"preproc_include"})),  # GL_GOOGLE_include_directive's #include
    "hlsl": ImportSyntax(frozenset({"preproc_include"})),
    "dart": ImportSyntax(frozenset({"import_or_export"})),
    "lua": ImportSyntax(frozenset(), "function_call", "name", frozenset({"require"}), depth=4),
    "luau": ImportSyntax(frozenset(), "function_call", "name", frozenset({"require"}), depth=4),
    # the scripts and resources a script loads at its top level (`const Enemy = preload("res://enemy.gd")`); not its
    # `extends`, which an inner class has too
    "gdscript": ImportSyntax(frozenset(), "call", "", frozenset({"preload", "load"})),
    "starlark": ImportSyntax(frozenset(), "call", "function", frozenset({"load"})),
    "zig": ImportSyntax(frozenset(), "builtin_function", "", frozenset({"@import"})),
    "elixir": ImportSyntax(
        frozenset(),
        "call",
        "target",
        frozenset({"alias", "import", "require", "use"}),
        frozenset({"defmodule"}),
        "do_block",
    ),
}

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
    """The file's distinct import statements in file order, each on one line; [] for a language without a
    table entry or a grammar."""
    if language is None:
        return []
    syntax = IMPORTS.get(syntax_of(language))
    grammar = grammar_for(language)
    if syntax is None or grammar is None:
        return []
    # the text as the grammar reads it (a Vue component's scripts only: rewrites/); the same lengths and lines
    try:
        root = parse_tree(Parser(grammar[0]), rewritten(language, data)).root_node
    except TimeoutError:
        log.warning("listing the imports of a %s file given up: its parse ran too long", language)
        return []
    nodes = _statement_nodes(root, language, syntax) + _call_nodes(root, syntax)
    nodes.sort(key=lambda n: n.start_byte)
    # the same import written twice (a lazy `import h2` in two functions) is listed once
    return list(dict.fromkeys(_one_line(data, n) for n in nodes))[:MAX_IMPORTS]


@functools.cache
def _import_query(language: str, types: frozenset[str]) -> Query | None:
    """A query capturing every node of ``types``; None (logged once) if the grammar lacks one of them."""
    grammar = grammar_for(language)
    if grammar is None:
        return None
    try:
        return Query(grammar[0], "[" + " ".join(f"({t})" for t in sorted(types)) + "] @import")
    except Exception as e:  # a grammar version that renamed a node type
        log.warning("import query for %s unusable (%s: %s); listing no imports", language, type(e).__name__, e)
        return None


def _statement_nodes(root: Node, language: str, syntax: ImportSyntax) -> list[Node]:
    query = _import_query(language, syntax.nodes) if syntax.nodes else None
    return list(QueryCursor(query).captures(root).get("import", [])) if query is not None else []


def _call_nodes(root: Node, syntax: ImportSyntax) -> list[Node]:
    """The top-level statements holding an importing call (``require "x"``) within ``syntax.depth`` levels of
    the root (``const x = require("x")``), not a call inside a function."""
    if syntax.call is None:
        return []
    found: list[Node] = []
    statements = list(root.named_children)
    while statements:
        statement = statements.pop(0)
        if statement.type == syntax.call and _callee(statement, syntax) in syntax.scopes:
            body = [c for b in statement.named_children if b.type == syntax.body for c in b.named_children]
            statements[:0] = body  # a module's body: its statements are the file's
            continue
        level = [statement]
        for _ in range(syntax.depth):
            if any(n.type == syntax.call and _callee(n, syntax) in syntax.callees for n in level):
                found.append(statement)
                break
            level = [c for n in level if n.type != syntax.call for c in n.named_children]
    return found


def _callee(call: Node, syntax: ImportSyntax) -> str | None:
    name = call.child_by_field_name(syntax.callee_field) if syntax.callee_field else call.named_child(0)
    return name.text.decode("utf-8", "replace").strip() if name is not None and name.text else None


def _one_line(data: bytes, node: Node) -> str:
    text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    return _WS_RE.sub(" ", text).strip()[:IMPORT_CHARS]
