"""Which indexed definitions a span's code refers to: the "refers to" list of get_context.

The names a span uses are read from its code by a regex (one rule for every language, window-indexed ones
too), with comments and string literals blanked first by a tree-sitter parse where the language has a
grammar. How a name is used decides where its definition may be:

* ``self.name`` (``this.``, ``cls.``, ``Self::``): a member of the span's own class, else of a class in
  the same file (a base class), else the best placed;
* ``name`` on its own (a call, a type) or ``module.name`` through an imported name: the definitions in the
  best place that has one: the same file, else a file the imports mention, else anywhere; a name the span
  binds itself (a parameter, an assignment, a loop variable) is a local, not a reference;
* ``other.name``, an attribute of another object whose type a regex cannot know: only when the best place
  has exactly one definition of that name (``response.has_redirect_location``), never a guess among several
  (``response.read`` of a request or a response).

Test code is never offered for code that is not a test: a helper of the test suite does not explain the
library.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import PurePosixPath

from tree_sitter import Node, Parser

from .filerules import is_test_path
from .languages import grammar_for, is_code
from .related import FILE_KINDS, overlaps
from .search import Searcher
from .store import StoredSpan

MAX_REFERENCES = 20
MAX_NAMES = 200  # distinct identifiers of one span looked up in the index
PER_NAME = 3  # definitions kept for one name (overloads, same-named methods of several classes)
MIN_NAME = 3

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
SELF_NAMES = frozenset({"self", "this", "cls", "Self", "$this"})
TYPE_FIRST = frozenset({"java", "c", "cpp", "cuda", "csharp"})  # a parameter's name comes after its type

_IDENT_RE = re.compile(r"[^\W\d]\w*")
_WORD_RE = re.compile(r"\w+")
# `recv.`, `recv().`, `].` right before a name; `->` is member access only in some languages (a return type
# in Python and Rust)
_ACCESS_RE = re.compile(r"(?:(\$?\w+)(\(\))?)?\s*(?:\.|::)\s*$")
_ARROW_ACCESS_RE = re.compile(r"(?:(\$?\w+)(\(\))?)?\s*(?:\.|->|::)\s*$")
ARROW_ACCESS = frozenset({"c", "cpp", "cuda", "php"})
_BINDINGS = (
    re.compile(r"(?<![.\w])([^\W\d]\w*)\s*(?::[^=\n]*)?(?::=|=(?!=))"),  # x = ..., x: T = ..., x := ...
    re.compile(r"\b(?:var|let|const|as|global|nonlocal)\s+([^\W\d]\w*)"),
    re.compile(r"\bfor\s+\(?([\w\s,]+?)\)?\s+(?:in|of)\b"),
    re.compile(r"\bexcept\b[^:\n]*\bas\s+(\w+)"),
)


@dataclass
class Uses:
    """How a span uses one name."""

    bare: bool = False  # on its own: a call, a type, a variable
    own: bool = False  # through self/this/cls: a member of the span's own class
    module: bool = False  # through an imported name: pkg.name
    other: bool = False  # an attribute of another object: obj.name


def references(searcher: Searcher, span: StoredSpan, imports: list[str]) -> list[StoredSpan]:
    """Definitions the index holds for the names ``span``'s code uses, best placed first."""
    imported = import_words(imports)
    local = local_names(span)
    uses = name_uses(span, set(_WORD_RE.findall(" ".join(imports))) - local)
    names = [n for n, u in uses.items() if not (u.bare and not (u.own or u.module or u.other) and n in local)]
    if not names:
        return []
    order = {name: i for i, name in enumerate(names)}
    for_tests = is_test_path(span.path)
    candidates: dict[str, list[StoredSpan]] = {}
    for other in searcher.store.spans_named_exactly(names):
        if other.kind in FILE_KINDS or not is_code(other.language) or overlaps(span, other):
            continue
        if is_test_path(other.path) and not for_tests:
            continue
        candidates.setdefault(other.name, []).append(other)
    picked: list[tuple[int, StoredSpan]] = []
    for name, found in candidates.items():
        picked.extend(_resolve(span, uses[name], name in local, found, imported))
    picked.sort(key=lambda c: (c[0], order[c[1].name], _place(c[1])))
    # one entry per definition: the first part of a long one, the getter of a property with a setter
    unique: dict[tuple[str, str, str], StoredSpan] = {}
    for _, s in picked:
        unique.setdefault((s.path, s.qualname, s.kind), s)
    return list(unique.values())[:MAX_REFERENCES]


