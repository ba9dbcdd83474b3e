"""The language registry, as data: which file is which language, and how to load its grammar.

Adding a language is a table entry here plus a query file in ``queries/<name>.scm``; the parser in
:mod:`spyglass.engine.parsing` has no per-language branches. A language without a grammar entry (TOML,
YAML, plain text, ...) still gets a name, so its window spans carry a useful ``language`` label.

Grammars are loaded lazily, once per process, and cached. A grammar wheel that is missing or broken, or
a query file that does not compile, is logged once; that language then falls back to windows.
"""

from __future__ import annotations

import importlib
import logging
import re
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from tree_sitter import Language, Query

log = logging.getLogger(__name__)

QUERY_DIR = Path(__file__).with_name("queries")


@dataclass(frozen=True, slots=True)
class GrammarSpec:
    """How to load one tree-sitter grammar and which query finds its definitions."""

    module: str  # the grammar wheel's import name
    function: str  # the function in it that returns the language pointer
    query: str  # file name in queries/, without ".scm": the language whose syntax the grammar reads
    extra_query: str = ""  # a second file in queries/ whose patterns are added (C's, for Objective-C)
    # Definition node types whose node is only a heading: the span runs on over the following siblings
    # up to the next definition (markdown setext headings, which the grammar does not wrap in sections).
    open_ended: frozenset[str] = frozenset()
    # The module span's qualname is the dotted path ("pkg/mod.py" -> "pkg.mod") rather than the stem.
    dotted_module: bool = False
    # Child node types that are a definition's body where the grammar has no ``body`` field (Kotlin's
    # function_body, Elixir's do_block): the signature is the text before it.
    body_types: frozenset[str] = frozenset()
    # Node types that, as the next sibling of a definition, are its body (Dart puts a function's body
    # beside its signature rather than in it): the span runs on over it.
    trailing_body: frozenset[str] = frozenset()
    # Consecutive sibling definitions of one name are one span (Haskell's type signature and equations,
    # Elixir's function clauses).
    merge_clauses: bool = False
    # A comment opening with this marker directly below a definition with no comment above is its doc
    # (OCaml's ``(**``: odoc reads ``val f : t`` then ``(** ... *)`` on the next line as f's doc).
    doc_after: str = ""
    # Nodes whose definitions are not the file's: OCaml's functor parameter (`module Make (X : sig type t end)`
    # requires a `t` of its argument; it defines none)
    skip_within: frozenset[str] = frozenset()
    # Child node types that are a definition's whole head where the grammar has neither a ``body`` field nor a
    # body node (Julia's ``signature``): the signature is the text through it, over its lines
    signature_types: frozenset[str] = frozenset()
    # The grammar needs a line end after the last statement: one is given where the file has none (tree-sitter-matlab
    # reads a final `end` with none as an error and loses the function's body). Not for every grammar: a tree of
    # other text than the file's is not kept for an editor's next parse
    final_line_end: bool = False
    # Child node types, beside a definition's name, that end its head where the grammar has no node for the head
    # (SystemVerilog's ``tf_port_list``: a function's ports, over their lines): the signature is the text through it
    head_end_types: frozenset[str] = frozenset()


# Single-file components: TypeScript's grammar reads their scripts, the rest of the file is blanked for it
# (rewrites/components.py); a JavaScript script reads the same.
COMPONENT_LANGUAGES = frozenset({"vue", "svelte", "astro"})
_COMPONENT = GrammarSpec("tree_sitter_typescript", "language_typescript", "typescript", extra_query="components")

_VERILOG = GrammarSpec(
    "tree_sitter_systemverilog",
    "language",
    "systemverilog",
    signature_types=frozenset(
        {
            "module_ansi_header",
            "module_nonansi_header",
            "interface_ansi_header",
            "interface_nonansi_header",
            "program_ansi_header",
            "program_nonansi_header",
        }
    ),
    head_end_types=frozenset({"tf_port_list", "class_constructor_arg_list"}),
)

