"""Turn a file's bytes into spans, with tree-sitter where there is a grammar and windows elsewhere.

The per-language knowledge is in ``queries/<language>.scm`` and the tables of :mod:`.languages`; this
module is generic. A query marks each definition node ``@definition.<kind>`` and its name ``@name``,
optionally a docstring ``@doc`` and a qualifier ``@scope`` that is not a parent node (a Go receiver,
``Cls`` in C++ ``void Cls::f() {}``). From the matches:

* Definitions nest by byte range. A node matched by several patterns through the same ``@name`` node
  (a decorated function, an ``export``-ed class) keeps the outermost node, so decorators, annotations and
  ``export`` are in its span. Attribute items directly above a definition (Rust ``#[derive]``) are too.
* A ``function`` whose nearest enclosing definition is class-like (class, interface, struct, enum, type)
  is a ``method``. ``qualname`` is the parent's qualname (or the ``@scope`` text) + "." + name. Rust
  ``impl X`` blocks are queried as kind ``class`` named ``X``, so their functions become ``X.method``.
  For the same node, the pattern written first in the query file wins (so put specific kinds first).
* ``signature`` is the text from the definition (past decorators) up to its ``body`` field, on one line;
  without a body, the first line. ``doc`` is the ``@doc`` capture (a docstring), else the comment nodes
  directly above the definition with no blank line between, markers stripped.
* A span's text is its whole lines, except that each child definition is cut to its header (decorators
  and signature lines, up to where its body starts) plus one ``...`` line, so every line is indexed in
  the innermost span holding it while ``start_line``/``end_line`` still cover the whole symbol. Lines
  over LONG_LINE characters (minified code) are cut to the span's own bytes.
* Every parsed file also gets a ``module`` span over lines 1..N: the file with its top-level
  definitions elided the same way (imports, constants, top-level code, one header per definition).
* Spans whose text has more than ``max_span_lines`` lines are split into parts of about half that;
  each part after the first starts with the header line repeated. Together the parts cover the range.
* Files without a grammar (or whose grammar failed to load, or whose parse raised) are cut into
  overlapping ``window`` spans.

Lines are what an editor shows: a line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``. Byte offsets are into
the original bytes; invalid UTF-8 is decoded with replacement characters. Nothing here raises on input.
"""

from __future__ import annotations

import bisect
import inspect
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from tree_sitter import Node, Parser, QueryCursor

from .languages import canonical_language, grammar_for, language_for, spec_for
from .notebooks import code_view
from .rewrites import rewritten
from .settings import Settings
from .spans import Kind, Span

log = logging.getLogger(__name__)

CLASS_LIKE = frozenset({"class", "interface", "struct", "enum", "type"})
DEF_KINDS = frozenset({"function", "method", "class", "interface", "struct", "enum", "type", "module", "section"})
# Sibling nodes directly above a definition that belong to it (outer attributes in Rust, Dart annotations,
# Kotlin top-level annotations with arguments, which its grammar parses as annotated expressions).
# VB.NET's ``<Serializable>`` lines, Ada's generic formal part (``generic type Item is private;``) above the
# package or subprogram it makes generic.
ATTRIBUTE_TYPES = frozenset(
    {"attribute_item", "annotation", "annotated_expression", "attribute_block", "generic_formal_part"}
)
# Nodes that are only a line's end (VB.NET's grammar makes one after each comment line): no code between a
# comment and the definition below it
LINE_END_TYPES = frozenset({"blank_line"})
# Attribute nodes that a grammar puts first inside a declaration's node (VB.NET's ``<HttpGet>``, Delphi's
# ``[Test]``): its head starts past them
INNER_ATTRIBUTE_TYPES = frozenset({"attribute_block", "rttiAttributes"})
# Comment node types whose name does not say "comment" (Haskell's ``-- |`` doc comments, F#'s ``///`` lines).
COMMENT_TYPES = frozenset({"haddock", "xml_doc"})
# bumped whenever a change here gives a file other spans or names: an index parsed by an older version is
# parsed again at its next sync (indexer.py), so an upgrade reaches every file, not only the edited ones
# 6: a Rust doc attribute that includes a file gives its text (docfiles.py); 7: a module span's embedded text
# is named by its path (embedtext.py), so an older index recomputes those spans' hashes (the rest reuse theirs);
# 8: a JavaScript or TypeScript function assigned to a property (``res.send = function send(body) {``) or bound
# to a name in parentheses (``const pages = (function* () {``) is a span; 9: C and C++ lines that are only a
# macro call, and a class head's macro with arguments (``class FMT_SO_VISIBILITY("default") format_error``), are
# blanked before parsing (rewrites/c.py); 10: a C or C++ function-like macro (``#define ABSL_LOG(severity) ...``) is
# a span; 11: a C++ macro on the line after a parameter list (``)\n    ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) {``) is blanked;
# 12: a declaration without a body (an interface's method) whose first line is an annotation is signed by its
# declaration (``<T> T deserialize(JsonElement json)``, not ``@SuppressWarnings("TypeParameterUnusedInFormals")``);
# 13: a GoogleTest test (``TEST_F(StrCatTest, Ints) {``) is named after its suite and test (``StrCatTest.Ints``);
# 14: Kotlin and TypeScript forms their grammars misread are rewritten before parsing (rewrites/kotlin.py,
# rewrites/typescript.py): a when guard, an annotated accessor, a generic call signature after a member; 15: two
# Kotlin file annotations on a line (``@file:JvmMultifileClass @file:JvmName("FlowKt")``); 16: docs are read from
# the file as written, not from the text rewritten for the grammar (``// class ABSL_ATTRIBUTE_WARN_UNUSED MyType {``);
# 17: TypeScript variance annotations and ``export type *`` are no syntax error (the same spans; a file's flag);
# 18: a Python type alias is a span (``type Point[T] = ...``, ``JsonValue: TypeAlias = ...``), and Kotlin's
# ``in1.close()`` at a statement's start no longer ends the parse of its class (rewrites/kotlin.py); 19: an alias's
# docstring past a comment on its line, an implicit alias's form only from ``typing`` (not ``df.Union[0]``), and
# Kotlin's ``by1``, ``where_x``, ``constructor1`` as ``in1``; 20: Haskell's ``#else`` and ``#elif`` branches of
# top-level conditionals are read (rewrites/haskell.py); 21: Lua functions in a top-level table bound to a name or
# returned (``M.log = { skip = function(...)``), and wrapped by a call (``M.diff = defaulter(function(opts)``);
# 22: a definition ends at its last text, not past the blank lines and indentation after it (Scala's methods ran
# into the next one's first line; Markdown sections); Scala 3's givens with a body are instances and extension
# methods are qualified by the extended type; 23: a Go package variable bound to a function literal is a function;
# 24: a definition no longer ends with the next one's doc comment (Scala's indented bodies, C macros), an anonymous
# Scala given is named by its type (``Ord[String]``), Lua's data calls (``vim.tbl_map``) wrap no definition;
# 25: an Elixir behaviour's ``@callback`` is a span; 26: a top-level Kotlin property made by a call given a function
# body (ktor's ``val SSE = createClientPlugin("SSE") { ... }``) is a span; 27: Vue, Svelte and Astro components'
# scripts are parsed as TypeScript (rewrites/components.py), with a top-level call given a function body as a span;
# 28: Objective-C, Perl and PowerShell are parsed (and an Objective-C header is Objective-C, not C); 29: a component's
# call statement (``onMounted(() => {``) and a method of data (``items.map(...)``) are no spans, and its scripts are
# found as its compiler finds them (a line's start, not inside an HTML comment; Astro's fence after CRLF or a BOM);
# 30: a MATLAB ``.m`` file is MATLAB (windows), not Objective-C; 31: a Jupyter notebook of a Python kernel is read
# as its code (notebooks.py), not as windows of JSON; 32: Julia, OCaml, F#, Groovy, MATLAB, Solidity, free-form
# Fortran and CUDA are parsed (before, windows), a GLSL shader named ``.fs`` is not F#, and a Julia notebook is
# read as its code; 33: a Julia signature is its whole head, over its lines; 34: VB.NET, Pascal, Ada, GDScript,
# Luau, Starlark, (System)Verilog, VHDL, GLSL and HLSL are parsed, and code files that were unlabelled (Cython,
# CoffeeScript, Clojure's .cljs, ...) are labelled code; 35: VB.NET's nested types and constructors are spans, and
# attributes on nested types and enum members no longer lose them; SystemVerilog's assertion macros no longer lose
# their module (rewrites/systemverilog.py); a licence named by a code suffix (``COPYING.CC``) is text; a C-family
# ``#define NAME`` followed by trailing spaces no longer takes the next line as its value; 36: a doc read from comments
# loses the box drawn around it (rule lines, a border closing its lines), and Rust's and VHDL's line comments, which
# end in their newline, no longer double-space it
PARSER_VERSION = 36
# a grammar may take time out of proportion to a file (tree-sitter-julia is quadratic in `A' * x` lines: 7 s for
# 287 KB): a parse that runs past this is given up, and the file is windows, as on any parse failure
PARSE_SECONDS = 10.0
SIGNATURE_CHARS = 200
DOC_CHARS = 1000
NAME_CHARS = 200
LONG_LINE = 2000  # characters of one line kept in a definition's text
MAX_HEADER_LINES = 8  # header lines kept for an elided child beyond the one with its name
_BODY_SEARCH_NODES = 64  # how many nodes to look at for a definition's body