def _resolve(
    span: StoredSpan, uses: Uses, local: bool, found: list[StoredSpan], imported: set[str]
) -> list[tuple[int, StoredSpan]]:
    """The definitions one name's uses point to, each with its place tier (0: the same file or class)."""
    if uses.own and span.parent:
        own_class = [s for s in found if s.path == span.path and s.parent == span.parent]
        if own_class:
            return [(0, s) for s in sorted(own_class, key=_place)[:PER_NAME]]
    tiers = [(_tier(span, s, imported), s) for s in found]
    top = min(t for t, _ in tiers)
    best = sorted((s for t, s in tiers if t == top), key=_place)
    if uses.own or uses.module or (uses.bare and not local):
        return [(top, s) for s in best[:PER_NAME]]
    return [(top, best[0])] if len(best) == 1 else []  # obj.name: only when no other definition competes


def _tier(span: StoredSpan, other: StoredSpan, imported: set[str]) -> int:
    return 0 if other.path == span.path else 1 if _mentioned(other.path, imported) else 2


def name_uses(span: StoredSpan, modules: set[str]) -> dict[str, Uses]:
    """The names in ``span``'s code (comments and strings left out), in order of first use, less its own
    name, keywords and names shorter than MIN_NAME, with how each is used; ``modules`` are the names the
    file imports (case-sensitive: ``response.read`` is not ``Response``'s module)."""
    code = code_text(span)
    access_re = _ARROW_ACCESS_RE if span.language in ARROW_ACCESS else _ACCESS_RE
    uses: dict[str, Uses] = {}
    for m in _IDENT_RE.finditer(code):
        name = m.group()
        if len(name) < MIN_NAME or name == span.name or name in KEYWORDS:
            continue
        if name not in uses:
            if len(uses) >= MAX_NAMES:
                continue
            uses[name] = Uses()
        access = access_re.search(code, max(0, m.start() - 64), m.start())
        receiver = (access.group(1) or "") if access else ""
        if access is None:
            uses[name].bare = True
        elif receiver in SELF_NAMES or (receiver == "super" and access.group(2)):
            uses[name].own = True
        elif receiver in modules and not access.group(2):
            uses[name].module = True
        else:
            uses[name].other = True
    return uses


def code_text(span: StoredSpan) -> str:
    """``span``'s text, dedented, with its comments and string literals blanked (newlines kept) when its
    language has a grammar: a word in a docstring or an error message is not a reference."""
    text = textwrap.dedent(span.text)
    grammar = grammar_for(span.language)
    if grammar is None:
        return text
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for node in _literal_nodes(Parser(grammar[0]).parse(bytes(data)).root_node):
        for i in range(node.start_byte, node.end_byte):
            if data[i] != 0x0A:
                data[i] = 0x20
    return data.decode("utf-8", "replace")


def _literal_nodes(root: Node) -> list[Node]:
    """The outermost comment and string-literal nodes under ``root`` (type names differ per grammar)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if "comment" in kind or ("string" in kind and kind != "string_content") or kind.endswith("char_literal"):
            found.append(node)
        else:
            stack.extend(node.children)
    return found


def local_names(span: StoredSpan) -> set[str]:
    """Names ``span`` binds itself: its parameters, assignments, loop and ``as`` variables."""
    names = set(_parameters(span))
    code = code_text(span)
    for pattern in _BINDINGS:
        for m in pattern.finditer(code):
            names.update(_IDENT_RE.findall(m.group(1)))
    return names


def _parameters(span: StoredSpan) -> list[str]:
    """The parameter names in ``span``'s signature: the parenthesised list after its name."""
    sig = span.signature or ""
    at = sig.find(span.name) if span.name else -1
    start = sig.find("(", at + len(span.name) if at >= 0 else 0)
    if start < 0:
        return []
    depth, parts, current = 0, [], list[str]()
    for ch in sig[start:]:
        depth += ch in "([{<"
        depth -= ch in ")]}>"
        if depth == 0:
            break
        if depth == 1 and ch == ",":
            parts.append("".join(current))
            current = []
        elif not (depth == 1 and ch == "("):
            current.append(ch)
    parts.append("".join(current))
    names = []
    for part in parts:
        words = _IDENT_RE.findall(part.split("=")[0].split(":")[0])
        if words:
            names.append(words[-1] if span.language in TYPE_FIRST else words[0])
    return names


def import_words(imports: list[str]) -> set[str]:
    return {w.lower() for w in _WORD_RE.findall(" ".join(imports))}


def _mentioned(path: str, words: set[str]) -> bool:
    """Whether an import names this file: its stem (``cart`` of ``shop/cart.py``) or its folder (a Go
    package, a Python package's ``__init__``)."""
    p = PurePosixPath(path)
    return p.stem.lower() in words or p.parent.name.lower() in words


def _place(span: StoredSpan) -> tuple:
    return (is_test_path(span.path), span.path, span.start_line)