GRAMMARS: dict[str, GrammarSpec] = {
    "python": GrammarSpec("tree_sitter_python", "language", "python", dotted_module=True),
    "javascript": GrammarSpec("tree_sitter_javascript", "language", "javascript"),
    "typescript": GrammarSpec("tree_sitter_typescript", "language_typescript", "typescript"),
    # TSX is TypeScript plus JSX expressions; definitions look the same, so it shares the query file.
    "tsx": GrammarSpec("tree_sitter_typescript", "language_tsx", "typescript"),
    "go": GrammarSpec("tree_sitter_go", "language", "go"),
    "rust": GrammarSpec("tree_sitter_rust", "language", "rust"),
    "java": GrammarSpec("tree_sitter_java", "language", "java"),
    "c": GrammarSpec("tree_sitter_c", "language", "c"),
    "cpp": GrammarSpec("tree_sitter_cpp", "language", "cpp"),
    "csharp": GrammarSpec("tree_sitter_c_sharp", "language", "csharp"),
    "ruby": GrammarSpec("tree_sitter_ruby", "language", "ruby"),
    "php": GrammarSpec("tree_sitter_php", "language_php", "php"),
    "bash": GrammarSpec("tree_sitter_bash", "language", "bash"),
    "kotlin": GrammarSpec(
        "tree_sitter_kotlin",
        "language",
        "kotlin",
        body_types=frozenset({"function_body", "class_body", "enum_class_body"}),
    ),
    "scala": GrammarSpec("tree_sitter_scala", "language", "scala"),
    "swift": GrammarSpec("tree_sitter_swift", "language", "swift"),
    "dart": GrammarSpec("tree_sitter_dart", "language", "dart", trailing_body=frozenset({"function_body"})),
    "elixir": GrammarSpec(
        "tree_sitter_elixir", "language", "elixir", body_types=frozenset({"do_block"}), merge_clauses=True
    ),
    "lua": GrammarSpec("tree_sitter_lua", "language", "lua"),
    "zig": GrammarSpec("tree_sitter_zig", "language", "zig"),
    "haskell": GrammarSpec(
        "tree_sitter_haskell", "language", "haskell", body_types=frozenset({"match"}), merge_clauses=True
    ),
    "objective-c": GrammarSpec("tree_sitter_objc", "language", "objective-c", extra_query="c"),
    "perl": GrammarSpec("tree_sitter_perl", "language", "perl"),
    "powershell": GrammarSpec("tree_sitter_powershell", "language", "powershell"),
    "julia": GrammarSpec("tree_sitter_julia", "language", "julia", signature_types=frozenset({"signature"})),
    # an implementation holds what an interface does (ocaml-interface.scm) and its own: `let`s, structures, methods
    "ocaml": GrammarSpec(
        "tree_sitter_ocaml",
        "language_ocaml",
        "ocaml",
        extra_query="ocaml-interface",
        doc_after="(**",
        skip_within=frozenset({"module_parameter"}),
    ),
    "ocaml-interface": GrammarSpec(
        "tree_sitter_ocaml",
        "language_ocaml_interface",
        "ocaml-interface",
        doc_after="(**",
        skip_within=frozenset({"module_parameter"}),
    ),
    # F# has no ``body`` field where a module's, a class's or a type's items start: the first of these
    # children ends its signature (``[<AutoOpen>] module Core``, ``Router(prefix : string)``), not a body
    # found deep inside it (the first `let` of a class, a `let` of a module)
    "fsharp": GrammarSpec(
        "tree_sitter_fsharp",
        "language",
        "fsharp",
        body_types=frozenset(
            {
                "import_decl",
                "declaration_expression",
                "type_definition",
                "module_defn",
                "module_abbrev",
                "exception_definition",
                "type_extension_elements",
                "xml_doc",
                "union_type_cases",
                "enum_type_cases",
            }
        ),
    ),
    # dekobon's fork of the Groovy grammar: tree-sitter-groovy 0.1.2 reads no trait, no method named by a string
    # (Spock's features) and loses whole classes to a field without a ";" (586 of Spock's 633 files in error)
    "groovy": GrammarSpec("dekobon_tree_sitter_groovy", "language", "groovy"),
    # a function's body is its ``block`` (no ``body`` field): the signature runs to it, over ``...`` continuations,
    # and not into a comment after it (``function varargout = size(A, dim) %#ok<INUSL>``)
    "matlab": GrammarSpec(
        "tree_sitter_matlab", "language", "matlab", body_types=frozenset({"block"}), final_line_end=True
    ),
    "solidity": GrammarSpec("tree_sitter_solidity", "language", "solidity"),
    "fortran": GrammarSpec("tree_sitter_fortran", "language", "fortran"),
    # CUDA is C++ with kernels and launches (``kernel<<<grid, block>>>(...)``): its grammar extends C++'s, whose
    # query reads it
    "cuda": GrammarSpec("tree_sitter_cuda", "language", "cpp"),
    "vb": GrammarSpec("tree_sitter_vb_dotnet", "language", "vb"),
    # a routine's signature is its whole header (``declProc``), not the text to its body past local declarations
    "pascal": GrammarSpec("tree_sitter_pascal", "language", "pascal", signature_types=frozenset({"declProc"})),
    # a subprogram's signature is its specification, over its lines (not `is` nor a generic's formal part); GNAT's
    # style puts a subprogram's doc comment right below its declaration
    "ada": GrammarSpec(
        "tree_sitter_ada",
        "language",
        "ada",
        signature_types=frozenset({"procedure_specification", "function_specification"}),
        doc_after="--",
    ),
    "gdscript": GrammarSpec("tree_sitter_gdscript", "language", "gdscript"),
    # Lua's patterns read Luau's tree too; a type alias's table type is its body: `export type Connection = {` is
    # signed `export type Connection`
    "luau": GrammarSpec(
        "tree_sitter_luau", "language", "luau", extra_query="lua", body_types=frozenset({"object_type"})
    ),
    "starlark": GrammarSpec("tree_sitter_starlark", "language", "starlark"),
    # Bazel's BUILD, WORKSPACE and MODULE.bazel files are Starlark, read for their targets; build configuration
    # rather than code (NOT_CODE), as a Makefile is
    "bazel": GrammarSpec("tree_sitter_starlark", "language", "starlark"),
    # Verilog is read by the SystemVerilog grammar, whose language holds it. A module's, an interface's and a
    # program's head (name, parameters, ports) is a node of its own, over its lines; a function's or a task's runs
    # through its ports
    "verilog": _VERILOG,
    "systemverilog": _VERILOG,
    # a function's or a procedure's head (name, parameters, return type) is a node of its own, over its lines
    "vhdl": GrammarSpec(
        "tree_sitter_vhdl",
        "language",
        "vhdl",
        signature_types=frozenset({"function_specification", "procedure_specification"}),
    ),
    # GLSL's grammar extends C's and HLSL's C++'s: their queries are added (glsl.scm, hlsl.scm). An HLSL `cbuffer`
    # with a register the rewrite leaves (rewrites/hlsl.py blanks `: register(b0)`) is read as a declaration and
    # then its block, which is its body
    "glsl": GrammarSpec("tree_sitter_glsl", "language", "glsl", extra_query="c"),
    "hlsl": GrammarSpec(
        "tree_sitter_hlsl", "language", "hlsl", extra_query="cpp", trailing_body=frozenset({"compound_statement"})
    ),
    "markdown": GrammarSpec("tree_sitter_markdown", "language", "markdown", open_ended=frozenset({"setext_heading"})),
    "vue": _COMPONENT,
    "svelte": _COMPONENT,
    "astro": _COMPONENT,
}