_WS_RE = re.compile(r"\s+")
_EOL_RE = re.compile(rb"\r\n|\r|\n")
_EOL_STR_RE = re.compile(r"\r\n|\r|\n")
# a comment's rule line (not a diagram's ``+-----+``), and the border that closes a boxed comment's line
# (``-- text --``, ``$ZodString  //////////``): a run of one character after white space
_RULE_RE = re.compile(r"[-=*#~_/]{3,}")
_BORDER_RE = re.compile(r"[ \t]+([-=*#/!%;])\1*$")
_RULE_OPEN_RE = re.compile(r"^([ \t]*)([-=*#/])\2{2,}[ \t]+")
# Fortran's ``!`` (and FORD's ``!>`` / ``!!`` doc marks)
_COMMENT_START_RE = re.compile(
    r"^(?:/\*+!?|\*+(?!/)|//+!?|<#|#+!?|!+[<>]?|--+(?:[ \t]*[|^])?|;+|%+|=begin\b|=end\b)[ \t]?"
)
_COMMENT_END_RE = re.compile(r"[ \t]*(?:\*+/|#>)$")  # C's */, PowerShell's #>
# OCaml's and F#'s ``(* ... *)`` (odoc's ``(**``), read only in a comment that opens so: a C++ comment's line may
# end in ``f(bitgen*)``
_ML_COMMENT_START_RE = re.compile(r"^\(\*+[ \t]?")
_ML_COMMENT_END_RE = re.compile(r"[ \t]*\*+\)$")
# Lua's and Luau's long comment, ``--[[ ... ]]`` or ``--[=[ ... ]=]`` (Moonwave's doc comments): its text is what is
# between the brackets, as written (a doc's code sample keeps its indentation); after `--` lines, its lines are text
_LONG_COMMENT_RE = re.compile(r"^--\[(=*)\[(.*?)(?:--)?\]\1\]$", re.DOTALL)  # `--]]` closes one too
_LONG_COMMENT_OPEN_RE = re.compile(r"^--\[(=*)\[")
# Luau's mode directives at a file's top (`--!strict`, `--!native`, `--!optimize 2`): no doc (VHDL's doxygen
# comments, `--! @brief ...`, are)
_DIRECTIVE_RE = re.compile(rb"--![a-z]")
# VB.NET's ``'`` (``'''`` XML doc lines) and ``REM``, read only in a comment block that opens so
_VB_COMMENT_START_RE = re.compile(r"^(?:'+|[Rr][Ee][Mm]\b)[ \t]?")
# Pascal's ``{ ... }`` (not Haskell's ``{- -}``, not a ``{$IFDEF}`` directive)
_BRACE_OPEN_RE = re.compile(r"^\{(?![-$])[ \t]?")
_BRACE_CLOSE_RE = re.compile(r"[ \t]*\}$")
# white space after an attribute, over a VB line continuation (`` _`` at a line's end)
_CONTINUATION_RE = re.compile(rb"[ \t]*(?:_[ \t]*)?(?:\r\n|\r|\n)?[ \t]*")
# a MATLAB code analyzer pragma after a function's line (``%#ok<INUSD>``, ``%#codegen``), not its help text
_PRAGMA_RE = re.compile(r"^#(?:ok(?:<[^>]*>)?|codegen)$")
_STRING_PREFIX_RE = re.compile(r"^[rRbBuUfF]{0,2}('''|\"\"\"|'|\")")
# " =": not the "=" of a Ruby setter `def x=`; a backslash: the line goes on, as a multi-line C macro's first does
_TRAILING_PUNCT = (" \\", "=>", "{", ":", ";", " =")
_OPEN_PAREN_RE = re.compile(r"([(\[]) ")
_CLOSE_PAREN_RE = re.compile(r",? (?=[)\]])|,(?=[)\]])")

_default_settings: Settings | None = None
_tls = threading.local()


