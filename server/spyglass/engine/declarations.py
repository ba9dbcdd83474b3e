"""Whether a function span declares without implementing: an interface's or a trait's method, an abstract
method, an overload's signature, a C++ member that is `= default`, `= delete` or pure virtual, a hook
specification.

Such a span says *what* is done; the code that *does* it is elsewhere, and a search for where something
happens wants that code (search/ranking.py scales declarations by ``Priors.declarations``). Read from the
span's text, so an index needs no new column: Python by its syntax tree (a body of only a docstring,
``pass``, ``...`` or ``raise NotImplementedError``); languages whose bodies are braced by a text that is a
signature ended by ``;``; Elixir by ``@callback``, OCaml by ``val``, F# by ``abstract``, SystemVerilog by
``extern``, ``pure`` or ``import``, VHDL by a ``;`` without ``is``. Where the text is
ambiguous (an arrow function, a type with braces, Kotlin's or Swift's signature without ``;``) the answer is
False: a declaration missed costs nothing that was there before.
"""

from __future__ import annotations

import ast
import re
import textwrap
from functools import lru_cache

from .languages import syntax_of

FUNCTION_KINDS = frozenset({"function", "method"})
# languages whose function bodies are in braces, so that a definition ending in ``;`` has none
BRACED = frozenset(
    {
        "c",
        "cpp",
        "csharp",
        "dart",
        "groovy",
        "java",
        "javascript",
        "objective-c",
        "php",
        "rust",
        "solidity",
        "typescript",
        "zig",
    }
)
# languages whose declarations open with a keyword: an OCaml signature's ``val`` (an interface's, a module
# type's), F#'s ``abstract`` member, GDScript's ``@abstract`` annotation
DECLARING_WORDS = {
    "ocaml": ("val ",),
    "ocaml-interface": ("val ",),
    "fsharp": ("abstract ",),
    "gdscript": ("@abstract",),  # Godot 4.5's abstract method, which has no body
    # SystemVerilog's prototypes (Verilog's too, one grammar): a class's ``extern`` and ``pure virtual`` methods,
    # a C function's DPI import
    "systemverilog": ("extern ", "pure ", "import "),
}
# VHDL's subprogram declaration (a package's ``function clog2(n : positive) return natural;``) has none of the
# words of a body (``is``, ``begin``, ``end``: reserved, never a name)
VHDL_BODY_RE = re.compile(r"\b(?:is|begin|end)\b", re.IGNORECASE)
# languages where ``=>`` is also a function's type, never a body without an ``=`` before it (C# and Dart
# write ``int Area() => w * h;``)
TYPED_ARROWS = frozenset({"typescript"})
ASSIGNMENT_RE = re.compile(r"(?<![=!<>])=(?![=>])")  # ``=``, not ``=>``, ``==``, ``<=`` or ``!=``
COMMENT_STARTS = ("//", "/*", "*", "#[", "#!", "@")
MAX_CHARS = 4000  # a declaration is a signature and its doc; longer text is a definition (or a part of one)


def is_declaration(language: str, kind: str, text: str) -> bool:
    """Whether a span of ``language`` and ``kind`` with ``text`` is a function that has no body."""
    if kind not in FUNCTION_KINDS or len(text) > MAX_CHARS:
        return False
    language = syntax_of(language)  # a Vue component's script is TypeScript
    if language == "python":
        return _python_ending(text) and _python_declaration(text)
    if language in BRACED:
        return _braced_declaration(text, typed_arrows=language in TYPED_ARROWS)
    if language == "elixir":  # a behaviour's callback: its modules implement it
        return text.lstrip().startswith(("@callback", "@macrocallback"))
    if language == "vhdl":
        code = " ".join(line.split("--", 1)[0] for line in text.splitlines())
        return code.rstrip().endswith(";") and VHDL_BODY_RE.search(code) is None
    if language in DECLARING_WORDS:
        return text.lstrip().startswith(DECLARING_WORDS[language])
    if language == "pascal":
        return _pascal_declaration(text)
    if language == "ada":
        return _ada_declaration(text)
    if language == "vb":
        return _vb_declaration(text)
    return False