# Lower-case file suffix -> language. Languages not in GRAMMARS are labels only (indexed as windows).
EXTENSIONS: dict[str, str] = {
    # parsed
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    # .h is C unless its content looks like C++ (CONTENT_HINTS)
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".h++": "cpp",
    ".ipp": "cpp",
    ".inl": "cpp",
    ".tpp": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".ru": "ruby",
    ".php": "php",
    ".phtml": "php",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".ksh": "bash",
    ".bats": "bash",
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".mkd": "markdown",
    ".mdx": "markdown",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".scala": "scala",
    ".sc": "scala",
    ".swift": "swift",
    ".ex": "elixir",
    ".exs": "elixir",
    ".lua": "lua",
    ".zig": "zig",
    ".hs": "haskell",
    ".dart": "dart",
    ".m": "objective-c",
    ".pl": "perl",
    ".pm": "perl",
    ".ps1": "powershell",
    ".psm1": "powershell",
    ".vue": "vue",
    ".svelte": "svelte",
    ".astro": "astro",
    ".jl": "julia",
    ".ml": "ocaml",
    ".mli": "ocaml-interface",
    ".fs": "fsharp",
    ".fsx": "fsharp",
    ".groovy": "groovy",
    ".gvy": "groovy",
    ".gradle": "groovy",
    ".sol": "solidity",
    ".sbt": "scala",  # sbt build definitions are Scala
    ".ino": "cpp",  # Arduino sketches are C++
    ".metal": "cpp",  # Metal shading language is C++ with attributes
    ".hsc": "haskell",  # Haskell with hsc2hs directives
    # free-form Fortran (fixed-form .f and .for, with their column rules, stay windows)
    ".f90": "fortran",
    ".f95": "fortran",
    ".f03": "fortran",
    ".f08": "fortran",
    ".cu": "cuda",
    ".cuh": "cuda",
    ".vb": "vb",
    ".pas": "pascal",
    ".pp": "puppet",  # or a Free Pascal unit (CONTENT_HINTS)
    ".dpr": "pascal",
    ".dpk": "pascal",
    ".lpr": "pascal",
    ".adb": "ada",
    ".ads": "ada",
    ".gd": "gdscript",
    ".luau": "luau",
    ".bzl": "starlark",
    ".star": "starlark",
    ".v": "verilog",
    ".vh": "verilog",
    ".sv": "systemverilog",
    ".svh": "systemverilog",
    ".vhd": "vhdl",
    ".vhdl": "vhdl",
    ".glsl": "glsl",
    ".vert": "glsl",
    ".frag": "glsl",
    ".geom": "glsl",
    ".comp": "glsl",
    ".tesc": "glsl",
    ".tese": "glsl",
    ".hlsl": "hlsl",
    ".hlsli": "hlsl",
    # labels only
    ".txt": "text",
    ".text": "text",
    ".log": "text",
    ".rst": "rst",
    ".adoc": "asciidoc",
    ".org": "org",
    ".tex": "latex",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".jsonc": "json",
    ".json5": "json",
    ".ndjson": "json",
    ".cfg": "ini",
    ".ini": "ini",
    ".conf": "conf",
    ".properties": "properties",
    ".env": "dotenv",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".xml": "xml",
    ".svg": "xml",
    ".xsl": "xml",
    ".css": "css",
    ".scss": "scss",
    ".sass": "sass",
    ".less": "less",
    ".sql": "sql",
    ".graphql": "graphql",
    ".gql": "graphql",
    ".proto": "protobuf",
    ".csv": "csv",
    ".tsv": "tsv",
    ".r": "r",
    ".erl": "erlang",
    ".hrl": "erlang",
    ".clj": "clojure",
    ".cljs": "clojure",
    ".cljc": "clojure",
    ".nim": "nim",
    ".mm": "objective-cpp",
    ".pyx": "cython",
    ".pxd": "cython",
    ".pxi": "cython",
    ".coffee": "coffeescript",
    ".el": "emacs-lisp",
    ".lisp": "common-lisp",
    ".lsp": "common-lisp",
    ".asd": "common-lisp",
    ".rkt": "racket",
    ".cr": "crystal",
    ".elm": "elm",
    ".hx": "haxe",
    ".tcl": "tcl",
    ".gleam": "gleam",
    ".purs": "purescript",
    ".res": "rescript",
    ".vbs": "vbscript",
    ".bat": "batch",
    ".cmd": "batch",
    ".fish": "fish",
    ".tf": "terraform",
    ".hcl": "hcl",
    ".nix": "nix",
    ".cmake": "cmake",
    ".mk": "make",
    ".f": "fortran-fixed",
    ".for": "fortran-fixed",
    ".f77": "fortran-fixed",
    ".dockerfile": "dockerfile",
    ".bazel": "bazel",  # BUILD.bazel, WORKSPACE.bazel, MODULE.bazel
    # a notebook is read as its code (notebooks.py): Python, or Julia by its code's first line, unless it is still
    # JSON (another kernel's)
    ".ipynb": "python",
    ".lock": "text",
}