@dataclass(slots=True)
class ParseResult:
    spans: list[Span]
    language: str  # the language label used for the spans ("text" when unknown)
    had_errors: bool = False  # the syntax tree had ERROR or MISSING nodes
    parsed: bool = False  # spans come from a syntax tree (False: windows)
    tree: Any = None  # the tree-sitter tree, for the next incremental parse of an edited buffer (None when
    # the grammar read rewritten text: rewrites/)


def parse_spans(
    rel_path: str,
    data: bytes,
    settings: Settings | None = None,
    language: str | None = None,
    old_tree: Any = None,
) -> ParseResult:
    """The spans of one file. Never raises on any input; a failure falls back to windows.

    ``old_tree``: the tree of this file's previous text, already edited to match ``data``
    (``Tree.edit``): tree-sitter then re-parses only what changed (an editor buffer, docs/lsp.md)."""
    settings = settings or _settings()
    try:
        # a notebook is read as its code (notebooks.py); an editor's edits describe the JSON, so a tree of the
        # code is neither reused nor kept
        viewed = code_view(rel_path, data)
        notebook = viewed is not data
        if notebook:
            data, old_tree = viewed, None
        language = language_for(rel_path, data) if language is None else canonical_language(language)
        label = language or "text"
        lines = _Lines(data)
        if lines.blank():
            return ParseResult([], label)
        grammar = grammar_for(language)
        if grammar is None:
            return ParseResult(_windows(rel_path, lines, settings, label, "window"), label)
        try:
            result = _parse(rel_path, data, lines, settings, label, grammar, old_tree)
            if notebook:
                result.tree = None
            return result
        except TimeoutError as e:
            log.warning("parsing %s as %s given up (%s); indexing it as windows", rel_path, label, e)
            return ParseResult(_windows(rel_path, lines, settings, label, "window"), label)
        except Exception:
            log.exception("parsing %s as %s failed; indexing it as windows", rel_path, label)
            return ParseResult(_windows(rel_path, lines, settings, label, "window"), label)
    except Exception:
        log.exception("could not split %s into spans", rel_path)
        return ParseResult([], language or "text")


def split_lines(text: str) -> list[str]:
    """A text's lines as numbered here (and by editors): ``\n``, ``\r\n`` and a lone ``\r`` end a line;
    unlike ``str.splitlines`` no other character does. ``text[a:b]`` line ranges of spans use this."""
    lines = _EOL_STR_RE.split(text) if "\r" in text else text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def _settings() -> Settings:
    global _default_settings
    if _default_settings is None:
        _default_settings = Settings()
    return _default_settings


# --- lines ------------------------------------------------------------------------------------------


class _Lines:
    """The file's lines: their text, and the byte offset where each starts."""

    __slots__ = ("data", "longest", "starts", "text")

    def __init__(self, data: bytes) -> None:
        self.data = data
        decoded = data.decode("utf-8", errors="replace")
        if b"\r" not in data:
            pieces = data.split(b"\n")
            text = decoded.split("\n")
            starts = [0] * len(pieces)
            pos = 0
            for i, piece in enumerate(pieces):
                starts[i] = pos
                pos += len(piece) + 1
        else:
            pieces = _EOL_RE.split(data)
            text = _EOL_STR_RE.split(decoded)
            starts = [0, *(m.end() for m in _EOL_RE.finditer(data))]
        if len(text) != len(pieces):  # cannot happen with Python's decoder; be safe anyway
            text = [p.decode("utf-8", errors="replace") for p in pieces]
        if not data:
            starts, text = [], []
        elif len(pieces) > 1 and not pieces[-1]:  # a final terminator does not open another line
            starts.pop()
            text.pop()
        self.starts, self.text = starts, text
        self.longest = max(map(len, text), default=0)

    def __len__(self) -> int:
        return len(self.starts)

    def blank(self) -> bool:
        return not self.data.strip()

    def line_of(self, byte: int) -> int:
        """0-based line holding ``byte`` (a line's terminator belongs to it)."""
        return max(0, bisect.bisect_right(self.starts, byte) - 1)

    def content_end(self, start_byte: int, end_byte: int) -> int:
        """``end_byte`` less the white space before it: tree-sitter-scala ends an indented body at the next
        definition's first token, past the blank lines and the indentation before it."""
        end = min(end_byte, len(self.data))  # past the end: the final line end a grammar was given (_parse)
        while end > start_byte + 1 and self.data[end - 1] in b" \t\r\n":
            end -= 1
        return end

    def end_line_of(self, start_byte: int, end_byte: int) -> int:
        return self.line_of(max(start_byte, end_byte - 1))

    def start_of(self, line: int) -> int:
        return self.starts[line] if line < len(self.starts) else len(self.data)

    def clipped(self, line: int, start_byte: int, end_byte: int) -> str:
        """Line ``line`` cut to the bytes start_byte..end_byte and to LONG_LINE characters."""
        a = max(start_byte, self.starts[line])
        b = min(end_byte, self.start_of(line + 1))
        piece = self.data[a:b].decode("utf-8", errors="replace").rstrip("\r\n")
        return piece[:LONG_LINE]


# --- definitions ------------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class _Def:
    node: Node
    kind: str
    name: str
    name_node: Node
    doc_node: Node | None
    scope: str | None
    start_byte: int
    end_byte: int
    pattern: int = 0
    start_line: int = 0
    header_line: int = 0  # the line holding the name
    header_end: int = 0  # the last line of the header (a signature may span lines)
    end_line: int = 0
    signature: str = ""
    qualname: str = ""
    parent_qualname: str | None = None
    children: list[_Def] = field(default_factory=list)


def _parser(language: str, ts_language) -> Parser:
    parsers = _tls.__dict__.setdefault("parsers", {})
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = Parser(ts_language)
    return parser


def parse_tree(parser: Parser, data: bytes, old_tree: Any = None) -> Any:
    """The parse of ``data``; TimeoutError when it runs past PARSE_SECONDS (the parser is then reset)."""
    deadline = time.monotonic() + PARSE_SECONDS

    def read(offset: int, _point: Any) -> bytes:
        return data[offset : offset + 65536]

    def past_deadline(*_: Any) -> bool:
        return time.monotonic() > deadline

    try:
        if old_tree is not None:
            return parser.parse(read, old_tree, progress_callback=past_deadline)
        return parser.parse(read, progress_callback=past_deadline)
    except ValueError:
        parser.reset()  # a parse given up would otherwise be resumed by the next one
        if time.monotonic() > deadline:
            raise TimeoutError(f"its parse ran past {PARSE_SECONDS:g} s") from None
        raise