# Pascal: a routine's header and its directives, no `begin`: a method declared in a class or an interface, a
# routine declared in a unit's `interface` section, a `forward` or `external` one
PASCAL_HEADER_RE = re.compile(
    r"(?is)(?:class\s+)?(?:procedure|function|constructor|destructor|operator)\b[^;()]*(?:\([^()]*\))?[^;()]*;"
    r"(?:\s*(?:virtual|dynamic|abstract|override|overload|reintroduce|static|final|inline|assembler|stdcall|cdecl"
    r"|register|safecall|pascal|winapi|forward|platform|experimental|deprecated[^;]*|external[^;]*|message[^;]*"
    r"|dispid[^;]*)\s*;)*"
)
PASCAL_SKIPPED_STARTS = ("//", "{", "(*", "*", "}", "[")  # comments and attributes (`[Test]`)
# Ada: a subprogram's or an entry's specification ended by its only `;` outside parentheses, without a body
# (`is abstract` and `is separate` say the body is elsewhere, or nowhere)
ADA_SUBPROGRAM_RE = re.compile(r"(?im)^[ \t]*(?:(?:not[ \t]+)?overriding[ \t]+)?(?:procedure|function|entry)\b")
ADA_BODY_RE = re.compile(r"(?i)\bis\b(?!\s+(?:abstract|separate)\s*;\s*$)")
# VB.NET: a `Sub`, `Function` or `Property` line with no `End Sub` (an interface's, `MustOverride`, `Declare`)
VB_HEADER_RE = re.compile(
    r"(?i)(?:(?:Public|Private|Protected|Friend|Shared|Overloads|Overrides|Overridable|MustOverride|Shadows"
    r"|ReadOnly|WriteOnly|Default|Async|Iterator|Declare|Ansi|Unicode|Auto)\s+)*(?:Sub|Function|Property)\b"
)
VB_END_RE = re.compile(r"(?im)^\s*End\s+(?:Sub|Function|Property|Get|Set)\b")


def _code_lines(text: str, comment_starts: tuple[str, ...]) -> list[str]:
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith(comment_starts)]


def _pascal_declaration(text: str) -> bool:
    code = " ".join(_code_lines(text, PASCAL_SKIPPED_STARTS))
    return PASCAL_HEADER_RE.fullmatch(code) is not None


def _ada_declaration(text: str) -> bool:
    start = ADA_SUBPROGRAM_RE.search(text)
    if start is None:
        return False
    code = " ".join(_code_lines(text[start.start() :], ("--",)))
    if not code.endswith(";") or ADA_BODY_RE.search(code):
        return False
    depth = outside = 0
    for c in code:
        depth += (c == "(") - (c == ")")
        outside += c == ";" and depth == 0
    return outside == 1 and depth == 0


def _vb_declaration(text: str) -> bool:
    lines = [line for line in _code_lines(text, ("'",)) if not line.lower().startswith("rem ")]
    while lines and lines[0].startswith("<") and lines[0].removesuffix(" _").rstrip().endswith(">"):  # attributes
        lines.pop(0)
    if not lines or VB_HEADER_RE.match(lines[0]) is None or VB_END_RE.search(text):
        return False
    # the header's lines go on after `(`, `,` or ` _`, or before `)`: anything else is a body's statement
    return all(a.endswith(("(", ",", " _")) or b.startswith(")") for a, b in zip(lines, lines[1:], strict=False))


PLACEHOLDER_ENDS = ('"""', "'''", "pass", "...")  # a docstring, pass, ...; or raise NotImplementedError


def _python_ending(text: str) -> bool:
    """What a declaration's last line can be; most definitions end otherwise, and are not parsed."""
    end = len(text)
    while True:  # from the end, without splitting the whole text
        start = text.rfind("\n", 0, end) + 1
        last = text[start:end].strip()
        if (last and not last.startswith("#")) or start == 0:
            break
        end = start - 1
    last = last.split("#", 1)[0].rstrip()
    return last.endswith(PLACEHOLDER_ENDS) or last.startswith("raise NotImplementedError")


@lru_cache(maxsize=4096)  # only texts whose last line could end a declaration reach it
def _python_declaration(text: str) -> bool:
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return False  # a part of a long definition, or not Python after all
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    return all(_placeholder(statement) for statement in tree.body[0].body)


def _placeholder(statement: ast.stmt) -> bool:
    """A statement that stands for a body: a docstring, ``pass``, ``...``, ``raise NotImplementedError``."""
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return statement.value.value is Ellipsis or isinstance(statement.value.value, str)
    if isinstance(statement, ast.Raise) and statement.exc is not None:
        raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
        return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"
    return False


def _braced_declaration(text: str, *, typed_arrows: bool = False) -> bool:
    """A signature ended by its only ``;``, with no brace and no arrow in its code (comments, doc and
    attributes aside): ``fn poll(&mut self) -> Poll<()>;``, ``String format(long millis);``,
    ``export function tuple(items: T): Tuple<T>;``, ``void run() override;``. With ``typed_arrows``
    (TypeScript), an arrow in a signature with no ``=`` is a function's type, as in an overload's
    ``fn: (value: T) => T``: an arrow function is always bound with one (``const f = (x) => x;``)."""
    if not text.rstrip().endswith(";"):
        return False  # most definitions end with their body's brace
    lines = (line.strip() for line in text.splitlines())
    code = " ".join(line for line in lines if line and not line.startswith(COMMENT_STARTS))
    if "=>" in code and not (typed_arrows and not ASSIGNMENT_RE.search(code)):
        return False
    return code.endswith(";") and code.count(";") == 1 and "{" not in code