# Exact file names, as written -> language: Bazel's ``BUILD`` (a ``build`` script is not one); checked first
CASED_FILENAMES: dict[str, str] = {"BUILD": "bazel", "WORKSPACE": "bazel"}

# Exact file names (lower-cased) -> language; checked before the suffix.
FILENAMES: dict[str, str] = {
    "makefile": "make",
    "gnumakefile": "make",
    "dockerfile": "dockerfile",
    "containerfile": "dockerfile",
    "cmakelists.txt": "cmake",
    "rakefile": "ruby",
    "gemfile": "ruby",
    "guardfile": "ruby",
    "vagrantfile": "ruby",
    "podfile": "ruby",
    "brewfile": "ruby",
    "jenkinsfile": "groovy",
    ".bashrc": "bash",
    ".bash_profile": "bash",
    ".profile": "bash",
    ".zshrc": "bash",
    ".zprofile": "bash",
    "pkgbuild": "bash",
    "license": "text",
    "licence": "text",
    "copying": "text",
    "authors": "text",
    "readme": "text",
    "changelog": "text",
    "notice": "text",
    ".gitignore": "gitignore",
    ".dockerignore": "gitignore",
    ".spyglassignore": "gitignore",
    ".gitattributes": "gitattributes",
    ".editorconfig": "ini",
}