def _parse(rel_path, data, lines: _Lines, settings, label, grammar, old_tree=None) -> ParseResult:
    ts_language, query = grammar
    parser = _parser(label, ts_language)
    if old_tree is not None and getattr(old_tree, "language", None) != parser.language:
        old_tree = None  # the file's language changed: start afresh
    spec = spec_for(label)
    # the grammar reads the text rewritten where it would misread it (rewrites/): the same length and lines, so
    # the tree's offsets hold for the file, from which names, docs, signatures and text are all read
    prepared = rewritten(label, data)
    if spec is not None and spec.final_line_end and prepared and not prepared.endswith(b"\n"):
        prepared += b"\n"  # the lines are the same with it
    # an editor's edits describe the file's bytes, not the rewritten ones: a tree of rewritten text is neither
    # reused nor kept for reuse (a full parse instead: 73 ms for 436 KB, docs/lsp.md)
    reusable = prepared == data
    if not reusable:
        old_tree = None
    tree = parse_tree(parser, prepared, old_tree)
    kept = tree if reusable else None
    root = tree.root_node
    defs, module_doc_node = _collect(query, root, data)
    if spec is not None and spec.skip_within:
        defs = [d for d in defs if not _within(d.node, spec.skip_within)]
    if spec is not None and spec.open_ended:
        _extend_open_ended(defs, spec.open_ended)
    if spec is not None and spec.trailing_body:
        _extend_trailing_body(defs, spec.trailing_body)
    if spec is not None and spec.merge_clauses:
        defs = _merge_clauses(defs)
    top = _nest(
        defs,
        lines,
        spec.body_types if spec is not None else frozenset(),
        spec.signature_types if spec is not None else frozenset(),
        spec.head_end_types if spec is not None else frozenset(),
    )

    file_name = PurePosixPath(rel_path).name
    module_q = _module_qualname(rel_path, spec.dotted_module if spec else False)
    module_doc = _clean_doc(_text(data, module_doc_node)) if module_doc_node is not None else ""
    if not module_doc:
        module_doc = _leading_file_comment(root, data, lines, {d.node.start_byte for d in defs})
    emitter = _Emitter(lines, settings, label)

    def emit_module(entries: list[tuple[int, str]], header: str | None) -> None:
        emitter.emit(
            "module", file_name, module_q, "", module_doc, None, 0, len(lines) - 1, 0, len(data), entries, header
        )

    if not defs:
        n = len(lines)
        if n <= settings.max_span_lines:
            emit_module([(i, lines.text[i]) for i in range(n)], None)
        else:
            for sp in _windows(rel_path, lines, settings, label, "module"):
                emitter.spans.append(_replace_names(sp, file_name, module_q, module_doc))
        return ParseResult(emitter.spans, label, root.has_error, True, kept)

    first_line = next((t.strip() for t in lines.text if t.strip()), "")
    emit_module(_render(lines, 0, len(lines) - 1, top, 0, len(data)), first_line[:LONG_LINE])
    stack = list(reversed(top))
    while stack:
        d = stack.pop()
        emitter.emit(
            d.kind,
            d.name,
            d.qualname,
            d.signature,
            _doc(d, data, lines, spec.doc_after if spec is not None else ""),
            d.parent_qualname,
            d.start_line,
            d.end_line,
            d.start_byte,
            d.end_byte,
            _render(lines, d.start_line, d.end_line, d.children, d.start_byte, d.end_byte),
            lines.text[d.header_line].strip()[:LONG_LINE],
        )
        stack.extend(reversed(d.children))
    return ParseResult(emitter.spans, label, root.has_error, True, kept)


def _collect(query, root: Node, data: bytes) -> tuple[list[_Def], Node | None]:
    """Definitions from the query matches, one per name node (outermost definition node wins)."""
    by_name: dict[tuple[int, int], _Def] = {}
    module_doc: Node | None = None
    for pattern, caps in QueryCursor(query).matches(root):
        def_node = kind = None
        for cname, nodes in caps.items():
            if cname.startswith("definition.") and nodes:
                def_node, kind = nodes[0], cname[11:]
                break
        docs = caps.get("doc")
        if def_node is None:
            if docs and module_doc is None:
                module_doc = docs[0]
            continue
        names = caps.get("name")
        if not names or kind not in DEF_KINDS:
            continue
        name_node = names[0]
        key = (name_node.start_byte, name_node.end_byte)
        doc_node = docs[0] if docs else None
        scopes = caps.get("scope")
        scope = ".".join(_scope_text(data, s) for s in scopes) if scopes else None  # `M.log`, then `skip`
        qualifier, name = _qualified(_name_text(data, name_node))
        if qualifier:
            scope = f"{scope}.{qualifier}" if scope else qualifier
        old = by_name.get(key)
        if old is None:
            by_name[key] = _Def(
                def_node,
                kind,
                name,
                name_node,
                doc_node,
                scope,
                def_node.start_byte,
                def_node.end_byte,
                pattern,
            )
            continue
        if doc_node is not None and old.doc_node is None:
            old.doc_node = doc_node
        if scope and not old.scope:
            old.scope = scope
        # the outermost node wins; for the same node, the pattern written first in the query
        size, old_size = def_node.end_byte - def_node.start_byte, old.end_byte - old.start_byte
        if (
            def_node.start_byte <= old.start_byte
            and def_node.end_byte >= old.end_byte
            and (size > old_size or (size == old_size and pattern < old.pattern))
        ):
            old.node, old.kind, old.pattern = def_node, kind, pattern
            old.start_byte, old.end_byte = def_node.start_byte, def_node.end_byte
    # one definition per node (e.g. `let a = () => 1, b = () => 2`): keep the first name
    by_node: dict[tuple[int, int], _Def] = {}
    for d in sorted(by_name.values(), key=lambda d: d.name_node.start_byte):
        by_node.setdefault((d.start_byte, d.end_byte), d)
    defs = list(by_node.values())
    for d in defs:
        _extend_attributes(d, data)
    return defs, module_doc


def _extend_attributes(d: _Def, data: bytes) -> None:
    """The attributes above a definition start its span, also past a comment at the end of one's line
    (``#[doc(alias = "scope")] // as other libraries call it``)."""
    prev = d.node.prev_named_sibling
    while prev is not None:
        if prev.type in ATTRIBUTE_TYPES or _rewritten_attribute(prev, data):
            d.start_byte = prev.start_byte
        elif not (_trails_attribute(prev) or prev.type in LINE_END_TYPES):
            break
        prev = prev.prev_named_sibling


def _trails_attribute(node: Node) -> bool:
    """Whether ``node`` is a comment on the same line as an attribute before it."""
    before = node.prev_named_sibling
    return (
        _is_comment(node)
        and before is not None
        and before.type in ATTRIBUTE_TYPES
        and before.end_point[0] == node.start_point[0]
    )


def _extend_open_ended(defs: list[_Def], open_types: frozenset[str]) -> None:
    """An open-ended definition (a bare heading) runs to the next definition among its siblings."""
    def_types = {d.node.type for d in defs} | open_types
    for d in defs:
        if d.node.type not in open_types:
            continue
        end = d.node.end_byte
        sib = d.node.next_named_sibling
        while sib is not None and sib.type not in def_types:
            end = sib.end_byte
            sib = sib.next_named_sibling
        d.end_byte = max(d.end_byte, end)