# Interpreter named on a "#!" line -> language, for extensionless scripts.
INTERPRETERS: dict[str, str] = {
    "python": "python",
    "python2": "python",
    "python3": "python",
    "sh": "bash",
    "bash": "bash",
    "zsh": "bash",
    "ksh": "bash",
    "dash": "bash",
    "node": "javascript",
    "nodejs": "javascript",
    "deno": "typescript",
    "ts-node": "typescript",
    "ruby": "ruby",
    "php": "php",
    "perl": "perl",
    "lua": "lua",
    "elixir": "elixir",
    "runhaskell": "haskell",
    "runghc": "haskell",
    "scala": "scala",
    "swift": "swift",
    "dart": "dart",
    "kotlin": "kotlin",
    "julia": "julia",
    "ocaml": "ocaml",
    "groovy": "groovy",
}

# Suffix -> [(pattern, language)]: the first pattern found in a file's first bytes overrides the suffix.
CONTENT_HINTS: dict[str, list[tuple[re.Pattern[bytes], str]]] = {
    ".h": [
        (re.compile(rb"(?m)^[ \t]*(?:@(?:interface|protocol|class)\b|#import\b)"), "objective-c"),
        (
            re.compile(
                rb"(?m)^[ \t]*(?:namespace\s+\w+\s*\{|template\s*<|using\s+namespace\b"
                rb"|class\s+\w+[^;\n]*\{|(?:public|private|protected)\s*:)|\bstd::\w"
            ),
            "cpp",
        ),
    ],
    # .m is Objective-C, or MATLAB/Octave (`function y = f(x)`, `%` comments)
    ".m": [
        (re.compile(rb"(?m)^[ \t]*(?:@(?:interface|implementation|protocol)\b|#(?:import|include)\b)"), "objective-c"),
        (re.compile(rb"(?m)^[ \t]*(?:function\b|classdef\b|%)"), "matlab"),
    ],
    # .fs is F#, or a GLSL fragment shader: an F# file says `namespace`, `module` or `open` at a line's start (it
    # may hold a shader in a string); a shader declares its inputs and outputs (`uniform sampler2D tex;`,
    # `in vec2 uv;`) or says `#version 330` or `void main(`
    ".fs": [
        (re.compile(rb"(?m)^(?:namespace|module|open)[ \t]+[A-Za-z_]"), "fsharp"),
        (
            re.compile(
                rb"(?m)^[ \t]*(?:#version[ \t]+\d|void[ \t]+main[ \t]*\("
                rb"|(?:layout[ \t]*\([^)\n]*\)[ \t]*)?(?:uniform|varying|attribute|in|out)"
                rb"[ \t]+\w+[ \t]+\w+[ \t]*(?:\[[^\]\n]*\][ \t]*)?;)"
            ),
            "glsl",
        ),
    ],
    # a shader named by its stage (.vert, .frag, ...) is GLSL, or HLSL compiled for Vulkan by DXC (Sascha Willems's
    # samples): HLSL binds by semantics and registers (`: SV_Target`, `register(b0)`, `[[vk::binding(0)]]`)
    **dict.fromkeys(
        (".vert", ".frag", ".geom", ".comp", ".tesc", ".tese"),
        [(re.compile(rb"(?m)\bSV_[A-Za-z]|:[ \t]*register[ \t]*\(|\[\[vk::|^[ \t]*[ct]buffer[ \t]+\w"), "hlsl")],
    ),
    # .pp is a Puppet manifest, or a Free Pascal unit or program (`unit Geometry;`)
    ".pp": [
        (re.compile(rb"(?im)^[ \t]*(?:unit|program|library)[ \t]+[\w.]+[ \t]*(?:\([^)\r\n]*\)[ \t]*)?;"), "pascal")
    ],
    # .v is Verilog (a module ends with `endmodule`), a Coq proof script (`Require Import`, `Theorem`, `Proof.`) or
    # V (`fn main() {`, `pub fn`, `import os` with no `::`)
    ".v": [
        (re.compile(rb"(?m)^[ \t]*endmodule\b"), "verilog"),
        (
            re.compile(
                rb"(?m)^[ \t]*(?:(?:From[ \t]+\S+[ \t]+)?Require[ \t]+(?:Import|Export)\b"
                rb"|(?:Theorem|Lemma|Inductive|Fixpoint)[ \t]+\w|Proof\.)"
            ),
            "coq",
        ),
        (re.compile(rb"(?m)^(?:(?:pub[ \t]+)?fn[ \t]+\w|import[ \t]+[\w.]+[ \t]*(?=\r?\n))"), "vlang"),
    ],
    # .star is Starlark, or a STAR data file (crystallography's, RELION's): `data_` blocks
    ".star": [(re.compile(rb"(?m)^data_\w*[ \t]*(?=\r?\n)"), "text")],
    # a notebook is read as its code (notebooks.py), whose first line (the JSON's "{") is empty, or "#" in a Julia
    # notebook's; one that starts otherwise is a notebook that could not be read so (another kernel's), still JSON
    ".ipynb": [(re.compile(rb"\A#(?:\r?\n|\Z)"), "julia"), (re.compile(rb"\A[^\r\n]"), "json")],
}
HINT_BYTES = 100_000

# Other names for languages (LSP language IDs, short names) -> the names used here.
ALIASES: dict[str, str] = {
    "py": "python",
    "python3": "python",
    "js": "javascript",
    "javascriptreact": "javascript",
    "jsx": "javascript",
    "ts": "typescript",
    "typescriptreact": "tsx",
    "golang": "go",
    "rs": "rust",
    "c_sharp": "csharp",
    "cs": "csharp",
    "c#": "csharp",
    "c++": "cpp",
    "cxx": "cpp",
    "rb": "ruby",
    "sh": "bash",
    "shell": "bash",
    "shellscript": "bash",
    "zsh": "bash",
    "md": "markdown",
    "kt": "kotlin",
    "kts": "kotlin",
    "ex": "elixir",
    "exs": "elixir",
    "hs": "haskell",
    "jl": "julia",
    "ml": "ocaml",
    "f#": "fsharp",
    "fs": "fsharp",
    "sol": "solidity",
    "cu": "cuda",
    "cuda-cpp": "cuda",  # VS Code's
    "plaintext": "text",
    "txt": "text",
    "yml": "yaml",
}

_SHEBANG_RE = re.compile(rb"^#!\s*(\S+)(?:[ \t]+(\S+))?")


# a licence's file: named so in capitals, it is text whatever its suffix (a `README.ipynb` is a notebook)
LICENCE_NAMES = frozenset({"license", "licence", "copying"})


def language_for_path(rel_path: str) -> str | None:
    """The language of a file by its name, or None for plain text of no known kind."""
    written = PurePosixPath(rel_path.replace("\\", "/")).name
    lang = CASED_FILENAMES.get(written)
    if lang is not None:
        return lang
    name = written.lower()
    lang = FILENAMES.get(name)
    if lang is not None:
        return lang
    dot = name.rfind(".")
    if dot <= 0:  # no suffix, or a dotfile like ".envrc"
        return EXTENSIONS.get(name) if dot == 0 else None
    lang = EXTENSIONS.get(name[dot:])
    stem = written.split(".", 1)[0]
    if stem.isupper() and stem.lower() in LICENCE_NAMES and is_code(lang):
        return "text"  # a licence's variant named by a suffix (`COPYING.CC`, Creative Commons), not C++
    return lang


def canonical_language(name: str) -> str:
    """The registry's name for a language given by another name ("typescriptreact" -> "tsx")."""
    key = name.strip().lower()
    return ALIASES.get(key, key)


# Every language a span can be labelled with ("text" for files of no known kind): the vocabulary of the
# language filters of every front end.
LANGUAGES: frozenset[str] = frozenset(
    {
        *GRAMMARS,
        *EXTENSIONS.values(),
        *FILENAMES.values(),
        *CASED_FILENAMES.values(),
        *INTERPRETERS.values(),
        *(language for hints in CONTENT_HINTS.values() for _, language in hints),
        "text",
    }
)


def known_language(name: str) -> str | None:
    """The registry's name for ``name`` in any case or alias ("Python", "py" -> "python"), or None if no
    file can have that language."""
    language = canonical_language(name)
    return language if language in LANGUAGES else None