def _extend_trailing_body(defs: list[_Def], body_types: frozenset[str]) -> None:
    """A definition whose body is its next sibling (Dart's signature + function_body) spans both."""
    for d in defs:
        sib = d.node.next_named_sibling
        if sib is not None and sib.type in body_types:
            d.end_byte = max(d.end_byte, sib.end_byte)


def _merge_clauses(defs: list[_Def]) -> list[_Def]:
    """Consecutive sibling definitions of one name become one: Haskell's type signature and equations,
    Elixir's ``def`` clauses. Comments between them do not break the run."""
    by_node = {(d.node.start_byte, d.node.end_byte): d for d in defs}
    dropped: set[int] = set()
    for d in sorted(defs, key=lambda d: d.start_byte):
        if id(d) in dropped:
            continue
        sib = d.node.next_named_sibling
        while sib is not None:
            nxt = by_node.get((sib.start_byte, sib.end_byte))
            if nxt is None:
                if _is_comment(sib):
                    sib = sib.next_named_sibling
                    continue
                break
            if nxt.name != d.name or nxt.scope != d.scope:
                break
            d.end_byte = max(d.end_byte, nxt.end_byte)
            if d.doc_node is None:
                d.doc_node = nxt.doc_node
            dropped.add(id(nxt))
            sib = sib.next_named_sibling
    return [d for d in defs if id(d) not in dropped]


def _is_comment(node: Node) -> bool:
    return "comment" in node.type or node.type in COMMENT_TYPES


def _ends(parent: Node, child: Node, lines: _Lines) -> bool:
    """Whether ``child`` ends ``parent``: only white space follows it (no closing brace, say)."""
    return lines.content_end(child.start_byte, parent.end_byte) == lines.content_end(child.start_byte, child.end_byte)


def _before_outdented_comments(node: Node, lines: _Lines) -> int:
    """Where a definition's node ends, less the comments it ends with that start at or left of its first
    column: the next definition's doc comment, which tree-sitter-scala puts at the end of an indented body."""
    column, inner = node.start_point[1], node
    while inner.named_child_count:
        kids = inner.named_children
        if not _ends(inner, kids[-1], lines):
            break
        code = len(kids)
        while code and _is_comment(kids[code - 1]) and kids[code - 1].start_point[1] <= column:
            code -= 1
        if code < len(kids):  # the first of those comments: the definition ends at the text before it
            return kids[code].start_byte if code else node.end_byte
        inner = kids[-1]
    return node.end_byte


def _nest(
    defs: list[_Def],
    lines: _Lines,
    body_types: frozenset[str] = frozenset(),
    signature_types: frozenset[str] = frozenset(),
    head_end_types: frozenset[str] = frozenset(),
) -> list[_Def]:
    """Arrange definitions in a tree by byte range; set lines, kinds and qualnames. Returns the roots."""
    for d in defs:
        if d.end_byte == d.node.end_byte:
            d.end_byte = _before_outdented_comments(d.node, lines)
        d.end_byte = lines.content_end(d.start_byte, d.end_byte)
    defs.sort(key=lambda d: (d.start_byte, -d.end_byte))
    def_nodes = frozenset((d.node.start_byte, d.node.end_byte) for d in defs)
    top: list[_Def] = []
    stack: list[_Def] = []
    for d in defs:
        while stack and not (stack[-1].start_byte <= d.start_byte and d.end_byte <= stack[-1].end_byte):
            stack.pop()
        parent = stack[-1] if stack else None
        d.start_line = lines.line_of(d.start_byte)
        d.end_line = lines.end_line_of(d.start_byte, d.end_byte)
        d.header_line = min(max(lines.line_of(d.name_node.start_byte), d.start_line), d.end_line)
        _set_signature(d, lines, body_types, def_nodes, signature_types, head_end_types)
        if d.kind == "function" and parent is not None and parent.kind in CLASS_LIKE:
            d.kind = "method"
        prefix = parent.qualname if parent is not None else None
        if d.scope:
            prefix = f"{prefix}.{d.scope}" if prefix else d.scope
        d.parent_qualname = prefix
        d.qualname = f"{prefix}.{d.name}" if prefix else d.name
        (parent.children if parent is not None else top).append(d)
        stack.append(d)
    return top


# --- text -------------------------------------------------------------------------------------------


def _render(
    lines: _Lines, start: int, end: int, children: list[_Def], start_byte: int, end_byte: int
) -> list[tuple[int, str]]:
    """(line, text) pairs of lines start..end with each child's body after its header elided.

    Lines longer than LONG_LINE (minified code) are cut to the span's own bytes and to LONG_LINE
    characters, so a thousand functions on one line do not each carry the whole line."""
    text = lines.text
    out: list[tuple[int, str]] = []
    cur = start
    for c in children:
        keep_to = min(c.header_end, end)
        out.extend((i, text[i]) for i in range(cur, keep_to + 1))
        cur = max(cur, keep_to + 1)
        if c.end_line >= cur:
            out.append((cur, _indent_for(text, c) + "..."))
            cur = c.end_line + 1
    out.extend((i, text[i]) for i in range(cur, end + 1))
    if lines.longest > LONG_LINE:
        out = [(i, t if len(t) <= LONG_LINE else lines.clipped(i, start_byte, end_byte)) for i, t in out]
    return out


def _indent_for(text: list[str], c: _Def) -> str:
    own = _indentation(text[c.start_line])
    first = c.header_line + 1
    if first <= c.end_line and text[first].strip():
        body = _indentation(text[first])
        if len(body) > len(own) and body.startswith(own):
            return body
    return own + "    "


def _indentation(s: str) -> str:
    return s[: len(s) - len(s.lstrip())]