def language_for(rel_path: str, data: bytes | None = None) -> str | None:
    """The language of a file by its name, refined by its content when given: a ``#!`` line names
    the language of an extensionless script, and a C++-looking ``.h`` file is C++."""
    language = language_for_path(rel_path)
    if data is None:
        return language
    if language is None or (language == "bazel" and data.startswith(b"#!")):  # a script named BUILD
        if data.startswith(b"#!"):
            end = data.find(b"\n", 0, 256)
            return language_for_shebang(data[: end if end >= 0 else 256])
        return None
    suffix = PurePosixPath(rel_path).suffix.lower()
    for pattern, hinted in CONTENT_HINTS.get(suffix, ()):
        if pattern.search(data, 0, HINT_BYTES):
            return hinted
    return language


def language_for_shebang(first_line: bytes) -> str | None:
    """The language named by a ``#!`` line (``#!/usr/bin/env python3`` -> "python"), or None."""
    m = _SHEBANG_RE.match(first_line)
    if not m:
        return None
    prog = m[1].rsplit(b"/", 1)[-1]
    if prog == b"env" and m[2]:
        prog = m[2]
    word = prog.decode("ascii", "replace")
    lang = INTERPRETERS.get(word)
    if lang is None:  # python3.11, ruby2.7
        lang = INTERPRETERS.get(word.rstrip("0123456789.") or word)
    return lang


def has_grammar(language: str | None) -> bool:
    return language in GRAMMARS


def syntax_of(language: str) -> str:
    """The language whose syntax a file of ``language`` holds its code in: the name of its grammar's query
    ("typescript" for TSX and for a Vue, Svelte or Astro component's scripts), else ``language`` itself."""
    spec = GRAMMARS.get(language)
    return spec.query if spec is not None else language


# Parsed, but not code: text for people (Markdown's sections) or build configuration (Bazel's targets)
NOT_CODE = frozenset({"markdown", "bazel"})
# Programming languages without a grammar here: indexed as windows, but code all the same
CODE_WITHOUT_GRAMMAR = frozenset(
    {
        "r",
        "erlang",
        "clojure",
        "nim",
        "objective-cpp",
        "fortran-fixed",
        "cython",
        "coffeescript",
        "emacs-lisp",
        "common-lisp",
        "racket",
        "crystal",
        "elm",
        "haxe",
        "tcl",
        "gleam",
        "purescript",
        "rescript",
        "vbscript",
        "coq",
        "vlang",
    }
)


def is_code(language: str | None) -> bool:
    """A programming language: not prose, config, data, markup or an unknown text type."""
    return (has_grammar(language) and language not in NOT_CODE) or language in CODE_WITHOUT_GRAMMAR


_cache: dict[str, tuple[Language, Query] | None] = {}
_lock = threading.Lock()


def grammar_for(language: str | None) -> tuple[Language, Query] | None:
    """The loaded grammar and compiled definitions query for ``language``; None if it has none.

    Thread-safe; each language is loaded at most once per process, failures included.
    """
    if language is None:
        return None
    try:
        return _cache[language]
    except KeyError:
        pass
    with _lock:
        if language not in _cache:
            _cache[language] = _load(language)
        return _cache[language]


def _load(language: str) -> tuple[Language, Query] | None:
    spec = GRAMMARS.get(language)
    if spec is None:
        return None
    try:
        module = importlib.import_module(spec.module)
        with warnings.catch_warnings():  # tree-sitter-perl still hands over its language as an int, not a capsule
            warnings.simplefilter("ignore", DeprecationWarning)
            lang = Language(getattr(module, spec.function)())
    except Exception as e:  # any failure means "no grammar"
        log.warning(
            "tree-sitter grammar for %s unavailable (%s: %s); indexing it as windows", language, type(e).__name__, e
        )
        return None
    try:
        source = "\n".join(
            (QUERY_DIR / f"{name}.scm").read_text(encoding="utf-8") for name in (spec.query, spec.extra_query) if name
        )
        query = Query(lang, source)
    except Exception as e:
        log.warning("definitions query for %s unusable (%s: %s); indexing it as windows", language, type(e).__name__, e)
        return None
    return lang, query


def spec_for(language: str | None) -> GrammarSpec | None:
    return GRAMMARS.get(language) if language is not None else None