class _Emitter:
    """Makes Span objects, splitting the ones whose text is too long."""

    def __init__(self, lines: _Lines, settings: Settings, language: str) -> None:
        self.lines, self.language = lines, language
        self.max_lines = settings.max_span_lines
        self.spans: list[Span] = []

    def emit(
        self,
        kind,
        name,
        qualname,
        signature,
        doc,
        parent,
        start_line,
        end_line,
        start_byte,
        end_byte,
        entries: list[tuple[int, str]],
        header: str | None,
    ) -> None:
        # a symbol longer than max_lines is split into parts that each repeat the header
        size = max(1, self.max_lines // 2 if len(entries) > self.max_lines else len(entries))
        chunks = [entries[i : i + size] for i in range(0, len(entries), size)] or [entries]
        if len(chunks) > 1 and len(chunks[-1]) < size // 4:  # no tiny tail part
            chunks[-2].extend(chunks.pop())
        for k, chunk in enumerate(chunks):
            last = k == len(chunks) - 1
            ps = start_line if k == 0 else chunk[0][0]
            pe = end_line if last else chunks[k + 1][0][0] - 1
            body = "\n".join(t for _, t in chunk)
            text = body if k == 0 or not header else header + "\n" + body
            self.spans.append(
                Span(
                    kind,
                    name,
                    qualname,
                    signature,
                    doc,
                    parent,
                    self.language,
                    ps + 1,
                    pe + 1,
                    start_byte if k == 0 else self.lines.start_of(ps),
                    end_byte if last else self.lines.start_of(pe + 1),
                    text,
                )
            )


def _windows(rel_path: str, lines: _Lines, settings: Settings, language: str, kind: Kind) -> list[Span]:
    name = PurePosixPath(rel_path).name or rel_path
    n = len(lines)
    size = settings.window_lines
    step = max(1, size - settings.window_overlap)
    spans: list[Span] = []
    start = 0
    while start < n:
        end = min(start + size, n) - 1
        text = "\n".join(lines.text[start : end + 1])
        if text.strip():
            end_byte = lines.start_of(end + 1) if end + 1 < n else len(lines.data)
            spans.append(
                Span(
                    kind, name, name, "", "", None, language, start + 1, end + 1, lines.start_of(start), end_byte, text
                )
            )
        if end >= n - 1:
            break
        start += step
    return spans


def _replace_names(sp: Span, name: str, qualname: str, doc: str) -> Span:
    return Span(
        sp.kind,
        name,
        qualname,
        "",
        doc,
        None,
        sp.language,
        sp.start_line,
        sp.end_line,
        sp.start_byte,
        sp.end_byte,
        sp.text,
        sp.text_hash,
    )


# --- names, signatures, docs ------------------------------------------------------------------------


def _text(data: bytes, node: Node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


_ANNOTATION_NAME_RE = re.compile(r"@[A-Za-z_][\w.:]*")  # @Override, @file:JvmName, @annotation.tailrec
MAX_ANNOTATIONS = 16


def _closing(text: str, i: int) -> int:
    """The index just past the bracket that closes the one at ``i`` (strings are not read: an annotation's
    arguments rarely hold a bracket), or the end of the text."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] in "([":
            depth += 1
        elif text[j] in ")]":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def _past_annotations(head: str) -> str:
    """A declaration's head from the declaration itself, past the annotations and comments before it
    (``@Override``, ``@Suppress("UNCHECKED_CAST")``, ``#[inline]``, ``[[nodiscard]]``, a ``// TODO``): a
    declaration without a body is signed by one line, and ``@SuppressWarnings(...)`` tells a reader nothing.
    The text itself is returned when it is only annotations."""
    i = 0
    for _ in range(MAX_ANNOTATIONS):
        while i < len(head) and head[i].isspace():
            i += 1
        if head.startswith("//", i):
            end = head.find("\n", i)
            i = len(head) if end < 0 else end
        elif head.startswith("/*", i):
            end = head.find("*/", i + 2)
            i = len(head) if end < 0 else end + 2
        elif m := _ANNOTATION_NAME_RE.match(head, i):
            i = m.end()
            i = _closing(head, i) if head.startswith("(", i) else i
        elif head.startswith(("#[", "#!["), i):
            i = _closing(head, head.index("[", i))
        elif head.startswith("[[", i):
            i = _closing(head, i)
        else:
            break
    rest = head[i:]
    return rest if rest.strip() else head


def _collapse(s: str) -> str:
    return _WS_RE.sub(" ", s).strip()


def _name_text(data: bytes, node: Node) -> str:
    # `## Title ##` closing hashes, quotes of `declare module "foo"`
    return _collapse(_text(data, node)).rstrip("#").strip().strip("\"'`")[:NAME_CHARS] or "?"


_QUALIFIED_RE = re.compile(r"[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+")


def _qualified(name: str) -> tuple[str, str]:
    """A name written qualified at its definition (Elixir's ``defmodule Phoenix.Channel``, Ruby's ``class
    Rack::Builder``) as its qualifier and its own name (``Phoenix``, ``Channel``): a definition is named by
    its last part in every language, and the qualifier joins its qualname."""
    if not _QUALIFIED_RE.fullmatch(name):
        return "", name
    parts = re.split(r"\.|::", name)
    return ".".join(parts[:-1]), parts[-1]


def _scope_text(data: bytes, node: Node) -> str:
    s = _collapse(_text(data, node))
    s = re.sub(r"<[^<>]*>", "", s)  # Foo<T>::bar -> Foo::bar (one level of template arguments)
    return s.replace("::", ".").replace(" ", "")


def _module_qualname(rel_path: str, dotted: bool) -> str:
    p = PurePosixPath(rel_path.replace("\\", "/"))
    if not dotted:
        return p.stem or p.name
    parts = list(p.with_suffix("").parts)
    if parts and parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    if len(parts) > 1 and parts[0] == "src":
        parts.pop(0)
    return ".".join(parts) or p.stem


def _near(d: _Def, def_nodes: frozenset[tuple[int, int]]) -> Iterator[Node]:
    """The definition's node and the nodes below it, breadth first, up to _BODY_SEARCH_NODES, not looking inside
    other definitions (``def_nodes``: byte ranges), whose bodies and heads are their own."""
    queue = [d.node]
    seen = 0
    while queue and seen < _BODY_SEARCH_NODES:
        node = queue.pop(0)
        seen += 1
        if node != d.node and (node.start_byte, node.end_byte) in def_nodes:
            continue
        yield node
        queue.extend(node.named_children)


def _find_body(
    d: _Def, body_types: frozenset[str] = frozenset(), def_nodes: frozenset[tuple[int, int]] = frozenset()
) -> tuple[Node, Node] | None:
    """(owner, body): the first node near the definition with a ``body`` field (or a child of one of
    ``body_types``) after the name (a Zig ``const P = struct { fn f() {} }`` has no body of its own)."""
    name_end = d.name_node.end_byte
    for node in _near(d, def_nodes):
        body = node.child_by_field_name("body")
        if body is None and body_types:
            body = next((c for c in node.named_children if c.type in body_types), None)
        if body is not None and body.start_byte >= name_end:
            return node, body
    return None


def _find_head(d: _Def, types: frozenset[str], def_nodes: frozenset[tuple[int, int]]) -> tuple[Node, Node] | None:
    """(owner, head): the first node near the definition that is a child of one of ``types`` holding its name, or
    the definition's node itself when it is of one (Pascal's ``declProc`` in a class, its header in a body)."""
    if d.node.type in types:
        return d.node, d.node
    for node in _near(d, def_nodes):
        for child in node.named_children:
            if child.type in types and child.start_byte <= d.name_node.start_byte < child.end_byte:
                return node, child
    return None


def _head_end(d: _Def, types: frozenset[str]) -> Node | None:
    """The first node after the name, beside it, of one of ``types``: the end of a head the grammar has no node for
    (SystemVerilog's ``function automatic logic f(`` ... ``);``, whose ports are a ``tf_port_list``)."""
    parent = d.name_node.parent
    if parent is None:
        return None
    return next((c for c in parent.named_children if c.type in types and c.start_byte >= d.name_node.end_byte), None)


def _without_comments(data: bytes, start: int, head: Node, end: int) -> bytes:
    """The bytes from ``start`` to ``end`` (through ``head``) less the comments in ``head``: a Verilog module's
    ports are commented one by one (``input logic clk_i, // the clock``)."""
    out, pos, stack = [], start, [head]
    while stack:
        node = stack.pop()
        if _is_comment(node):
            out.append(data[pos : node.start_byte])
            pos = node.end_byte
        else:
            stack.extend(reversed(node.named_children))
    out.append(data[pos:end])
    return b" ".join(out)


_INLINE_BODY_RE = re.compile(r",\s*do:\s")  # a body written inline after the head, as a keyword


def _set_signature(
    d: _Def,
    lines: _Lines,
    body_types: frozenset[str] = frozenset(),
    def_nodes: frozenset[tuple[int, int]] = frozenset(),
    signature_types: frozenset[str] = frozenset(),
    head_end_types: frozenset[str] = frozenset(),
) -> None:
    """The one-line signature (the text up to the body, or through a node that is the whole head or ends it) and
    the last line of the header."""
    data = lines.data
    d.header_end = d.header_line
    found = _find_body(d, body_types, def_nodes)
    whole = _find_head(d, signature_types, def_nodes) if signature_types else None
    if whole is None and found is None and head_end_types:  # the definition's start through the node ending its head
        end_node = _head_end(d, head_end_types)
        whole = (d.node, end_node) if end_node is not None else None
    if whole is not None:  # a node that is the whole head (Julia's `signature`, Ada's specification) or ends it
        owner, node = whole
        start = owner.start_byte if owner.start_byte <= d.name_node.start_byte else d.node.start_byte
        start = _past_inner_attributes(owner if start == owner.start_byte else d.node, start, data)
        end = node.end_byte
        after = node.next_sibling
        if after is not None and after.type == ")" and owner is d.node:  # the bracket closing a head-ending list
            end = after.end_byte
        sig = _without_comments(data, start, node, end).decode("utf-8", errors="replace")
        end_line = lines.end_line_of(node.start_byte, end)
        d.header_end = max(d.header_line, min(end_line, d.header_line + MAX_HEADER_LINES, d.end_line))
    elif found is None:  # no body: the first line of the declaration, past its annotations
        start = _past_inner_attributes(d.node, d.node.start_byte, data)
        end = min(lines.start_of(lines.line_of(d.name_node.start_byte) + 1), d.node.end_byte)
        head = _past_annotations(data[start:end].decode("utf-8", errors="replace"))
        sig = _EOL_STR_RE.split(head, maxsplit=1)[0]
        sig = _INLINE_BODY_RE.split(sig, maxsplit=1)[0]  # Elixir's one-line `def f(x), do: x + 1`
    else:
        owner, body = found
        # from the node that has the body (past decorators), unless it is the value after the name
        start = owner.start_byte if owner.start_byte <= d.name_node.start_byte else d.node.start_byte
        cut = body.start_byte
        for child in owner.children:  # a comment before the body is not part of the signature
            if "comment" in child.type and d.name_node.end_byte <= child.start_byte < cut:
                cut = child.start_byte
                break
        sig = data[start:cut].decode("utf-8", errors="replace")
        cut_line = lines.line_of(cut)
        if not data[lines.start_of(cut_line) : cut].strip():  # the body starts its own line
            cut_line -= 1
        d.header_end = max(d.header_line, min(cut_line, d.header_line + MAX_HEADER_LINES, d.end_line))
    sig = _CLOSE_PAREN_RE.sub("", _OPEN_PAREN_RE.sub(r"\1", _collapse(sig)))
    for punct in _TRAILING_PUNCT:
        if sig.endswith(punct) and len(sig) > len(punct):
            sig = sig[: -len(punct)].rstrip()
            break
    d.signature = sig[:SIGNATURE_CHARS]


def _past_inner_attributes(node: Node, start: int, data: bytes) -> int:
    """Where a head starts past the attributes its node starts with (VB.NET's ``<HttpGet>`` lines, Delphi's
    ``[Test]``), and past VB's line continuation after them (``<OperationContract()> _``)."""
    past = start
    for child in node.named_children:
        if child.type not in INNER_ATTRIBUTE_TYPES:
            break
        past = max(past, child.end_byte)
    if past > start and (m := _CONTINUATION_RE.match(data, past)):
        past = m.end()
    return past


def _doc(d: _Def, data: bytes, lines: _Lines, doc_after: str = "") -> str:
    if d.doc_node is not None:
        doc = _clean_doc(_text(data, d.doc_node))
        if doc:
            return doc
    above = _leading_comments(d, lines)
    if doc_after and above and _follows_an_item(above[0], data, lines, doc_after):
        above = above[1:]  # `val a : t` then `(** a's doc *)` then `val b`: the comment is a's, not b's
    doc = _clean_doc("\n".join(_text(data, c).rstrip() for c in above), comment=True)  # VHDL's end in a newline
    if not doc and doc_after:
        below = _trailing_doc(d, data, lines, doc_after)
        if below is not None:
            doc = _clean_doc(_text(data, below), comment=True)
    return doc


def _trailing_doc(d: _Def, data: bytes, lines: _Lines, marker: str) -> Node | None:
    """The doc comment right below a definition (on its last line or the next) that opens with ``marker``:
    OCaml's ``val f : t`` then ``(** ... *)``. After a blank line it is the next definition's."""
    node = d.node
    while node.next_named_sibling is None and node.parent is not None and node.parent.end_byte <= node.end_byte + 1:
        node = node.parent  # the last binding of a `let ... and ...`: the comment follows the whole item
    below = node.next_named_sibling
    if below is None or not _is_comment(below) or not data.startswith(marker.encode(), below.start_byte):
        return None
    if lines.line_of(below.start_byte) > lines.end_line_of(d.node.start_byte, d.node.end_byte) + 1:
        return None
    return below


def _within(node: Node, types: frozenset[str]) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in types:
            return True
        parent = parent.parent
    return False


def _follows_an_item(comment: Node, data: bytes, lines: _Lines, marker: str) -> bool:
    """Whether a doc comment opening with ``marker`` starts on the line after the item before it ends: it
    documents that item (odoc's rule for a comment between two items with no blank line)."""
    before = comment.prev_named_sibling
    return (
        before is not None
        and not _is_comment(before)
        and data.startswith(marker.encode(), comment.start_byte)
        and lines.line_of(comment.start_byte) == lines.end_line_of(before.start_byte, before.end_byte) + 1
    )


def _leading_comments(d: _Def, lines: _Lines) -> list[Node]:
    """Comment nodes directly above a definition, with no blank line between; nearest last."""
    node = d.node
    prev = _above(node)
    while prev is not None and (prev.type in ATTRIBUTE_TYPES or _rewritten_attribute(prev, lines.data)):
        node, prev = prev, _above(prev)
    for _ in range(2):  # a definition first in a block: look above the block (Ruby `class` bodies)
        if prev is not None or node.parent is None or node.parent.parent is None:
            break
        node = node.parent
        prev = _above(node)
    last = prev  # the comment the node above ends with: Haskell's imports, Scala's indented body
    while last is not None and last.named_child_count and not _is_comment(last):
        if not _ends(last, last.named_children[-1], lines):
            break
        last = last.named_children[-1]
    if last is not None and last is not prev and _is_comment(last):
        prev = last
    found: list[Node] = []
    top_line = lines.line_of(node.start_byte)
    while prev is not None and _is_comment(prev):
        end_line = lines.end_line_of(prev.start_byte, prev.end_byte)
        if end_line < top_line - 1:
            break
        before = prev.prev_sibling
        while before is not None and before.type in LINE_END_TYPES:
            before = before.prev_sibling
        start_line = lines.line_of(prev.start_byte)
        if before is not None and lines.end_line_of(before.start_byte, before.end_byte) == start_line:
            break  # a trailing comment of the code before it
        found.append(prev)
        top_line = start_line
        prev = _above(prev)
    found.reverse()
    return found


def _rewritten_attribute(node: Node, data: bytes) -> bool:
    """A comment in the tree that is none in the file as written (its first character differs): an attribute
    that rewrites/vb.py made a comment, as the grammar reads none on a nested type. It starts the span; no doc."""
    text = node.text
    return _is_comment(node) and text is not None and text[:1] != data[node.start_byte : node.start_byte + 1]


def _above(node: Node) -> Node | None:
    """The named sibling before ``node``, past nodes that are only line ends."""
    prev = node.prev_named_sibling
    while prev is not None and prev.type in LINE_END_TYPES:
        prev = prev.prev_named_sibling
    return prev


def _leading_file_comment(root: Node, data: bytes, lines: _Lines, def_starts: set[int]) -> str:
    """The comment block at the top of a file, unless it is the doc comment of a definition below it."""
    comments: list[Node] = []
    child = root.named_children[0] if root.named_child_count else None
    while child is not None and (_is_comment(child) or child.type in LINE_END_TYPES):
        if (
            _is_comment(child)
            and not data.startswith(b"#!", child.start_byte)
            and not _DIRECTIVE_RE.match(data, child.start_byte)
        ):
            comments.append(child)
        child = child.next_named_sibling
    if not comments:
        return ""
    last = lines.end_line_of(comments[-1].start_byte, comments[-1].end_byte)
    if child is not None and child.start_byte in def_starts and lines.line_of(child.start_byte) <= last + 1:
        return ""
    return _clean_doc("\n".join(_text(data, c).rstrip() for c in comments), comment=True)


def _unboxed(lines: list[str]) -> list[str]:
    """A comment's lines without the box drawn around its text: rule lines of one character (``-- ===== --``,
    ``/*******``, ``# -----``) and the border that closes most lines (``-- Generic cache     --``), as VHDL, Ada, C
    and shell banners are written."""
    texts = [line for line in lines if line.strip() and not _RULE_RE.fullmatch(line.strip())]
    ends = [m for line in texts if (m := _BORDER_RE.search(line))]
    borders = Counter(m[1] for m in ends)
    if borders:
        char, closed = borders.most_common(1)[0]
        # most lines close with it (a box), or the only line with a run of three (`$ZodString  //////////`)
        if closed * 2 > len(texts) and (len(texts) > 1 or len(ends[0][0].strip()) >= 3):
            lines = [_unframed(line) if line.endswith(char) else line for line in lines]
    return [line for line in lines if not _RULE_RE.fullmatch(line.strip())]


def _unframed(line: str) -> str:
    """A boxed line without its border, and without a rule opening it (``--- http1 ---``)."""
    return _RULE_OPEN_RE.sub(r"\1", _BORDER_RE.sub("", line))


def _clean_doc(raw: str, comment: bool = False) -> str:
    """A docstring or a block of comment nodes (``comment``) as plain text: quotes and comment markers removed."""
    raw = raw.strip()
    if not raw:
        return ""
    m = None if comment else _STRING_PREFIX_RE.match(raw)  # a VB.NET comment `' ...` may end in a quote
    if m and raw.endswith(m[1]) and len(raw) >= m.end() + len(m[1]):
        raw = inspect.cleandoc(raw[m.end() : len(raw) - len(m[1])])
    elif (long := _LONG_COMMENT_RE.match(raw)) and f"]{long[1]}]" not in long[2]:
        raw = inspect.cleandoc(long[2])
    else:
        ml = raw.startswith("(*")
        vb = comment and _VB_COMMENT_START_RE.match(raw) is not None
        brace = comment and _BRACE_OPEN_RE.match(raw) is not None
        out = []
        closer = ""  # the end of the Lua long comment a line is in
        for line in _EOL_STR_RE.split(raw):
            s = line.strip()
            if not closer and (opening := _LONG_COMMENT_OPEN_RE.match(s)):
                closer, s = f"]{opening[1]}]", s[opening.end() :].strip()
            if closer:
                if s.endswith(closer):
                    closer, s = "", s[: -len(closer)].removesuffix("--").rstrip()
                out.append(s)
                continue
            s = (_ML_COMMENT_END_RE if ml else _COMMENT_END_RE).sub("", s)
            if brace:
                s = _BRACE_CLOSE_RE.sub("", _BRACE_OPEN_RE.sub("", s, count=1))
            start = _ML_COMMENT_START_RE if ml and s.startswith("(*") else _COMMENT_START_RE
            if vb and _VB_COMMENT_START_RE.match(s):
                start = _VB_COMMENT_START_RE
            out.append(start.sub("", s, count=1).rstrip())
        out = _unboxed([line for line in out if not _PRAGMA_RE.match(line)])
        while out and not out[0]:
            out.pop(0)
        while out and not out[-1]:
            out.pop()
        raw = "\n".join(out)
    if not any(c.isalnum() for c in raw):
        return ""  # odoc's stop comment `(**/**)`, an empty `(**)`: no doc
    return raw.strip()[:DOC_CHARS]
