"""The parsing layer: bytes -> spans, per language, with windows for everything else."""

from __future__ import annotations

import functools
import logging
import re
import threading
from pathlib import Path

import pytest

from spyglass.engine import languages, parsing
from spyglass.engine.context import file_imports
from spyglass.engine.declarations import is_declaration
from spyglass.engine.languages import GrammarSpec, grammar_for, language_for, language_for_path
from spyglass.engine.notebooks import code_view
from spyglass.engine.parsing import ParseResult, parse_spans, split_lines
from spyglass.engine.rewrites import blank_macros, rewritten
from spyglass.engine.settings import Settings
from spyglass.engine.spans import KINDS, Span
from spyglass.engine.uses import code_use_lines

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "polyglot"
ALL_FIXTURES = sorted(p.name for p in FIXTURES.iterdir() if p.is_file())
_LINE_RE = re.compile(rb"\r\n|\r|\n")


@functools.cache
def parsed(name: str) -> ParseResult:
    return parse_spans(f"src/{name}", (FIXTURES / name).read_bytes())


def find(name: str, qualname: str, kind: str | None = None) -> Span:
    hits = [s for s in parsed(name).spans if s.qualname == qualname and (kind is None or s.kind == kind)]
    assert hits, f"{qualname} not in {name}: {[(s.kind, s.qualname) for s in parsed(name).spans]}"
    return hits[0]


def editor_lines(data: bytes) -> list[bytes]:
    """Lines as an editor shows them (\\n, \\r\\n or lone \\r end a line)."""
    lines = _LINE_RE.split(data)
    if len(lines) > 1 and lines[-1] == b"":
        lines.pop()
    return lines if data else []


# --- languages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("a/b/mod.py", "python"),
        ("x.PYI", "python"),
        ("app.jsx", "javascript"),
        ("m.mjs", "javascript"),
        ("api.ts", "typescript"),
        ("Button.tsx", "tsx"),
        ("TodoList.vue", "vue"),
        ("Counter.svelte", "svelte"),
        ("Card.astro", "astro"),
        ("readings.ipynb", "python"),  # read as its code (notebooks.py)
        ("Downloader.m", "objective-c"),
        ("Downloader.mm", "objective-cpp"),
        ("Rotate.pm", "perl"),
        ("rotate.pl", "perl"),
        ("Deploy.ps1", "powershell"),
        ("Deploy.psm1", "powershell"),
        ("main.go", "go"),
        ("lib.rs", "rust"),
        ("A.java", "java"),
        ("ring.c", "c"),
        ("ring.h", "c"),
        ("m.hpp", "cpp"),
        ("m.cc", "cpp"),
        ("A.cs", "csharp"),
        ("g.rb", "ruby"),
        ("Rakefile", "ruby"),
        ("c.php", "php"),
        ("d.sh", "bash"),
        (".bashrc", "bash"),
        ("README.md", "markdown"),
        ("notes.txt", "text"),
        ("pyproject.toml", "toml"),
        ("c.yml", "yaml"),
        ("d.json", "json"),
        ("setup.cfg", "ini"),
        ("i.html", "html"),
        ("s.css", "css"),
        ("q.sql", "sql"),
        ("Makefile", "make"),
        ("Dockerfile", "dockerfile"),
        ("Orders.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
        ("Ledger.scala", "scala"),
        ("worksheet.sc", "scala"),
        ("Playlist.swift", "swift"),
        ("stack.ex", "elixir"),
        ("mix.exs", "elixir"),
        ("init.lua", "lua"),
        ("build.zig", "zig"),
        ("Shapes.hs", "haskell"),
        ("todo.dart", "dart"),
        ("Kalman.jl", "julia"),
        ("ledger.ml", "ocaml"),
        ("ledger.mli", "ocaml-interface"),
        ("Routing.fs", "fsharp"),
        ("build.fsx", "fsharp"),
        ("Retry.groovy", "groovy"),
        ("build.gradle", "groovy"),
        ("Jenkinsfile", "groovy"),
        ("Vault.sol", "solidity"),
        ("geometry.f90", "fortran"),
        ("GEOMETRY.F90", "fortran"),
        ("Basket.vb", "vb"),
        ("Stacks.pas", "pascal"),
        ("Shop.dpr", "pascal"),
        ("Shop.lpr", "pascal"),
        ("queues.ads", "ada"),
        ("queues.adb", "ada"),
        ("legacy.f", "fortran-fixed"),  # fixed form: windows
        ("softmax.cu", "cuda"),
        ("softmax.cuh", "cuda"),
        ("blur.frag", "glsl"),
        ("spawner.gd", "gdscript"),
        ("signal.luau", "luau"),
        ("packaging.bzl", "starlark"),
        ("BUILD.bazel", "bazel"),
        ("BUILD", "bazel"),
        ("WORKSPACE", "bazel"),
        ("MODULE.bazel", "bazel"),
        ("Tiltfile.star", "starlark"),
        ("uart_tx.sv", "systemverilog"),
        ("uvm_macros.svh", "systemverilog"),
        ("counter.v", "verilog"),
        ("defines.vh", "verilog"),
        ("fifo.vhd", "vhdl"),
        ("fifo.VHDL", "vhdl"),
        ("lighting.vert", "glsl"),
        ("noise.comp", "glsl"),
        ("common.glsl", "glsl"),
        ("tonemap.hlsl", "hlsl"),
        ("ColorSpace.hlsli", "hlsl"),
        ("x.unknownext", None),
        ("noext", None),
        ("weird.", None),
    ],
)
def test_language_for_path(path: str, language: str | None) -> None:
    assert language_for_path(path) == language


def test_language_from_content() -> None:
    assert language_for("bin/tool", b"#!/usr/bin/env python3\nprint(1)\n") == "python"
    assert language_for("bin/run", b"#!/bin/bash\necho hi\n") == "bash"
    assert language_for("bin/data", b"just text\n") is None
    assert language_for("x.h", b"#pragma once\nint f(void);\n") == "c"
    assert language_for("x.h", b"#pragma once\nnamespace a {\nclass B {};\n}\n") == "cpp"
    assert language_for("x.h", b"#import <Foundation/Foundation.h>\n@interface A : NSObject\n@end\n") == "objective-c"
    assert language_for("x.h", b"/* @interface in a comment */\nint f(void);\n") == "c"
    assert language_for("solve.m", b"% Solve it.\nfunction x = solve(A, b)\n  x = A \\ b;\nend\n") == "matlab"
    # .pp: a Free Pascal unit, program or library, else a Puppet manifest
    assert language_for("rtl/sysutils.pp", b"{ License. }\nunit SysUtils;\n\ninterface\n") == "pascal"
    assert language_for("manifests/init.pp", b"class ntp {\n  package { 'ntp': ensure => installed }\n}\n") == "puppet"
    assert (
        language_for("AppDelegate.m", b'#import "AppDelegate.h"\n@implementation AppDelegate\n@end\n') == "objective-c"
    )
    assert languages.is_code("matlab") and languages.has_grammar("matlab")
    shader = (
        b"#version 330 core\nin vec2 uv;\nout vec4 color;\nuniform sampler2D tex;\nvoid main() { color = vec4(1); }\n"
    )
    assert language_for("blur.fs", shader) == "glsl"  # a fragment shader, not F#
    assert language_for("Routing.fs", (FIXTURES / "Routing.fs").read_bytes()) == "fsharp"
    assert languages.is_code("glsl") and languages.is_code("fortran-fixed") and languages.has_grammar("glsl")
    # an F# file says namespace, module or open at a line's start, also when it holds a shader in a string
    render = (
        b'module Render\n\nlet src = """\n#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1); }\n"""\n'
    )
    assert language_for("Render.fs", render) == "fsharp"
    assert language_for("Stats.fs", b"(*\n   uniform random sampling helpers\n*)\nlet sample () = 1\n") == "fsharp"
    assert language_for("old.fs", b"precision mediump float;\nvarying vec2 vUv;\nuniform sampler2D t;\n") == "glsl"
    assert languages.known_language("MATLAB") == "matlab"  # a language filter takes what a hint labels
    r = parse_spans("scripts/release", b"#!/usr/bin/env python3\ndef main():\n    pass\n")
    assert r.language == "python" and find_in(r, "main").kind == "function"


def find_in(r: ParseResult, qualname: str) -> Span:
    return next(s for s in r.spans if s.qualname == qualname)


@pytest.mark.parametrize("language", sorted(languages.GRAMMARS))
def test_every_grammar_and_query_loads(language: str) -> None:
    assert grammar_for(language) is not None
    assert grammar_for(language) is grammar_for(language)  # cached


NEW_LANGUAGES = ["kotlin", "scala", "swift", "elixir", "lua", "zig", "haskell", "dart"]


@pytest.mark.parametrize("language", NEW_LANGUAGES)
def test_languages_parsed_since_issue_20_have_grammars_and_names(language: str) -> None:
    assert language in languages.GRAMMARS and languages.is_code(language)
    assert languages.known_language(language.capitalize()) == language


def test_language_aliases() -> None:
    assert [languages.canonical_language(a) for a in ("kt", "KTS", "ex", "exs", "hs")] == [
        "kotlin",
        "kotlin",
        "elixir",
        "elixir",
        "haskell",
    ]
    assert language_for("bin/task", b"#!/usr/bin/env elixir\nIO.puts(1)\n") == "elixir"
    assert language_for("bin/tool", b"#!/usr/bin/env runghc\nmain = pure ()\n") == "haskell"


def test_labels_without_grammar() -> None:
    assert grammar_for("toml") is None and grammar_for(None) is None


@pytest.mark.parametrize(
    ("path", "language", "code"),
    [
        # code with no grammar here: windows, ranked as code (they were unlabelled, ranked as prose)
        ("aiohttp/_http_parser.pyx", "cython", True),
        ("src/_cparser.pxd", "cython", True),
        ("app/models.coffee", "coffeescript", True),
        ("src/app/core.cljs", "clojure", True),
        ("include/records.hrl", "erlang", True),
        ("lisp/init.el", "emacs-lisp", True),
        ("src/package.lisp", "common-lisp", True),
        ("src/Main.elm", "elm", True),
        # files in a parsed language under another suffix
        ("build.sbt", "scala", True),
        ("Blink/Blink.ino", "cpp", True),
        ("Shaders.metal", "cpp", True),
        ("Network/Socket/Types.hsc", "haskell", True),
        ("docs/guide.mdx", "markdown", False),
        # Bazel: rules in .bzl are code, BUILD files are build configuration (as a Makefile is)
        ("python/private/py_library.bzl", "starlark", True),
        ("absl/strings/BUILD.bazel", "bazel", False),
        ("absl/strings/BUILD", "bazel", False),
        ("WORKSPACE", "bazel", False),
        ("tools/build", None, False),  # a script named build is not Bazel's
    ],
)
def test_code_files_that_were_prose(path: str, language: str | None, code: bool) -> None:
    assert language_for_path(path) == language
    assert languages.is_code(language) is code


def test_suffixes_told_apart_by_content() -> None:
    assert language_for("tools/build", b"#!/bin/sh\nmake all\n") == "bash"
    assert language_for("src/geometry.pp", b"{ Shapes. }\nunit Geometry;\n\ninterface\n") == "pascal"
    assert language_for("src/ide.lpr", b"program ide;\nbegin\nend.\n") == "pascal"
    assert language_for("manifests/init.pp", b"class nginx (\n  String $version,\n) {\n}\n") == "puppet"
    assert not languages.is_code("puppet")
    verilog = b"module counter (input clk, output reg [3:0] q);\n  always @(posedge clk) q <= q + 1;\nendmodule\n"
    assert language_for("rtl/counter.v", verilog) == "verilog"
    coq = b"Require Import Arith.\n\nTheorem plus_O_n : forall n : nat, 0 + n = n.\nProof.\n  reflexivity.\nQed.\n"
    assert language_for("theories/Plus.v", coq) == "coq" and languages.is_code("coq")
    vlang = b"module main\n\nimport os\n\nfn main() {\n\tprintln(os.args)\n}\n"
    assert language_for("main.v", vlang) == "vlang" and languages.is_code("vlang")
    header = b"`timescale 1ns/1ps\nmodule fifo #(parameter W = 8) (\n  input clk\n);\nendmodule\n"
    assert language_for("rtl/fifo.v", header) == "verilog"
    # Verilog's module names on a line of their own, a package import: not V (the second reader's verilog-ethernet)
    assert language_for("rtl/top.v", b"module top\n  (input clk);\nendmodule\n") == "verilog"
    assert language_for("rtl/a.v", b"import bus_pkg::*;\nmodule a;\nendmodule\n") == "verilog"
    assert language_for("hello.pp", b"Program Hello (output);\nbegin\nend.\n") == "pascal"
    assert language_for("BUILD", b"#!/bin/bash\nmake\n") == "bash"  # a script named BUILD
    assert language_for("BUILD", b'cc_library(name = "a")\n') == "bazel"
    assert language_for_path("workspace") is None  # only Bazel's WORKSPACE
    assert language_for("run_data.star", b"\ndata_optics\n\nloop_\n_rlnVoltage #1\n") == "text"  # STAR data
    # a licence's variant named by a code suffix is text; a code file named after licences is code
    assert language_for_path("vendor/riscv-arch-tests/COPYING.CC") == "text"
    assert language_for_path("LICENSE.md") == "markdown" and language_for_path("internal/license.go") == "go"
    assert language_for_path("README.ipynb") == "python"  # a notebook, whatever its name


def test_the_second_readers_vb_pascal_and_lua_cases() -> None:
    # VB: an attribute line ending in a line continuation; the member below is signed by its own line
    src = b"Public Interface ICalc\n    <OperationContract()> _\n    Function Add(ByVal a As Double) As Double\n"
    src += b"End Interface\n"
    add = find_in(parse_spans("a.vb", src), "ICalc.Add")
    assert add.signature == "Function Add(ByVal a As Double) As Double" and is_declaration("vb", add.kind, add.text)
    # Pascal: a string that starts with a quote written twice, then two routines the grammar's error took
    pas = b"unit U;\ninterface\nimplementation\n\nprocedure A;\nbegin\n  if S = \x27\x27\x27\x27 then X := 1;\nend;\n\n"
    pas += b"procedure B;\nbegin\nend;\n\nprocedure C;\nbegin\nend;\n\nend.\n"
    r = parse_spans("q.pas", pas)
    assert [(s.qualname, s.start_line, s.end_line) for s in r.spans[1:]] == [("A", 5, 8), ("B", 10, 12), ("C", 14, 16)]
    assert len(rewritten("pascal", pas)) == len(pas) and not r.had_errors
    # Pascal: generic methods, declared and implemented
    gen = b"unit U;\ninterface\ntype\n  TMaker = class\n    class function Make<T: class>(const X: T): T; static;\n"
    gen += b"  end;\nimplementation\n\nclass function TMaker.Make<T>(const X: T): T;\n"
    gen += b"begin\n  Result := X;\nend;\n\nend.\n"
    made = [(s.kind, s.qualname, s.start_line) for s in parse_spans("g.pas", gen).spans if s.qualname.endswith("Make")]
    assert made == [("method", "TMaker.Make", 5), ("function", "TMaker.Make", 9)]
    # Lua: a long comment closed by --]] has no -- in its doc
    lua = b"--[[\n  Adds two numbers.\n--]]\nlocal function add(a, b)\n  return a + b\nend\n"
    assert find_in(parse_spans("a.lua", lua), "add").doc == "Adds two numbers."


def test_broken_grammar_logs_once_and_falls_back_to_windows(monkeypatch, caplog) -> None:
    monkeypatch.setattr(languages, "_cache", {})
    monkeypatch.setitem(languages.GRAMMARS, "nolang", GrammarSpec("no_such_grammar_module", "language", "x"))
    with caplog.at_level(logging.WARNING, logger="spyglass.engine.languages"):
        assert grammar_for("nolang") is None
        assert grammar_for("nolang") is None
        r = parse_spans("a.nolang", b"one\ntwo\n", language="nolang")
    assert len([rec for rec in caplog.records if "nolang" in rec.getMessage()]) == 1
    assert [(s.kind, s.language, s.start_line, s.end_line) for s in r.spans] == [("window", "nolang", 1, 2)]


def test_broken_query_falls_back(monkeypatch, caplog) -> None:
    monkeypatch.setattr(languages, "_cache", {})
    spec = GrammarSpec("tree_sitter_python", "language", "nonexistent")
    monkeypatch.setitem(languages.GRAMMARS, "badq", spec)
    with caplog.at_level(logging.WARNING, logger="spyglass.engine.languages"):
        r = parse_spans("a.py", b"def f():\n    pass\n", language="badq")
    assert [s.kind for s in r.spans] == ["window"] and "badq" in caplog.text


# --- definitions per language ------------------------------------------------------------------------

EXPECTED = [
    # python: class + methods + decorators + docstrings + nested function
    ("inventory.py", "module", "inventory", 1, 66),
    ("inventory.py", "function", "log_calls", 11, 20),
    ("inventory.py", "function", "log_calls.wrapper", 14, 17),
    ("inventory.py", "class", "Item", 23, 40),  # includes @dataclass
    ("inventory.py", "method", "Item.in_stock", 31, 34),  # includes @property
    ("inventory.py", "method", "Item.take", 37, 40),
    ("inventory.py", "class", "Warehouse", 43, 60),
    ("inventory.py", "method", "Warehouse.add", 50, 52),
    ("inventory.py", "method", "Warehouse.needs_reorder", 54, 60),
    ("cart.js", "module", "cart", 1, 37),
    ("cart.js", "function", "cartTotal", 10, 16),  # includes `export`
    ("cart.js", "function", "withTax", 19, 19),
    ("cart.js", "class", "Cart", 21, 34),
    ("cart.js", "method", "Cart.constructor", 22, 24),
    ("cart.js", "method", "Cart.add", 27, 29),
    ("cart.js", "method", "Cart.total", 31, 33),
    ("api.ts", "interface", "ClientOptions", 4, 7),
    ("api.ts", "type", "Method", 9, 9),
    ("api.ts", "enum", "Status", 11, 14),
    ("api.ts", "class", "ApiClient", 16, 30),  # includes @Injectable()
    ("api.ts", "method", "ApiClient.request", 25, 29),
    ("api.ts", "module", "Util", 32, 36),
    ("api.ts", "function", "Util.join", 33, 35),
    ("api.ts", "function", "retry", 38, 42),
    ("Button.tsx", "interface", "ButtonProps", 3, 6),
    ("Button.tsx", "function", "Button", 9, 15),
    ("Button.tsx", "function", "IconButton", 17, 19),
    ("server.go", "struct", "Server", 10, 13),
    ("server.go", "type", "Handler", 17, 17),
    ("server.go", "type", "ID", 18, 18),
    ("server.go", "interface", "Shape", 22, 24),
    ("server.go", "function", "NewServer", 27, 29),
    ("server.go", "method", "Server.ServeHTTP", 32, 35),
    ("server.go", "method", "Server.String", 37, 37),
    ("shapes.rs", "struct", "Point", 6, 10),  # includes #[derive]
    ("shapes.rs", "interface", "Area", 13, 19),
    ("shapes.rs", "method", "Area.describe", 16, 18),
    ("shapes.rs", "enum", "Shape", 21, 24),
    ("shapes.rs", "class", "Point", 26, 35),  # impl Point
    ("shapes.rs", "method", "Point.origin", 28, 30),
    ("shapes.rs", "method", "Point.distance", 32, 34),
    ("shapes.rs", "class", "Shape", 37, 44),  # impl Area for Shape
    ("shapes.rs", "method", "Shape.area", 38, 43),
    ("shapes.rs", "method", "Point.fmt", 47, 49),  # impl fmt::Display for Point
    ("shapes.rs", "function", "main", 52, 54),
    ("Library.java", "class", "Library", 9, 29),
    ("Library.java", "method", "Library.add", 13, 15),
    ("Library.java", "method", "Library.toString", 17, 20),  # includes @Override
    ("Library.java", "class", "Library.Book", 22, 28),
    ("Library.java", "method", "Library.Book.Book", 25, 27),
    ("Library.java", "interface", "Lender", 31, 33),
    ("Library.java", "enum", "Genre", 35, 42),
    ("Library.java", "method", "Genre.label", 39, 41),
    ("ring.c", "struct", "ring", 7, 11),
    ("ring.c", "enum", "ring_status", 13, 13),
    ("ring.c", "function", "ring_new", 16, 21),
    ("ring.c", "function", "ring_push", 26, 33),
    ("matrix.cpp", "module", "linalg", 4, 42),
    ("matrix.cpp", "class", "linalg.Matrix", 7, 20),
    ("matrix.cpp", "method", "linalg.Matrix.Matrix", 9, 9),
    ("matrix.cpp", "method", "linalg.Matrix.at", 11, 13),
    ("matrix.cpp", "struct", "linalg.Shape2", 22, 25),
    ("matrix.cpp", "method", "linalg.Matrix.multiply", 28, 35),  # out-of-class definition
    ("matrix.cpp", "function", "linalg.square", 37, 40),  # includes template <>
    ("Accounts.cs", "module", "Bank.Accounts", 4, 35),
    ("Accounts.cs", "class", "Bank.Accounts.Account", 7, 22),
    ("Accounts.cs", "method", "Bank.Accounts.Account.Account", 11, 14),
    ("Accounts.cs", "method", "Bank.Accounts.Account.Deposit", 17, 21),  # includes [Obsolete]
    ("Accounts.cs", "interface", "Bank.Accounts.IAuditable", 24, 27),
    ("Accounts.cs", "struct", "Bank.Accounts.Money", 29, 32),
    ("Accounts.cs", "enum", "Bank.Accounts.Currency", 34, 34),
    ("greeter.rb", "module", "Greeting", 4, 29),
    ("greeter.rb", "class", "Greeting.Greeter", 6, 24),
    ("greeter.rb", "method", "Greeting.Greeter.initialize", 9, 11),
    ("greeter.rb", "method", "Greeting.Greeter.hello", 14, 19),
    ("greeter.rb", "method", "Greeting.Greeter.default", 21, 23),
    ("greeter.rb", "method", "Greeting.shout", 26, 28),
    ("greeter.rb", "function", "main", 31, 33),
    ("Cache.php", "interface", "Store", 8, 11),
    ("Cache.php", "method", "Store.get", 10, 10),
    ("Cache.php", "class", "Expires", 13, 16),
    ("Cache.php", "class", "ArrayStore", 21, 37),
    ("Cache.php", "method", "ArrayStore.get", 28, 31),
    ("Cache.php", "method", "ArrayStore.put", 33, 36),
    ("Cache.php", "function", "make_store", 40, 43),
    ("deploy.sh", "module", "deploy", 1, 17),
    ("deploy.sh", "function", "log", 7, 9),
    ("deploy.sh", "function", "build", 11, 14),
    ("guide.md", "module", "guide", 1, 22),
    ("guide.md", "section", "User Guide", 3, 22),
    ("guide.md", "section", "User Guide.Installation", 7, 13),  # ends at its last line of text
    ("guide.md", "section", "User Guide.Installation.Linux", 11, 13),
    ("guide.md", "section", "User Guide.Usage", 15, 22),
    ("guide.md", "section", "User Guide.Usage.Configuration", 19, 22),  # setext heading
    # kotlin: interface/enum keywords, object, companion object functions, extension function
    ("Orders.kt", "module", "Orders", 1, 67),
    ("Orders.kt", "class", "OrderLine", 7, 7),
    ("Orders.kt", "interface", "OrderRepository", 10, 13),
    ("Orders.kt", "method", "OrderRepository.find", 11, 11),
    ("Orders.kt", "enum", "OrderStatus", 15, 21),
    ("Orders.kt", "method", "OrderStatus.isFinal", 20, 20),
    ("Orders.kt", "class", "Order", 26, 43),
    ("Orders.kt", "method", "Order.total", 31, 33),
    ("Orders.kt", "method", "Order.addLine", 35, 38),
    ("Orders.kt", "method", "Order.empty", 41, 41),  # in the unnamed companion object
    ("Orders.kt", "class", "InMemoryOrders", 45, 53),  # object
    ("Orders.kt", "method", "InMemoryOrders.save", 50, 52),
    ("Orders.kt", "function", "formatCents", 56, 60),
    ("Orders.kt", "function", "Order.stamp", 62, 62),  # fun Order.stamp()
    ("Orders.kt", "function", "parseCents", 65, 67),  # a top-level @Throws(...) is in the span
    # scala: traits, case classes, objects (companion too), type members, Scala 3 enums
    ("Ledger.scala", "interface", "Balanced", 7, 11),
    ("Ledger.scala", "method", "Balanced.balance", 8, 8),  # abstract
    ("Ledger.scala", "class", "Entry", 14, 14),
    ("Ledger.scala", "interface", "Side", 16, 16),
    ("Ledger.scala", "class", "Debit", 17, 17),
    ("Ledger.scala", "class", "Account", 21, 31),
    ("Ledger.scala", "method", "Account.post", 25, 28),
    ("Ledger.scala", "class", "Account", 33, 39),  # companion object
    ("Ledger.scala", "method", "Account.opening", 34, 38),
    ("Ledger.scala", "type", "Ledger.Accounts", 42, 42),
    ("Ledger.scala", "method", "Ledger.transfer", 45, 48),
    ("Ledger.scala", "method", "Ledger.trialBalance", 50, 51),
    ("Ledger.scala", "enum", "Currency", 54, 57),
    ("Ledger.scala", "function", "formatAmount", 59, 60),
    # swift: protocol, struct, enum, class, init, extension
    ("Playlist.swift", "interface", "Playable", 5, 8),
    ("Playlist.swift", "method", "Playable.play", 7, 7),
    ("Playlist.swift", "struct", "Track", 11, 18),
    ("Playlist.swift", "method", "Track.play", 15, 17),
    ("Playlist.swift", "enum", "RepeatMode", 20, 33),
    ("Playlist.swift", "method", "RepeatMode.next", 26, 32),
    ("Playlist.swift", "class", "Playlist", 36, 52),
    ("Playlist.swift", "method", "Playlist.init", 40, 42),
    ("Playlist.swift", "method", "Playlist.totalDuration", 45, 47),
    ("Playlist.swift", "class", "Playlist", 54, 58),  # extension Playlist
    ("Playlist.swift", "method", "Playlist.longest", 55, 57),
    ("Playlist.swift", "function", "formatDuration", 61, 64),
    # elixir: modules, protocol + impl, def/defp/defmacro, clauses of one function merged
    ("stack.ex", "module", "stack", 1, 54),
    ("stack.ex", "module", "Collections.Stack", 1, 45),
    ("stack.ex", "interface", "Collections.Stack.Sized", 10, 13),
    ("stack.ex", "method", "Collections.Stack.Sized.size", 12, 12),
    ("stack.ex", "function", "Collections.Stack.new", 16, 16),
    ("stack.ex", "function", "Collections.Stack.push", 22, 24),
    ("stack.ex", "function", "Collections.Stack.pop", 27, 31),  # two clauses
    ("stack.ex", "function", "Collections.Stack.depth", 33, 33),  # defp
    ("stack.ex", "function", "Collections.Stack.with_stack", 35, 40),  # defmacro
    ("stack.ex", "class", "Collections.Stack.Sized", 42, 44),  # defimpl
    ("stack.ex", "module", "Collections.Queue", 47, 54),
    ("stack.ex", "function", "Collections.Queue.enqueue", 53, 53),
    # lua: M.f and M:f are methods of M, local functions, functions bound to names
    ("inventory.lua", "method", "Inventory.new", 6, 11),
    ("inventory.lua", "method", "Inventory.add", 14, 20),
    ("inventory.lua", "method", "Inventory.count", 22, 30),
    ("inventory.lua", "function", "weight_of", 32, 34),
    ("inventory.lua", "method", "Inventory.total_weight", 37, 43),
    ("inventory.lua", "function", "format_item", 45, 47),
    ("inventory.lua", "function", "describe", 49, 55),
    # zig: containers bound to names, a generic type (fn returning a struct), tests
    ("ring.zig", "type", "RingError", 5, 5),
    ("ring.zig", "enum", "End", 8, 18),
    ("ring.zig", "method", "End.opposite", 12, 17),
    ("ring.zig", "struct", "Ring", 21, 44),
    ("ring.zig", "method", "Ring.push", 30, 34),
    ("ring.zig", "method", "Ring.pop", 36, 42),
    ("ring.zig", "struct", "Point", 46, 54),
    ("ring.zig", "method", "Point.norm", 51, 53),
    ("ring.zig", "struct", "Value", 56, 59),  # union
    ("ring.zig", "function", "clamp", 61, 63),
    ("ring.zig", "function", "ring keeps order", 65, 69),  # test block
    # haskell: type signature + equations as one span, classes, instances, data types
    ("Shapes.hs", "module", "Shapes", 1, 53),
    ("Shapes.hs", "type", "Point", 13, 17),
    ("Shapes.hs", "type", "Shape", 20, 23),
    ("Shapes.hs", "type", "Name", 25, 25),
    ("Shapes.hs", "type", "Area", 27, 27),
    ("Shapes.hs", "interface", "HasArea", 30, 31),
    ("Shapes.hs", "method", "HasArea.area", 31, 31),
    ("Shapes.hs", "class", "Shape", 33, 35),  # instance HasArea Shape
    ("Shapes.hs", "method", "Shape.area", 34, 35),  # two equations
    ("Shapes.hs", "function", "perimeter", 38, 41),  # signature and two equations
    ("Shapes.hs", "function", "largest", 44, 46),
    ("Shapes.hs", "function", "describe", 48, 53),
    ("Shapes.hs", "function", "describe.kind", 51, 53),  # where binding
    # dart: the body beside the signature, annotations, getters, constructors, mixins, extensions
    ("todo.dart", "enum", "Priority", 5, 5),
    ("todo.dart", "class", "Completable", 8, 11),
    ("todo.dart", "method", "Completable.complete", 10, 10),  # abstract
    ("todo.dart", "class", "Task", 14, 28),
    ("todo.dart", "method", "Task.Task", 19, 19),  # constructor
    ("todo.dart", "method", "Task.done", 21, 22),  # @override getter
    ("todo.dart", "method", "Task.complete", 24, 27),
    ("todo.dart", "class", "Timestamps", 30, 35),  # mixin
    ("todo.dart", "method", "Timestamps.ageInDays", 34, 34),
    ("todo.dart", "class", "TodoList", 38, 52),
    ("todo.dart", "method", "TodoList.tasks", 41, 41),
    ("todo.dart", "method", "TodoList.pending", 49, 51),
    ("todo.dart", "class", "TaskSummary", 54, 56),  # extension
    ("todo.dart", "method", "TaskSummary.summary", 55, 55),
    ("todo.dart", "function", "parseTask", 59, 64),
    # objective-c: protocols, @interface and @implementation (both named after the class), methods by their
    # selector's first keyword (a declaration in the @interface, the definition in the @implementation)
    ("Downloader.m", "interface", "DownloaderDelegate", 7, 9),
    ("Downloader.m", "method", "DownloaderDelegate.downloader", 8, 8),
    ("Downloader.m", "class", "Downloader", 11, 14),
    ("Downloader.m", "method", "Downloader.initWithBaseURL", 13, 13),
    ("Downloader.m", "function", "PercentEscaped", 18, 20),
    ("Downloader.m", "class", "Downloader", 22, 43),
    ("Downloader.m", "method", "Downloader.initWithBaseURL", 27, 34),
    ("Downloader.m", "method", "Downloader.fetchPath", 37, 41),
    # perl: subroutines; a package written as a block holds its subroutines, a package statement does not
    ("Rotate.pm", "function", "rotate", 8, 15),
    ("Rotate.pm", "function", "_age_in_days", 17, 17),
    ("Rotate.pm", "class", "Log.Rotate.Policy", 19, 24),
    ("Rotate.pm", "method", "Log.Rotate.Policy.new", 20, 23),
    # powershell: functions (with comment-based help above), classes and their methods
    ("Deploy.ps1", "function", "Publish-Build", 5, 11),
    ("Deploy.ps1", "function", "Remove-OldBuild", 14, 16),
    ("Deploy.ps1", "class", "BuildInfo", 18, 21),
    ("Deploy.ps1", "method", "BuildInfo.Describe", 20, 20),
    # julia: functions (long and short form, a functor named after its type, `Base.show` qualified), macros,
    # structs with inner constructors, abstract types, modules
    ("Kalman.jl", "module", "KalmanFilters", 1, 53),
    ("Kalman.jl", "type", "KalmanFilters.AbstractFilter", 10, 10),
    ("Kalman.jl", "struct", "KalmanFilters.KalmanFilter", 17, 25),
    ("Kalman.jl", "method", "KalmanFilters.KalmanFilter.KalmanFilter", 24, 24),  # inner constructor
    ("Kalman.jl", "function", "KalmanFilters.predict!", 28, 32),
    ("Kalman.jl", "function", "KalmanFilters.update!", 35, 41),
    ("Kalman.jl", "function", "KalmanFilters.innovation", 43, 43),  # short form
    ("Kalman.jl", "function", "KalmanFilters.KalmanFilter", 45, 45),  # functor (kf::KalmanFilter)(z)
    ("Kalman.jl", "function", "KalmanFilters.Base.show", 47, 47),
    ("Kalman.jl", "function", "KalmanFilters.filtered", 49, 51),  # macro
    # matlab: a classdef's methods (a set.X accessor named X), a local function after it
    ("smooth_signal.m", "class", "smooth_signal", 2, 34),
    ("smooth_signal.m", "method", "smooth_signal.smooth_signal", 11, 16),
    ("smooth_signal.m", "method", "smooth_signal.apply", 18, 22),
    ("smooth_signal.m", "method", "smooth_signal.Window", 24, 26),  # set.Window
    ("smooth_signal.m", "method", "smooth_signal.from_rate", 30, 32),  # methods (Static)
    ("smooth_signal.m", "function", "clip_edges", 37, 41),
    # ocaml: modules, module types (interface), classes, types by their shape, exceptions, every top-level let
    ("ledger.ml", "enum", "side", 5, 5),
    ("ledger.ml", "struct", "entry", 8, 8),
    ("ledger.ml", "type", "Unbalanced", 10, 10),  # exception
    ("ledger.ml", "module", "Account", 12, 21),
    ("ledger.ml", "struct", "Account.t", 13, 13),
    ("ledger.ml", "function", "Account.create", 15, 15),
    ("ledger.ml", "function", "Account.post", 18, 20),
    ("ledger.ml", "interface", "STORE", 23, 25),
    ("ledger.ml", "method", "STORE.find", 24, 24),
    ("ledger.ml", "class", "journal", 27, 31),
    ("ledger.ml", "method", "journal.record", 29, 29),
    ("ledger.ml", "method", "journal.size", 30, 30),
    ("ledger.ml", "function", "total", 33, 35),  # let rec ... = function
    ("ledger.ml", "function", "signed_amount", 37, 38),
    ("ledger.ml", "function", "transfer", 41, 43),
    ("ledger.ml", "function", "format_amount", 45, 45),  # point-free
    # ocaml interfaces: every val, with the module it is in
    ("ledger.mli", "enum", "side", 3, 3),
    ("ledger.mli", "struct", "entry", 6, 6),
    ("ledger.mli", "type", "Unbalanced", 8, 8),
    ("ledger.mli", "module", "Account", 10, 17),
    ("ledger.mli", "type", "Account.t", 11, 11),
    ("ledger.mli", "function", "Account.create", 13, 13),
    ("ledger.mli", "function", "Account.post", 16, 16),
    ("ledger.mli", "interface", "STORE", 19, 21),
    ("ledger.mli", "method", "STORE.find", 20, 20),
    ("ledger.mli", "class", "journal", 23, 26),
    ("ledger.mli", "method", "journal.record", 24, 24),
    ("ledger.mli", "method", "journal.size", 25, 25),
    ("ledger.mli", "function", "total", 29, 29),
    ("ledger.mli", "function", "transfer", 32, 32),
    ("ledger.mli", "function", "format_amount", 34, 34),
    # f#: namespaces and modules, records, unions, interfaces, classes and their members, module lets
    ("Routing.fs", "module", "Shop.Web", 1, 40),  # namespace
    ("Routing.fs", "enum", "Shop.Web.Verb", 6, 8),
    ("Routing.fs", "struct", "Shop.Web.Route", 11, 11),
    ("Routing.fs", "interface", "Shop.Web.IHandler", 13, 14),
    ("Routing.fs", "method", "Shop.Web.IHandler.Handle", 14, 14),
    ("Routing.fs", "class", "Shop.Web.Router", 17, 26),
    ("Routing.fs", "method", "Shop.Web.Router.Add", 21, 22),
    ("Routing.fs", "method", "Shop.Web.Router.Count", 24, 24),
    ("Routing.fs", "method", "Shop.Web.Router.Empty", 26, 26),
    ("Routing.fs", "module", "Shop.Web.Routing", 28, 40),
    ("Routing.fs", "function", "Shop.Web.Routing.splitSegments", 31, 32),
    ("Routing.fs", "function", "Shop.Web.Routing.matchesTemplate", 34, 38),
    ("Routing.fs", "function", "Shop.Web.Routing.notFound", 40, 40),
    # groovy: classes, interfaces, enums, their methods and constructors, a script's functions
    ("Retry.groovy", "class", "Retry", 8, 31),
    ("Retry.groovy", "method", "Retry.Retry", 12, 15),
    ("Retry.groovy", "method", "Retry.call", 21, 30),
    ("Retry.groovy", "interface", "BackoffPolicy", 33, 35),
    ("Retry.groovy", "method", "BackoffPolicy.delayFor", 34, 34),
    ("Retry.groovy", "enum", "Backoff", 37, 39),
    ("Retry.groovy", "function", "withRetry", 42, 44),
    ("Retry.groovy", "function", "describe", 46, 48),
    # solidity: contracts and libraries (class), interfaces, their functions, modifiers, constructors, receive,
    # events and errors (type), structs, a free function
    ("Vault.sol", "interface", "IVault", 5, 9),
    ("Vault.sol", "type", "IVault.Deposited", 6, 6),
    ("Vault.sol", "method", "IVault.deposit", 8, 8),
    ("Vault.sol", "class", "Shares", 11, 15),
    ("Vault.sol", "method", "Shares.toShares", 12, 14),
    ("Vault.sol", "function", "fromShares", 17, 19),
    ("Vault.sol", "class", "Vault", 21, 59),
    ("Vault.sol", "type", "Vault.InsufficientBalance", 22, 22),
    ("Vault.sol", "struct", "Vault.Account", 24, 27),
    ("Vault.sol", "method", "Vault.onlyOwner", 32, 35),
    ("Vault.sol", "method", "Vault.constructor", 37, 39),
    ("Vault.sol", "method", "Vault.deposit", 43, 47),
    ("Vault.sol", "method", "Vault.withdraw", 49, 54),
    ("Vault.sol", "method", "Vault.receive", 56, 58),
    # fortran: modules, derived types, named interfaces, module procedures, a program
    ("geometry.f90", "module", "geometry", 2, 40),
    ("geometry.f90", "struct", "geometry.point", 8, 13),
    ("geometry.f90", "interface", "geometry.area", 15, 17),
    ("geometry.f90", "function", "geometry.distance", 23, 27),
    ("geometry.f90", "function", "geometry.point_norm", 30, 33),
    ("geometry.f90", "function", "geometry.circle_area", 35, 38),
    ("geometry.f90", "function", "demo", 42, 48),
    # vb: namespaces and modules (module), classes, structures, interfaces (methods without a body), enums,
    # delegates (type), subs, functions and properties with accessors; attributes start their span
    ("Basket.vb", "module", "Shop.Baskets", 4, 59),
    ("Basket.vb", "struct", "Shop.Baskets.BasketLine", 8, 11),
    ("Basket.vb", "enum", "Shop.Baskets.BasketState", 13, 16),
    ("Basket.vb", "interface", "Shop.Baskets.IBasketStore", 18, 21),
    ("Basket.vb", "method", "Shop.Baskets.IBasketStore.Load", 19, 19),
    ("Basket.vb", "type", "Shop.Baskets.BasketChanged", 23, 23),
    ("Basket.vb", "class", "Shop.Baskets.Basket", 26, 51),  # from its <Serializable>
    ("Basket.vb", "method", "Shop.Baskets.Basket.AddItem", 32, 34),
    ("Basket.vb", "method", "Shop.Baskets.Basket.Total", 36, 44),  # two attribute lines (rewrites/vb.py)
    ("Basket.vb", "method", "Shop.Baskets.Basket.Count", 46, 50),
    ("Basket.vb", "module", "Shop.Baskets.BasketFormatting", 53, 58),
    ("Basket.vb", "function", "Shop.Baskets.BasketFormatting.Describe", 55, 57),
    # pascal: classes, records (struct), interfaces, enums, procedural types and the methods they declare; the
    # routines of the implementation section named by their qualified names, a nested routine within one
    ("Stacks.pas", "enum", "TStackState", 11, 11),
    ("Stacks.pas", "type", "TItemProc", 12, 12),
    ("Stacks.pas", "struct", "TSlot", 15, 18),
    ("Stacks.pas", "interface", "IStack", 20, 23),
    ("Stacks.pas", "method", "IStack.Count", 22, 22),
    ("Stacks.pas", "class", "TStringStack", 26, 35),
    ("Stacks.pas", "method", "TStringStack.Push", 32, 32),  # declared
    ("Stacks.pas", "function", "Describe", 37, 37),  # declared in the interface section
    ("Stacks.pas", "function", "TStringStack.Create", 41, 44),
    ("Stacks.pas", "function", "TStringStack.Push", 52, 55),  # implemented
    ("Stacks.pas", "function", "TStringStack.Pop", 58, 68),
    ("Stacks.pas", "function", "TStringStack.Pop.LastIndex", 60, 63),
    ("Stacks.pas", "function", "Describe", 76, 79),
    # ada: packages (spec and body), records (struct), tagged records (class), enums, subtypes and private types
    # (type), protected types (class) and their subprograms (methods), subprograms declared, generic, implemented,
    # nested, and expression functions
    ("queues.ads", "module", "Queues", 4, 42),
    ("queues.ads", "enum", "Queues.Priority", 6, 6),
    ("queues.ads", "type", "Queues.Job_Id", 7, 7),
    ("queues.ads", "struct", "Queues.Job", 9, 12),
    ("queues.ads", "type", "Queues.Queue", 14, 14),  # its private view
    ("queues.ads", "function", "Queues.Push", 16, 16),
    ("queues.ads", "function", "Queues.Pop", 19, 21),
    ("queues.ads", "function", "Queues.Iterate", 25, 27),  # from `generic`
    ("queues.ads", "class", "Queues.Counter", 29, 34),
    ("queues.ads", "method", "Queues.Counter.Increment", 30, 30),
    ("queues.ads", "class", "Queues.Queue", 39, 41),  # its full view, a tagged record
    ("queues.adb", "module", "Queues", 1, 48),
    ("queues.adb", "function", "Queues.Pop", 8, 28),
    ("queues.adb", "function", "Queues.Pop.First_At", 13, 21),
    ("queues.adb", "function", "Queues.Length", 30, 30),
    ("queues.adb", "class", "Queues.Counter", 39, 46),
    ("queues.adb", "method", "Queues.Counter.Value", 45, 45),
    # cuda: C++'s definitions, kernels and device functions among them
    ("softmax.cu", "function", "CUDA_CHECK", 4, 4),
    ("softmax.cu", "function", "fmaxf_safe", 7, 9),  # __device__
    ("softmax.cu", "function", "softmax_rows", 13, 27),  # __global__, a kernel
    ("softmax.cu", "struct", "LaunchShape", 29, 34),
    ("softmax.cu", "method", "LaunchShape.grid", 33, 33),
    ("softmax.cu", "function", "launch_softmax", 37, 41),  # launches with <<<...>>>
    # gdscript: a script's functions (static ones, the constructor `_init`), signals (type), named enums, inner
    # classes holding their methods and classes
    ("spawner.gd", "type", "wave_spawned", 6, 6),
    ("spawner.gd", "type", "cleared", 7, 7),
    ("spawner.gd", "enum", "Pattern", 9, 9),
    ("spawner.gd", "function", "_init", 17, 18),
    ("spawner.gd", "function", "spawn_wave", 22, 28),
    ("spawner.gd", "function", "wave_size", 31, 32),  # static func
    ("spawner.gd", "function", "clear", 35, 39),  # from its @rpc annotation
    ("spawner.gd", "class", "Schedule", 43, 54),
    ("spawner.gd", "method", "Schedule.wait_for", 47, 48),
    ("spawner.gd", "class", "Schedule.Step", 50, 54),
    ("spawner.gd", "method", "Schedule.Step.due", 53, 54),
    ("spawner.gd", "function", "_offset", 57, 62),
    # luau: Lua's definitions (`function M.f`, `function M:f`, local functions, a table's functions) and type aliases
    ("signal.luau", "type", "Connection", 11, 14),  # export type
    ("signal.luau", "type", "Handler", 16, 16),
    ("signal.luau", "method", "Signal.new", 22, 24),
    ("signal.luau", "method", "Signal.Fire", 27, 31),
    ("signal.luau", "method", "Signal.Connect", 33, 39),
    ("signal.luau", "function", "Signal.Connect.disconnect", 35, 37),
    ("signal.luau", "function", "isSignal", 41, 43),
    ("signal.luau", "method", "Util.wait", 47, 49),
    # starlark: defs, a rule and a provider bound at the top level; a BUILD file's targets by their name
    ("packaging.bzl", "type", "PackageInfo", 5, 11),
    ("packaging.bzl", "function", "_archive_path", 13, 15),
    ("packaging.bzl", "function", "_package_impl", 17, 26),
    ("packaging.bzl", "function", "package", 28, 36),  # = rule(...)
    ("packaging.bzl", "function", "package_with_test", 39, 45),
    ("BUILD.bazel", "section", "server_bundle", 6, 10),
    ("BUILD.bazel", "section", "server", 12, 16),
    ("BUILD.bazel", "section", "handlers", 18, 22),
    # systemverilog: packages are modules; modules (design units) are classes, interfaces interfaces; typedefs,
    # functions, tasks, a DPI import, a class with an extern prototype, its constructor and the body defined outside
    ("uart_tx.sv", "module", "uart_pkg", 3, 15),
    ("uart_tx.sv", "enum", "uart_pkg.state_e", 4, 4),
    ("uart_tx.sv", "struct", "uart_pkg.frame_t", 6, 9),
    ("uart_tx.sv", "function", "uart_pkg.parity_of", 12, 14),
    ("uart_tx.sv", "class", "uart_tx", 20, 33),
    ("uart_tx.sv", "method", "uart_tx.load", 30, 32),
    ("uart_tx.sv", "interface", "uart_if", 35, 38),
    ("uart_tx.sv", "function", "uart_model_byte", 40, 40),
    ("uart_tx.sv", "class", "uart_driver", 42, 49),
    ("uart_tx.sv", "method", "uart_driver.send", 44, 44),  # extern: a prototype
    ("uart_tx.sv", "method", "uart_driver.new", 46, 48),
    ("uart_tx.sv", "method", "uart_driver.send", 52, 54),  # its body, outside the class
    # verilog (Verilog-2001, read by the SystemVerilog grammar): ANSI and non-ANSI modules, a function
    ("counter.v", "class", "counter", 6, 20),
    ("counter.v", "class", "clock_divider", 22, 38),
    ("counter.v", "method", "clock_divider.all_ones", 29, 34),
    # vhdl: a package and its body (modules), an entity, its architecture qualified by it, a component, subprograms
    ("fifo.vhd", "module", "fifo_pkg", 6, 16),
    ("fifo.vhd", "enum", "fifo_pkg.status_t", 7, 7),
    ("fifo.vhd", "struct", "fifo_pkg.counters_t", 9, 12),
    ("fifo.vhd", "function", "fifo_pkg.clog2", 15, 15),  # declared
    ("fifo.vhd", "module", "fifo_pkg", 18, 27),
    ("fifo.vhd", "function", "fifo_pkg.clog2", 19, 26),  # defined
    ("fifo.vhd", "class", "fifo", 34, 41),
    ("fifo.vhd", "class", "fifo.rtl", 43, 57),
    ("fifo.vhd", "interface", "fifo.rtl.ram", 44, 46),
    ("fifo.vhd", "method", "fifo.rtl.clear", 51, 54),
    # glsl: C's definitions, and an interface block named by its block name
    ("lighting.frag", "struct", "PointLight", 5, 9),
    ("lighting.frag", "struct", "SceneLights", 11, 14),
    ("lighting.frag", "function", "SATURATE", 20, 20),
    ("lighting.frag", "function", "diffuse", 25, 30),
    ("lighting.frag", "function", "main", 32, 39),
    # hlsl: C++'s definitions, and a cbuffer bound to a register
    ("tonemap.hlsl", "struct", "ToneMapConstants", 5, 9),
    ("tonemap.hlsl", "struct", "VSOutput", 15, 19),
    ("tonemap.hlsl", "module", "ToneMap", 21, 28),
    ("tonemap.hlsl", "function", "ToneMap.Reinhard", 24, 27),
    ("tonemap.hlsl", "function", "ToneMapCS", 30, 36),  # from the first of its two attributes
    ("tonemap.hlsl", "function", "ToneMapPS", 38, 42),
    # single-file components: the definitions of their scripts
    ("TodoList.vue", "module", "TodoList", 1, 45),
    ("TodoList.vue", "function", "visibleTodos", 10, 13),  # computed(() => {...}) at the top level
    ("TodoList.vue", "function", "toggleTodo", 15, 17),
    ("TodoList.vue", "function", "removeDone", 19, 21),
    ("Counter.svelte", "function", "formatCount", 2, 4),  # <script module>
    ("Counter.svelte", "function", "increment", 11, 13),
    ("Card.astro", "interface", "Props", 4, 7),  # the --- fence
    ("Card.astro", "function", "slugify", 11, 13),
    ("Card.astro", "function", "copyLink", 21, 24),  # a <script> in the markup
    # a notebook: the definitions of its code cells, on the lines of the file (notebooks.py)
    ("readings.ipynb", "function", "smooth_readings", 49, 52),
    ("readings.ipynb", "method", "OutlierFilter.transform", 86, 88),
]


@pytest.mark.parametrize(("fixture", "kind", "qualname", "start", "end"), EXPECTED)
def test_expected_spans(fixture: str, kind: str, qualname: str, start: int, end: int) -> None:
    got = [(s.kind, s.start_line, s.end_line) for s in parsed(fixture).spans if s.qualname == qualname]
    assert (kind, start, end) in got, got


@pytest.mark.parametrize(
    ("fixture", "qualname", "signature", "doc"),
    [
        ("inventory.py", "inventory", "", "Inventory management: items, stock levels and reorder rules."),
        ("inventory.py", "Item", "class Item", "A stock-keeping unit."),
        ("inventory.py", "Item.in_stock", "def in_stock(self) -> bool", "True when at least one unit is on hand."),
        (
            "inventory.py",
            "Item.take",
            "def take(self, count: int) -> int",
            "Remove ``count`` units, never going below zero.",
        ),
        (
            "inventory.py",
            "Warehouse.needs_reorder",
            "def needs_reorder(self, sku: str) -> bool",
            "Whether the stock of ``sku`` fell below the reorder level.",
        ),
        ("inventory.py", "log_calls.wrapper", "def wrapper(*args, **kwargs)", ""),
        (
            "cart.js",
            "cartTotal",
            "function cartTotal(lines)",
            "Sum the prices of all lines in a cart.\n@param {Array} lines",
        ),
        ("cart.js", "withTax", "const withTax = (amount)", "Apply tax to an amount."),
        ("cart.js", "Cart.add", "add(product, qty = 1)", "Add a product to the cart."),
        ("api.ts", "ClientOptions", "interface ClientOptions", "Options accepted by the API client."),
        (
            "api.ts",
            "ApiClient.request",
            "async request<T>(method: Method, path: string): Promise<T>",
            "Perform a request and decode the JSON body.",
        ),
        ("Button.tsx", "Button", "function Button({ label, onClick }: ButtonProps)", "A clickable button."),
        ("server.go", "server", "", "Package server exposes a tiny HTTP API."),
        ("server.go", "Server", "type Server struct", "Server answers HTTP requests."),
        ("server.go", "Handler", "Handler func(w http.ResponseWriter, r *http.Request)", "Handler handles one route."),
        (
            "server.go",
            "Server.ServeHTTP",
            "func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request)",
            "ServeHTTP counts and answers a request.",
        ),
        ("shapes.rs", "shapes", "", "Geometry primitives."),
        ("shapes.rs", "Point.origin", "pub fn origin() -> Self", "The origin."),
        ("shapes.rs", "Area.area", "fn area(&self) -> f64", ""),
        ("Library.java", "Library", "public class Library", "A lending library."),
        ("Library.java", "Library.add", "public void add(Book book)", "Add a book to the catalogue."),
        ("ring.c", "ring_new", "struct ring *ring_new(void)", "Create an empty ring."),
        (
            "ring.c",
            "ring_push",
            "ring_status ring_push(struct ring *r, unsigned char byte)",
            "Push one byte; fails when the ring is full.",
        ),
        ("ring.c", "ring", "struct ring", "A fixed-size ring buffer of bytes."),
        (
            "matrix.cpp",
            "linalg.Matrix.multiply",
            "Matrix Matrix::multiply(const Matrix &other) const",
            "Multiply two matrices.",
        ),
        (
            "Accounts.cs",
            "Bank.Accounts.Account.Deposit",
            '[Obsolete("use Credit")] public void Deposit(decimal amount)',
            "<summary>Deposit money.</summary>",
        ),
        ("greeter.rb", "Greeting", "module Greeting", "Utilities for greeting people."),
        ("greeter.rb", "Greeting.Greeter", "class Greeter", "Builds greetings in several languages."),
        ("greeter.rb", "Greeting.Greeter.hello", "def hello(lang = :en)", "Say hello."),
        ("Cache.php", "ArrayStore.get", "public function get(string $key): mixed", "Fetch a value or null."),
        ("Cache.php", "Store", "interface Store", "Contract for cache stores."),
        ("deploy.sh", "log", "log()", "Print a message with a timestamp."),
        ("guide.md", "User Guide.Installation", "## Installation", ""),
        ("Orders.kt", "Orders", "", "Order handling for the shop: orders, their lines and a repository."),
        (
            "Orders.kt",
            "Order",
            "class Order(val id: String, private val lines: MutableList<OrderLine> = mutableListOf())",
            "An order placed by a customer.",
        ),
        ("Orders.kt", "Order.total", "fun total(): Long", "Total price of all lines, in cents."),
        ("Orders.kt", "InMemoryOrders.find", "override fun find(id: String): Order?", ""),
        (
            "Orders.kt",
            "formatCents",
            "fun formatCents(cents: Long): String",
            "Formats a price in cents as a string with two decimals.",
        ),
        ("Orders.kt", "parseCents", "fun parseCents(text: String): Long", 'Parses a price such as "12.50" into cents.'),
        ("Ledger.scala", "Balanced", "trait Balanced", "Something that has a balance."),
        (
            "Ledger.scala",
            "Account.post",
            "def post(amount: BigDecimal, memo: String): BigDecimal",
            "Record a posting and return the new balance.",
        ),
        (
            "Ledger.scala",
            "Ledger.transfer",
            "def transfer(from: Account, to: Account, amount: BigDecimal): Unit",
            "Move an amount between two accounts.",
        ),
        ("Playlist.swift", "Playable", "protocol Playable", "Anything that can be played for some time."),
        ("Playlist.swift", "Playlist.init", "init(tracks: [Track])", ""),
        (
            "Playlist.swift",
            "Playlist.totalDuration",
            "func totalDuration() -> TimeInterval",
            "Total length of the playlist in seconds.",
        ),
        (
            "Playlist.swift",
            "formatDuration",
            "func formatDuration(_ seconds: TimeInterval) -> String",
            "Formats seconds as minutes and seconds.",
        ),
        (
            "stack.ex",
            "Collections.Stack",
            "defmodule Collections.Stack",
            "A last-in, first-out stack backed by a list.",
        ),
        (
            "stack.ex",
            "Collections.Stack.push",
            "def push(%__MODULE__{items: items} = stack, value)",
            "Pushes a value on top of the stack.",
        ),  # @doc above an @spec
        (
            "stack.ex",
            "Collections.Stack.pop",
            "def pop(%__MODULE__{items: []})",
            "Pops the top value, or returns :error when empty.",
        ),
        (
            "stack.ex",
            "Collections.Queue.enqueue",
            "def enqueue({front, back}, value)",
            "Adds a value at the back.",
        ),
        (
            "inventory.lua",
            "Inventory.new",
            "function Inventory.new(capacity)",
            "Creates an empty inventory with room for `capacity` items.",
        ),
        (
            "inventory.lua",
            "Inventory.total_weight",
            "function Inventory:total_weight()",
            "Total weight of everything carried.",
        ),
        ("inventory.lua", "weight_of", "local function weight_of(item)", ""),
        ("ring.zig", "ring", "", "A fixed-capacity ring buffer."),
        (
            "ring.zig",
            "Ring",
            "pub fn Ring(comptime T: type, comptime capacity: usize) type",
            "A ring buffer of `capacity` items of type `T`.",
        ),
        ("ring.zig", "End", "pub const End = enum", "Which end of the buffer to read from."),
        ("ring.zig", "Ring.push", "pub fn push(self: *Self, item: T) RingError!void", "Appends an item at the back."),
        ("Shapes.hs", "Shapes", "", "Geometric shapes and their areas."),
        ("Shapes.hs", "Point", "data Point = Point", "A point in the plane."),  # first after the imports
        ("Shapes.hs", "perimeter", "perimeter :: Shape -> Double", "The length of a shape's outline."),
        ("Shapes.hs", "HasArea.area", "area :: a -> Area", ""),
        ("todo.dart", "Task", "class Task implements Completable", "One task on the list."),
        ("todo.dart", "TodoList.pending", "List<Task> pending()", "Tasks that are not done yet."),
        ("todo.dart", "Timestamps.ageInDays", "int ageInDays()", "Age of the item in whole days."),
        ("todo.dart", "parseTask", "Task parseTask(String line)", 'Parses "title!" as a high-priority task.'),
    ],
)
def test_signatures_and_docs(fixture: str, qualname: str, signature: str, doc: str) -> None:
    got = [(s.signature, s.doc) for s in parsed(fixture).spans if s.qualname == qualname]
    assert (signature, doc) in got, got


def test_signature_trailing_equals() -> None:
    # "= body" is cut from a signature (Scala, TS type aliases), a Ruby setter's name keeps its "="
    assert find_in(parse_spans("a.scala", b"object O {\n  def f(x: Int): Int =\n    x + 1\n}\n"), "O.f").signature == (
        "def f(x: Int): Int"
    )
    assert (
        find_in(parse_spans("a.ts", b"type Pair =\n  | [number, number]\n  | null;\n"), "Pair").signature == "type Pair"
    )
    setter = b"class Box\n  def value=\n    @value = 1\n  end\nend\n"
    assert find_in(parse_spans("box.rb", setter), "Box.value=").signature == "def value="


def test_a_declaration_without_a_body_is_signed_past_its_annotations() -> None:
    # an interface's method whose first line is only an annotation was signed by the annotation
    java = (
        b"interface Context {\n"
        b'  @SuppressWarnings("TypeParameterUnusedInFormals") // a note\n'
        b"  <T> T deserialize(JsonElement json);\n"
        b"}\n"
    )
    spans = parse_spans("Context.java", java).spans
    assert [s.signature for s in spans if s.name == "deserialize"] == ["<T> T deserialize(JsonElement json)"]
    assert "@SuppressWarnings" in next(s for s in spans if s.name == "deserialize").text  # indexed as written
    kotlin = b"interface Job {\n    @InternalCoroutinesApi\n    fun cancel(cause: Throwable?): Boolean\n}\n"
    spans = parse_spans("Job.kt", kotlin).spans
    assert [s.signature for s in spans if s.name == "cancel"] == ["fun cancel(cause: Throwable?): Boolean"]


def test_parents_and_languages() -> None:
    assert find("inventory.py", "Item.take").parent == "Item"
    assert find("inventory.py", "Item").parent is None
    assert find("server.go", "Server.ServeHTTP").parent == "Server"
    assert find("matrix.cpp", "linalg.Matrix.multiply").parent == "linalg.Matrix"
    assert find("guide.md", "User Guide.Installation.Linux").name == "Linux"
    assert find("inventory.py", "inventory").name == "inventory.py"
    assert {s.language for s in parsed("Button.tsx").spans} == {"tsx"}
    assert parse_spans("src/pkg/sub/mod.py", b"x = 1\n").spans[0].qualname == "pkg.sub.mod"
    assert parse_spans("pkg/__init__.py", b"x = 1\n").spans[0].qualname == "pkg"


@pytest.mark.parametrize("fixture", ALL_FIXTURES)
def test_every_line_is_covered_and_spans_are_sane(fixture: str) -> None:
    data = code_view(fixture, (FIXTURES / fixture).read_bytes())  # a notebook's lines are its code, line for line
    lines = editor_lines(data)
    spans = parsed(fixture).spans
    assert spans
    starts = [0]
    for m in _LINE_RE.finditer(data):
        starts.append(m.end())
    for s in spans:
        assert s.kind in KINDS
        assert 1 <= s.start_line <= s.end_line <= len(lines)
        assert 0 <= s.start_byte < s.end_byte <= len(data)
        assert starts[s.start_line - 1] <= s.start_byte  # the start byte is on the start line
        assert s.end_byte <= (starts[s.end_line] if s.end_line < len(starts) else len(data))
        assert s.text.strip() and s.text_hash
    text_lines = split_lines(data.decode("utf-8", "replace"))
    assert len(text_lines) == len(lines)
    for s in spans:  # a span's text starts with its first line
        assert s.text.split("\n")[0] == text_lines[s.start_line - 1]
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        holders = [s for s in spans if s.start_line <= i <= s.end_line]
        assert holders, f"line {i} of {fixture} is in no span"
        text = line.decode()
        # each line's text is indexed in some span that holds it
        assert any(text in s.text.split("\n") for s in holders), f"line {i} of {fixture} not indexed"


@pytest.mark.parametrize("fixture", [f for f in ALL_FIXTURES if not f.endswith((".txt", ".yaml"))])
def test_every_parsed_file_has_one_module_span(fixture: str) -> None:
    r = parsed(fixture)
    assert r.parsed and not r.had_errors
    modules = [s for s in r.spans if s.kind == "module" and s.name == fixture]
    n = len(editor_lines((FIXTURES / fixture).read_bytes()))
    assert [(m.start_line, m.end_line) for m in modules] == [(1, n)]


# --- elision -----------------------------------------------------------------------------------------


def test_container_text_keeps_child_signatures_but_not_bodies() -> None:
    cls = find("inventory.py", "Warehouse").text
    assert "    def add(self, item: Item) -> None:" in cls
    assert "    @log_calls" in cls
    assert "self.items[item.sku] = item" not in cls
    assert "        ..." in cls.split("\n")
    # a multi-line signature is kept whole in the parent
    assert "    def needs_reorder(\n        self,\n        sku: str,\n    ) -> bool:\n        ..." in cls
    module = find("inventory.py", "inventory").text
    assert "class Warehouse:" in module and "def add" not in module
    assert "DEFAULT_REORDER_LEVEL = 5" in module and 'print(house.needs_reorder("A-1"))' in module
    impl = find("shapes.rs", "Point", "class").text
    assert "    pub fn origin() -> Self {" in impl and "Point { x: 0.0, y: 0.0 }" not in impl
    section = find("guide.md", "User Guide").text
    assert "## Installation" in section and "Run the installer." not in section
    assert "Welcome to the guide." in section
    # the innermost span has the full text
    assert "self.items[item.sku] = item" in find("inventory.py", "Warehouse.add").text


# --- splitting and windows ---------------------------------------------------------------------------


def test_oversized_function_is_split_into_parts_repeating_the_header() -> None:
    body = "".join(f"    x{i} = a + {i}\n" for i in range(60))
    src = f"import os\n\n@deco\ndef big(a, b):\n{body}    return x0\n\nY = 2\n".encode()
    spans = parse_spans("big.py", src, Settings(max_span_lines=20)).spans
    parts = [s for s in spans if s.qualname == "big" and s.kind == "function"]
    assert len(parts) > 2 and all(p.kind == "function" for p in parts)
    assert parts[0].start_line == 3 and parts[-1].end_line == 65
    assert parts[0].start_byte == src.index(b"@deco") and parts[-1].end_byte == src.index(b"\n\nY")
    for a, b in zip(parts, parts[1:], strict=False):
        assert b.start_line == a.end_line + 1 and b.start_byte == a.end_byte  # contiguous
        assert b.text.startswith("def big(a, b):\n    x")
    assert parts[0].text.startswith("@deco\ndef big(a, b):\n    x0")
    assert all(len(p.text.split("\n")) <= 20 for p in parts)
    assert "    return x0" in parts[-1].text
    assert len({p.span_id("big.py") for p in parts}) == len(parts)


def test_long_module_skeleton_is_split() -> None:
    src = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(40)).encode()
    spans = parse_spans("many.py", src, Settings(max_span_lines=20)).spans
    modules = [s for s in spans if s.kind == "module"]
    assert len(modules) > 1
    assert modules[0].start_line == 1 and modules[-1].end_line == 120
    assert all(b.start_line == a.end_line + 1 for a, b in zip(modules, modules[1:], strict=False))
    assert all(m.text.startswith("def f0():") for m in modules)  # header: the first line
    assert len([s for s in spans if s.kind == "function"]) == 40


def test_windows_overlap() -> None:
    data = "\n".join(f"line {i}" for i in range(1, 26)).encode()
    r = parse_spans("notes.txt", data, Settings(window_lines=10, window_overlap=3))
    assert r.language == "text" and not r.parsed
    assert [(s.start_line, s.end_line) for s in r.spans] == [(1, 10), (8, 17), (15, 24), (22, 25)]
    assert {(s.kind, s.name, s.qualname) for s in r.spans} == {("window", "notes.txt", "notes.txt")}
    assert r.spans[1].text.split("\n")[0] == "line 8"
    assert r.spans[0].start_byte == 0 and r.spans[-1].end_byte == len(data)
    assert data[r.spans[1].start_byte :].startswith(b"line 8\n")


def test_labelled_windows_and_long_files_without_definitions() -> None:
    assert {s.language for s in parsed("config.yaml").spans} == {"yaml"}
    assert [s.kind for s in parsed("notes.txt").spans] == ["window"]
    src = "".join(f"print({i})\n" for i in range(300)).encode()
    spans = parse_spans("script.py", src, Settings(max_span_lines=100, window_lines=60)).spans
    assert {(s.kind, s.qualname) for s in spans} == {("module", "script")}
    assert spans[0].start_line == 1 and spans[-1].end_line == 300 and len(spans) > 1


def test_empty_and_blank_files_have_no_spans() -> None:
    for name in ("a.py", "a.txt", "a.md", "noext"):
        assert parse_spans(name, b"").spans == []
        assert parse_spans(name, b"  \n\t\n\r\n").spans == []


# --- hostile input -----------------------------------------------------------------------------------


def test_crlf_and_mixed_line_endings() -> None:
    src = b"def f():\r\n    x = 1\r\n\r\ndef g():\r    return 2\rclass C:\n    def m(self):\n        pass\n"
    r = parse_spans("mixed.py", src)
    got = {s.qualname: (s.start_line, s.end_line) for s in r.spans}
    assert got["mixed"] == (1, 8)
    assert got["f"] == (1, 2)
    assert got["g"] == (4, 5)
    assert got["C"] == (6, 8) and got["C.m"] == (7, 8)
    f = find_in(r, "f")
    assert f.text == "def f():\n    x = 1" and "\r" not in find_in(r, "mixed").text
    assert src[f.start_byte : f.end_byte] == b"def f():\r\n    x = 1"
    crlf = parse_spans("w.txt", b"a\r\nb\r\nc\r\n", Settings(window_lines=5)).spans
    assert [(s.start_line, s.end_line, s.text) for s in crlf] == [(1, 3, "a\nb\nc")]
    assert parse_spans("w.txt", b"a\rb\rc", Settings(window_lines=5)).spans[0].end_line == 3


def test_split_lines_matches_editor_lines() -> None:
    assert split_lines("a\r\nb\x0cc\rd\n\u2028e") == ["a", "b\x0cc", "d", "\u2028e"]
    assert split_lines("") == [] and split_lines("x\n") == ["x"] and split_lines("\n") == [""]
    src = "x = 1\x0c\n\u2028y = 2\ndef f():\n    pass\n"
    f = find_in(parse_spans("ff.py", src.encode()), "f")
    assert split_lines(src)[f.start_line - 1] == "def f():"


def test_invalid_utf8_and_byte_offsets() -> None:
    src = "# caf\u00e9\n".encode() + b"def f():\n    s = '\xff\xfe'\n    return s\n"
    r = parse_spans("bad.py", src)
    f = find_in(r, "f")
    assert (f.start_line, f.end_line) == (2, 4)
    assert f.start_byte == src.index(b"def f") and src[f.end_byte - 8 : f.end_byte] == b"return s"
    assert "\ufffd" in f.text


def test_syntax_errors_still_give_spans() -> None:
    src = b"import os\n\ndef ok():\n    return 1\n\ndef broken(:\n    x = = 2\n\nclass C:\n    def m(self)\n"
    r = parse_spans("broken.py", src)
    assert r.had_errors and r.parsed
    assert find_in(r, "ok").start_line == 3
    covered = {i for s in r.spans for i in range(s.start_line, s.end_line + 1)}
    assert covered >= set(range(1, 11))


@pytest.mark.parametrize(
    "name",
    [
        f"garbage{ext}"
        for ext in (
            ".py",
            ".js",
            ".ts",
            ".tsx",
            ".go",
            ".rs",
            ".java",
            ".c",
            ".cpp",
            ".cs",
            ".rb",
            ".php",
            ".sh",
            ".md",
            ".txt",
            "",
        )
    ],
)
def test_binary_garbage_never_raises(name: str) -> None:
    garbage = bytes(range(256)) * 8 + b"\x00{(<[\"'`/*" * 50 + b"\r\r\n\n\xc3"
    r = parse_spans(name, garbage)
    n = len(editor_lines(garbage))
    assert r.spans
    covered = {i for s in r.spans for i in range(s.start_line, s.end_line + 1)}
    assert covered == set(range(1, n + 1))
    assert all(1 <= s.start_line <= s.end_line <= n for s in r.spans)


def test_deeply_nested_input_does_not_raise() -> None:
    r = parse_spans("deep.py", b"x = " + b"(" * 5000 + b")" * 5000 + b"\n" + b"[" * 3000)
    assert r.spans


# --- stability and threads ---------------------------------------------------------------------------


def test_parsing_is_deterministic_and_thread_safe() -> None:
    names = [n for n in ALL_FIXTURES]
    expected = {n: [s.span_id(n) for s in parse_spans(n, (FIXTURES / n).read_bytes()).spans] for n in names}
    results: dict[tuple[int, str], list[str]] = {}

    def work(k: int) -> None:
        for n in names:
            results[(k, n)] = [s.span_id(n) for s in parse_spans(n, (FIXTURES / n).read_bytes()).spans]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[(k, n)] == expected[n] for k in range(4) for n in names)


def test_an_elixir_one_line_definition_keeps_only_its_head_as_signature():
    source = b"defmodule A do\n  def add(a, b), do: a + b\n\n  def opt(a, b: 1) do\n    a\n  end\nend\n"
    signatures = {s.qualname: s.signature for s in parse_spans("lib/a.ex", source).spans}
    assert signatures["A.add"] == "def add(a, b)"  # not `, do: a + b`
    assert signatures["A.opt"] == "def opt(a, b: 1)"  # a keyword in the head stays


def test_a_dart_operator_is_a_method_named_by_its_symbol():
    source = b"class V {\n  /// Adds.\n  V operator +(V o) => V(x + o.x);\n  int operator [](int i) => x;\n}\n"
    spans = {s.qualname: s for s in parse_spans("lib/v.dart", source).spans}
    assert (spans["V.+"].kind, spans["V.+"].signature, spans["V.+"].doc) == ("method", "V operator +(V o)", "Adds.")
    assert not any("(" in name for name in spans)  # `[]` has no node to name it: it stays in the class


CHANNEL = b"defmodule Phoenix.Channel do\n  def join(t), do: t\nend\n"


@pytest.mark.parametrize(
    ("path", "source", "qualname", "name"),
    [
        ("lib/phoenix/channel.ex", CHANNEL, "Phoenix.Channel", "Channel"),
        ("lib/phoenix/channel.ex", CHANNEL, "Phoenix.Channel.join", "join"),
        ("lib/rack/builder.rb", b"class Rack::Builder\n  def call(env)\n  end\nend\n", "Rack.Builder", "Builder"),
    ],
)
def test_a_name_written_qualified_is_named_by_its_last_part(path: str, source: bytes, qualname: str, name: str):
    """`defmodule Phoenix.Channel` defines `Channel` inside `Phoenix`: asked for `Channel`, it is found by name."""
    spans = {s.qualname: s for s in parse_spans(path, source).spans}
    assert spans[qualname].name == name


# --- C and C++ macros the grammar cannot expand -----------------------------------------------------


def test_a_class_after_a_macro_line_is_still_a_class() -> None:
    # abseil's and fmt's namespace macros: read as a type by the grammar, they swallowed the class after them
    src = (
        b"namespace absl {\n"
        b"ABSL_NAMESPACE_BEGIN\n"
        b"\n"
        b"// Signals one event to the threads that wait for it.\n"
        b"class Notification {\n"
        b" public:\n"
        b"  void Notify();\n"
        b"};\n"
        b"\n"
        b"ABSL_NAMESPACE_END\n"
        b"}  // namespace absl\n"
    )
    spans = parse_spans("notification.h", src).spans
    cls = [s for s in spans if s.kind == "class"]
    assert [(s.qualname, s.start_line, s.end_line) for s in cls] == [("absl.Notification", 5, 8)]
    assert cls[0].doc == "Signals one event to the threads that wait for it."
    # what is indexed is the file as written: the macro lines are still in the text
    namespace = [s for s in spans if s.qualname == "absl" and s.kind == "module"][0]
    assert "ABSL_NAMESPACE_BEGIN" in namespace.text and "ABSL_NAMESPACE_END" in namespace.text


def test_a_c_struct_after_a_macro_line_is_found() -> None:
    src = (
        b"G_BEGIN_DECLS\n\nstruct buffer {\n  int len;\n};\n\n"
        b"int buffer_len(struct buffer *b) {\n  return b->len;\n}\n\nG_END_DECLS\n"
    )
    for data in (src, src.replace(b"\n", b"\r\n")):  # Windows line ends too
        spans = parse_spans("buffer.c", data).spans
        assert [(s.kind, s.name, s.start_line) for s in spans if s.kind != "module"] == [
            ("struct", "buffer", 3),
            ("function", "buffer_len", 7),
        ]
    # only lines that are a macro name alone are blanked: code that merely uses capitals is parsed as is
    src = b"enum level {\n  LOW,\n  HIGH_LEVEL\n};\nint f(void) { return HIGH_LEVEL; }\n"
    assert "f" in [s.name for s in parse_spans("level.c", src).spans if s.kind == "function"]


def test_export_and_attribute_macros_in_a_class_head_are_not_its_name() -> None:
    src = (
        b"class FMT_API format_error : public std::runtime_error {\n public:\n  format_error();\n};\n"
        b"class ABSL_LOCKABLE ABSL_ATTRIBUTE_WARN_UNUSED Mutex final {\n public:\n  void Lock();\n};\n"
        b"struct FILE_INFO {\n  int size;\n};\n"  # an upper-case name that is the struct's name stays
        b'class FMT_SO_VISIBILITY("default") system_error : public format_error {\n};\n'  # a macro with arguments
        b'FMT_PRAGMA_CLANG(diagnostic ignored "-Wweak-vtables")\n'  # a line that is only a macro call
        b"class loc_value : public format_error {\n};\n"
    )
    spans = parse_spans("base.h", src).spans
    assert [(s.kind, s.name, s.start_line) for s in spans if s.kind in ("class", "struct")] == [
        ("class", "format_error", 1),
        ("class", "Mutex", 5),
        ("struct", "FILE_INFO", 9),
        ("class", "system_error", 12),
        ("class", "loc_value", 15),
    ]
    assert spans[1].text.startswith("class FMT_API format_error")  # indexed as written


def test_attribute_macros_around_declarations_do_not_hide_them() -> None:
    src = (
        b"class Queue {\n"
        b" public:\n"
        b"  ABSL_ATTRIBUTE_REINITIALIZES void clear() {\n    n_ = 0;\n  }\n"
        b"  bool empty() const ABSL_SHARED_LOCKS_REQUIRED(mu_) {\n    return n_ == 0;\n  }\n"
        b" private:\n"
        b"  int n_ ABSL_GUARDED_BY(mu_);\n"
        b"};\n"
        b"ABSL_CONST_INIT static int MAX_ITEMS = 100;\n"
        b"int size_of(Queue *q) {\n  return MAX_ITEMS;\n}\n"
        # the macro on the line after the parameters, before a body or a constructor's initializers
        b"class Lock {\n public:\n"
        b"  bool LockWhen(const Condition& cond, Duration timeout)\n      ABSL_EXCLUSIVE_LOCK_FUNCTION() {\n"
        b"    return true;\n  }\n"
        b"  explicit Lock(Queue* q) ABSL_EXCLUSIVE_LOCK_FUNCTION(q)\n      : q_(q) {}\n"
        b"};\n"
    )
    for data in (src, src.replace(b"\n", b"\r\n")):
        spans = parse_spans("queue.h", data).spans
        assert [(s.kind, s.qualname, s.start_line) for s in spans if s.kind in ("class", "method", "function")] == [
            ("class", "Queue", 1),
            ("method", "Queue.clear", 3),
            ("method", "Queue.empty", 6),
            ("function", "size_of", 13),
            ("class", "Lock", 16),
            ("method", "Lock.LockWhen", 18),
            ("method", "Lock.Lock", 22),
        ]
        assert "ABSL_GUARDED_BY(mu_)" in spans[1].text  # indexed as written
        assert spans[-1].text.endswith("ABSL_EXCLUSIVE_LOCK_FUNCTION(q)\n      : q_(q) {}")


def test_function_like_macros_are_definitions_and_constants_are_not() -> None:
    # in C and C++ a function-like macro is much of an API (abseil's ABSL_LOG, CPython's Py_INCREF)
    src = (
        b"#ifndef LOG_H_\n#define LOG_H_\n\n"  # a header guard: no span
        b"#define MAX_LEVEL 4\n\n"  # a constant: no span
        b"// Logs a message at the given severity.\n"
        b"#define LOG(severity) LOG_IMPL(_##severity)\n\n"
        b"#  define CHECK(cond) \\\n    do { if (!(cond)) abort(); } while (0)\n\n"
        b"int log_level(void) {\n  return MAX_LEVEL;\n}\n\n#endif\n"
    )
    for path in ("log.h", "log.c", "log.hpp"):
        spans = parse_spans(path, src).spans
        assert [(s.kind, s.name, s.start_line, s.end_line) for s in spans if s.kind != "module"] == [
            ("function", "LOG", 7, 7),
            ("function", "CHECK", 9, 10),
            ("function", "log_level", 12, 14),
        ], path
        log_macro, check = (next(s for s in spans if s.name == name) for name in ("LOG", "CHECK"))
        assert log_macro.doc == "Logs a message at the given severity."
        assert log_macro.text == "#define LOG(severity) LOG_IMPL(_##severity)"
        assert check.signature == "# define CHECK(cond)"  # the line continuation is not part of it


PYTHON_TYPE_ALIASES = b'''\
"""Types."""
from typing import Literal, TypeAlias, Union
import typing as t

# A point in the plane.
type Point[T] = tuple[T, T]

JsonValue: TypeAlias = Union[int, str, list["JsonValue"]]
"""Any value JSON can hold."""

Wide: t.TypeAlias = Union[
    int,
    float,
]
StrOrBytes = Union[str, bytes]  # noqa: UP007
"""Text or its encoding."""
Mode = t.Literal["r", "w"]
NotAnAlias: int = 3
CONST = VALUES[3]
COLUMN = frame.Union[0]

if TYPE_CHECKING:
    Later: TypeAlias = "Point[int]"

class Box:
    Inner: TypeAlias = int

    def get(self) -> Inner:
        Local = Union[int, str]
        return 1
'''


def test_a_python_type_alias_is_a_definition() -> None:
    # a type alias is a definition in TypeScript, Go and Kotlin: in Python too (PEP 695, PEP 613, and at a
    # module's top level PEP 484's implicit alias of a form only a type can be), with its attribute docstring
    result = parse_spans("types.py", PYTHON_TYPE_ALIASES)
    assert result.parsed and not result.had_errors
    spans = [s for s in result.spans if s.kind != "module"]
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in spans] == [
        ("type", "Point", 6, 6),
        ("type", "JsonValue", 8, 8),
        ("type", "Wide", 11, 14),
        ("type", "StrOrBytes", 15, 15),
        ("type", "Mode", 17, 17),
        ("type", "Later", 23, 23),
        ("class", "Box", 25, 30),
        ("type", "Box.Inner", 26, 26),
        ("method", "Box.get", 28, 30),
    ]
    by_name = {s.qualname: s for s in spans}
    assert by_name["Point"].doc == "A point in the plane."
    assert by_name["JsonValue"].doc == "Any value JSON can hold."
    assert by_name["StrOrBytes"].doc == "Text or its encoding."  # past a comment on the alias's line
    assert by_name["Mode"].signature == 'Mode = t.Literal["r", "w"]'
    assert by_name["Wide"].text.endswith("]")


def test_a_googletest_test_is_named_after_its_suite_and_test() -> None:
    # `TEST_F(StrCatTest, Ints) {...}` parses as a function named TEST_F; abseil alone has about a thousand
    src = (
        b"namespace {\n"
        b"// Adds two small numbers.\n"
        b'TEST_F(StrCatTest, Ints) {\n  EXPECT_EQ(StrCat(1, 2), "12");\n}\n'
        b'TEST(StrCat, Basics) {\n  EXPECT_EQ(StrCat(), "");\n}\n'
        b"int TEST_helper(int a) { return a; }\n"  # a function whose name starts like a test macro stays as is
        b"}  // namespace\n"
    )
    spans = parse_spans("str_cat_test.cc", src).spans
    assert [(s.qualname, s.start_line, s.doc) for s in spans if s.kind == "function"] == [
        ("StrCatTest.Ints", 3, "Adds two small numbers."),
        ("StrCat.Basics", 6, ""),
        ("TEST_helper", 9, ""),
    ]
    assert spans[1].text.startswith("TEST_F(StrCatTest, Ints) {")  # indexed as written


def test_macro_blanking_reads_a_hostile_line_once() -> None:
    # a line of 20,000 macro calls after a parameter list and no declaration end: an unbounded repetition
    # in the patterns would retry it from every ')' (quadratic: minutes); bounded, it is one pass
    line = b"bool f() const" + b" A_B(x)" * 20_000 + b"\n"
    assert len(blank_macros(line)) == len(line)
    spans = parse_spans("hostile.cc", b"int g(int x) {\n  return x;\n}\n" + line).spans
    assert ("function", "g") in [(s.kind, s.name) for s in spans]


KOTLIN_THE_GRAMMAR_MISREADS = b"""\
@file:JvmMultifileClass @file:JvmName("FlowKt")

@JvmInline
public value class ChannelResult<out T>
@PublishedApi internal constructor(@PublishedApi internal val holder: Any?) {
    val isSuccess: Boolean get() = holder !is Failed
}

data class Schema(private val name: String) {
    val identifier
        @OptIn(InternalApi::class)
        get() = quote(name)

    var bodyType: TypeInfo?
        get() = attributes.getOrNull(Key)
        @InternalAPI set(value) {
            attributes.put(Key, value)
        }

    fun createStatement(): List<String> = listOf("CREATE SCHEMA $identifier")
}

fun valueFromDB(value: Any): UUID = when (value) {
    is String if value.isHexAndDashFormat() -> UUID.fromString(value)
    is ExpressionWithColumnType<*> if (
        value.columnType is IDateColumnType
        ) ->
        parse(value)
    else -> error("Unexpected value")
}

fun prepareSQL(where: Op<Boolean>?): String = buildString {
    columns.appendTo(this) { col ->
        append(col)
    }

    where?.let { append(" WHERE ") }
}

// `suspend` tells whether to wait.
private inline fun <W> acquire(waiter: W, suspend: (waiter: W) -> Boolean) {
    if (suspend(waiter)) return
}

fun onAcquire(select: SelectInstance<*>) = acquire(select, suspend = { s -> register(s) })

class Settings {
    private var set = 0

    operator fun set(id: Int, value: Int): Settings {
        set = set or (1 shl id)
        return this
    }
}

fun guard() {
    CloseGuard().apply { open(closer) }
    val in1 = source()
    assertThat(in1.read()).isEqualTo(1)
    in1.close()
    as_2.close(); else3.close()
    by1.close()
    where_x.close()
    constructor1.close()
}

fun last(): Int = 1
"""


def test_kotlin_forms_the_grammar_misreads_keep_their_definitions() -> None:
    # each form made tree-sitter-kotlin 1.1 give up on the rest of its class or file (Exposed's column types,
    # kotlinx.coroutines' Channel and Semaphore): two file annotations on a line, a guard in a when branch,
    # annotations of an accessor or of a primary constructor on the line after the class name, a soft keyword
    # used as a name at a statement's start (`where?.let`, `set = set or bit`, `open(closer)`), `suspend` as a
    # parameter or a named argument, `in1.close()` (read as the operator `in` continuing the line before)
    result = parse_spans("Schema.kt", KOTLIN_THE_GRAMMAR_MISREADS)
    assert not result.had_errors
    names = [(s.kind, s.qualname) for s in result.spans if s.kind != "module"]
    assert names == [
        ("class", "ChannelResult"),
        ("class", "Schema"),
        ("method", "Schema.createStatement"),
        ("function", "valueFromDB"),
        ("function", "prepareSQL"),
        ("function", "acquire"),
        ("function", "onAcquire"),
        ("class", "Settings"),
        ("method", "Settings.set"),
        ("function", "guard"),
        ("function", "last"),
    ]
    by_name = {s.name: s for s in result.spans}
    assert "@PublishedApi internal constructor" in by_name["ChannelResult"].text  # indexed as written
    assert "is String if value.isHexAndDashFormat() ->" in by_name["valueFromDB"].text
    assert "where?.let" in by_name["prepareSQL"].text
    assert (by_name["valueFromDB"].start_line, by_name["valueFromDB"].end_line) == (23, 30)
    # a doc is read from the file as written, not from the text rewritten for the grammar
    assert by_name["acquire"].doc == "`suspend` tells whether to wait."
    # a branch whose body holds an `if` and a lambda is no guard; a suspend function type is no call
    for left_alone in [
        b"fun f(v: Any) = when (v) {\n    is String -> if (v.isEmpty()) 0 else v.map { c -> c.code }.sum()\n"
        b"    else -> 1\n}\n",
        b"val g: (suspend() -> Unit)? = null\n",
    ]:
        assert rewritten("kotlin", left_alone) == left_alone


ELIXIR_CALLBACKS = b"""defmodule Ecto.Repo do
  @doc \"\"\"
  Inserts a struct.
  \"\"\"
  @doc group: "Schema API"
  @callback insert(struct :: Ecto.Schema.t(), opts :: Keyword.t()) :: {:ok, term}
  @callback __adapter__ :: Ecto.Adapter.t()
  @callback checkout((-> result), opts :: Keyword.t()) :: result when result: var
  @macrocallback query(expr :: Macro.t()) :: Macro.t()

  @doc "Starts the repo."
  def start_link(opts), do: Supervisor.start_link(__MODULE__, opts)
end
"""


def test_an_elixir_callback_is_a_declaration() -> None:
    # a behaviour's `@callback` declares what its modules implement: a span with its doc, as an interface's
    # method is, and a declaration (ranked below the code that implements it)
    spans = [s for s in parse_spans("repo.ex", ELIXIR_CALLBACKS).spans if s.kind == "function"]
    assert [(s.qualname, s.start_line, is_declaration("elixir", s.kind, s.text)) for s in spans] == [
        ("Ecto.Repo.insert", 6, True),
        ("Ecto.Repo.__adapter__", 7, True),
        ("Ecto.Repo.checkout", 8, True),
        ("Ecto.Repo.query", 9, True),
        ("Ecto.Repo.start_link", 12, False),
    ]
    assert spans[0].doc == "Inserts a struct." and spans[-1].doc == "Starts the repo."


GO_FUNCTION_VARIABLES = b"""package middleware

// redirectHTTPS sends plain HTTP to HTTPS.
var redirectHTTPS = func(scheme, host, uri string) (bool, string) {
	return scheme != "https", "https://" + host + uri
}

var (
	errNotFound = errors.New("not found")
	notFound    = func(c *Context) error {
		return errNotFound
	}
)

var _ = func() int { return 1 }

func Handler() http.HandlerFunc {
	var inner = func(w http.ResponseWriter, r *http.Request) {}
	return inner
}
"""


def test_a_go_package_variable_bound_to_a_function_is_a_definition() -> None:
    # gin's `var defaultLogFormatter = func(param LogFormatterParams) string {`, echo's redirect rules; a
    # variable inside a function holds a closure, and one bound to anything else is no definition
    spans = [s for s in parse_spans("redirect.go", GO_FUNCTION_VARIABLES).spans if s.kind != "module"]
    assert [(s.kind, s.name, s.start_line, s.end_line) for s in spans] == [
        ("function", "redirectHTTPS", 4, 6),
        ("function", "notFound", 10, 12),
        ("function", "Handler", 17, 20),
    ]
    assert spans[0].doc == "redirectHTTPS sends plain HTTP to HTTPS."
    assert spans[0].signature == "var redirectHTTPS = func(scheme, host, uri string) (bool, string)"


SCALA_3 = b"""object Instances:
  given intOrd: Ord[Int] with
    def compare(x: Int, y: Int): Int = x - y

  given Ord[String] with
    def compare(x: String, y: String): Int = x.compareTo(y)

  given ec: ExecutionContext = ExecutionContext.global

extension (c: Circle)
  def circumference: Double = c.radius * math.Pi * 2
  def area: Double = c.radius * c.radius * math.Pi

extension [T](xs: List[T]) def second: T = xs.tail.head

extension [T](t: T)
  def pipe[U](f: T => U): U = f(t)

trait Monoid[Elem]:
  extension (x: Elem) def twice: Elem = x
"""


def test_scala_3_givens_and_extensions_are_named_after_their_types() -> None:
    # a given with a body is an instance whose methods are its own (an anonymous one is named by its type);
    # an extension's methods are the extended type's, unless that type may be a type parameter (the
    # extension's or its trait's: `Elem`, `T`, also `List[T]`, which is left unqualified with them).
    # An indented body ends at its last token, not at the next definition's first line
    spans = [s for s in parse_spans("Instances.scala", SCALA_3).spans if s.kind != "module"]
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in spans] == [
        ("class", "Instances", 1, 8),
        ("class", "Instances.intOrd", 2, 3),
        ("method", "Instances.intOrd.compare", 3, 3),
        ("class", "Instances.Ord[String]", 5, 6),
        ("method", "Instances.Ord[String].compare", 6, 6),
        ("method", "Instances.ec", 8, 8),
        ("function", "Circle.circumference", 11, 11),
        ("function", "Circle.area", 12, 12),
        ("function", "second", 14, 14),
        ("function", "pipe", 17, 17),
        ("interface", "Monoid", 19, 20),
        ("method", "Monoid.twice", 20, 20),
    ]
    # the grammar puts the next definition's doc comment at the end of an indented body: it is that one's doc
    src = b"object O:\n  def f =\n    1\n\n  /** Doc of g. */\n  def g = 2\n"
    f, g = [s for s in parse_spans("O.scala", src).spans if s.kind == "method"]
    assert (f.end_line, g.start_line, g.doc) == (3, 6, "Doc of g.")


def test_a_definition_ends_before_the_next_ones_doc_comment() -> None:
    # tree-sitter-c ends a macro whose body the C rewrite blanked at the comment below it (abseil's ABSL_FLAG)
    src = b"#define ABSL_FLAG(name) \\\n  ABSL_FLAG_IMPL(name)\n\n// Doc of NOARG.\n#define NOARG\n"
    flag = next(s for s in parse_spans("flag.h", src).spans if s.name == "ABSL_FLAG")
    assert (flag.start_line, flag.end_line) == (1, 2) and flag.text.endswith("ABSL_FLAG_IMPL(name)")


LUA_TABLES = b"""local M = {}

-- Tells whether a pinned plugin is skipped.
M.log = {
  skip = function(plugin, opts)
    return plugin.pin
  end,
  level = 2,
}

local handlers = {
  access = {
    before = function(ctx)
      ctx.start = 1
    end,
  },
}

M.diff = defaulter(function(opts)
  return opts
end, {})

local function setup(opts)
  local config = {
    on_exit = function() end,
  }
  vim.api.nvim_create_autocmd("BufEnter", { callback = function() end })
  return config
end

M.count = string.len("abc")
M.names = vim.tbl_map(function(x) return x.name end, items)
routes[name] = { PUT = function(self) end }

return {
  setup = setup,
  init = function(options)
    return options
  end,
}
"""


def test_lua_functions_in_module_tables_are_definitions() -> None:
    # a module's functions are often fields of a table bound to a name or returned (Kong's handler phases,
    # lazy.nvim's tasks), or wrapped by a call (telescope's `previewers.x = defaulter(function(opts) ...)`);
    # a table made inside a function or passed to a call holds options and callbacks, which are no definitions,
    # and Lua's or Neovim's own calls that return data (`vim.tbl_map`) wrap no definition
    spans = [s for s in parse_spans("handler.lua", LUA_TABLES).spans if s.kind != "module"]
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in spans] == [
        ("method", "M.log.skip", 5, 7),
        ("method", "handlers.access.before", 13, 15),
        ("method", "M.diff", 19, 21),
        ("function", "setup", 23, 29),
        ("function", "init", 37, 39),
    ]
    assert spans[0].signature == "skip = function(plugin, opts)" and spans[2].signature.startswith("M.diff =")


HASKELL_CPP = b"""{-# LANGUAGE CPP #-}
#ifdef USE_ORDEREDMAP
module Data.KeyMap (KeyMap, empty, size) where
#else
module Data.KeyMap (KeyMap, empty, size, toHashMap) where
#endif

#ifdef USE_ORDEREDMAP
-- | A map from keys to values.
newtype KeyMap v = KeyMap (Map Key v)

empty :: KeyMap v
empty = KeyMap M.empty
#else
{- The default build:
   a hash map. -}

#if MIN_VERSION_hashable(1,4,0)
-- | A map from keys to values.
newtype KeyMap v = KeyMap (HashMap Key v)
#elif defined(OLD_HASHABLE) && \\
      defined(LEGACY)
newtype KeyMap v = KeyMap (HashMap Key v)
#endif

-- | Construct an empty map.
empty :: KeyMap v
empty = KeyMap H.empty

toHashMap :: KeyMap v -> HashMap Key v
toHashMap (KeyMap m) = m
#endif

size :: KeyMap v -> Int
size m = go m
  where
#if WORD_SIZE_IN_BITS > 32
    go = H.size . unKeyMap
#else
    go = M.size . unKeyMap
#endif

pow5 :: Word64 -> Int
pow5 w =
  let q = w `quot` 5
#if WORD_SIZE_IN_BITS >= 64
   in case q of
#else
   in case fromIntegral q of
#endif
        0 -> 0
        _ -> 1 + pow5 q
"""


def test_haskell_else_branches_of_top_level_conditionals_are_read() -> None:
    # tree-sitter-haskell skips CPP's #else and #elif branches, and aeson's KeyMap.hs keeps its default
    # implementation in one: its definitions were invisible. Where every branch is whole top-level
    # declarations each is read; alternatives inside one declaration, or two module headers, are the grammar's
    result = parse_spans("KeyMap.hs", HASKELL_CPP)
    assert not result.had_errors
    names = [(s.kind, s.name, s.start_line) for s in result.spans if s.kind != "module"]
    assert names == [
        ("type", "KeyMap", 10),
        ("function", "empty", 12),
        ("type", "KeyMap", 20),  # with the #elif's alternative below it: one name, one span
        ("function", "empty", 27),
        ("function", "toHashMap", 30),
        ("function", "size", 34),
        ("function", "go", 38),
        ("function", "pow5", 43),
        ("function", "q", 45),
    ]
    by_line = {s.start_line: s for s in result.spans}
    assert by_line[20].end_line == 23 and by_line[27].doc == "Construct an empty map."
    assert by_line[43].end_line == 52
    assert rewritten("haskell", HASKELL_CPP).count(b"#else") == 3  # the module header, `go` and `case` kept
    assert rewritten("haskell", HASKELL_CPP).count(b"#elif") == 0
    named_module = b"#if X\nmoduleName = 1\n#else\nmoduleName = 2\n#endif\n"  # a name, not the header
    assert b"#else" not in rewritten("haskell", named_module)
    for hostile in [
        b"#if A\n" * 50_000 + b"#else\n" + b" " * 100_000 + b"\n",
        b"#if A\n" * 50_000 + b"f = 1\n" * 50_000,  # one pass, not a pass per open conditional
    ]:
        out = rewritten("haskell", hostile)
        assert len(out) == len(hostile) and out.count(b"\n") == hostile.count(b"\n")


KOTLIN_PLUGIN = b"""/**
 * Client Server-Sent Events (SSE) plugin.
 */
public val SSE: ClientPlugin<SSEConfig> = createClientPlugin("SSE", ::SSEConfig) {
    val reconnectionTime = pluginConfig.reconnectionTime
    on(AfterRender) { request, content -> content }
}

private val LOGGER = KtorSimpleLogger("io.ktor.client.plugins.sse.SSE")
val logger = KotlinLogging.logger {}

fun install() {
    val local = lazy { compute() }
}
"""


def test_a_kotlin_property_made_by_a_call_given_a_function_body_is_a_definition() -> None:
    # ktor's plugins are top-level properties built by a call whose trailing lambda is the plugin's code; a
    # property made by a call without one, or with an empty lambda, or inside a function, is no definition
    spans = [s for s in parse_spans("SSE.kt", KOTLIN_PLUGIN).spans if s.kind != "module"]
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in spans] == [
        ("function", "SSE", 4, 7),
        ("function", "install", 12, 14),
    ]
    assert spans[0].doc == "Client Server-Sent Events (SSE) plugin."


VUE_OPTIONS = b"""<template>
  <form @submit.prevent="save">
    <input v-model="host" :class="{ invalid: !hostValid }">
  </form>
</template>

<script type="text/x-template" id="row">
  function notCode() { return "<tr></tr>" }
</script>

<script data-note="a > inside quotes">
import { checkHost } from "../util/host";
const api = require("../api");

export default {
    name: "EditMonitor",
    computed: {
        hostValid() {
            return checkHost(this.host);
        },
    },
    methods: {
        async save() {
            if (!this.hostValid) {
                return;
            }
            await api.saveMonitor(this.host);
        },
    },
};
</script>
"""


def test_a_components_scripts_are_parsed_and_its_markup_stays_in_its_module() -> None:
    r = parse_spans("src/pages/EditMonitor.vue", VUE_OPTIONS)
    assert r.language == "vue" and r.parsed and not r.had_errors
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in r.spans] == [
        ("module", "EditMonitor", 1, 31),
        ("function", "hostValid", 18, 20),  # an Options API component's computed property and method
        ("function", "save", 23, 28),
    ]
    module = r.spans[0].text
    assert '<input v-model="host" :class="{ invalid: !hostValid }">' in module  # the markup is indexed
    assert 'function notCode() { return "<tr></tr>" }' in module  # a template in a script tag is no code
    # what the file imports is read from its scripts only
    assert file_imports(VUE_OPTIONS, "vue") == [
        'import { checkHost } from "../util/host";',
        'const api = require("../api");',
    ]
    # a name bound to a call given a function with a body is a definition in a component, not in a module:
    # there it is often data built by a library (zod's ``$constructor("ZodType", (inst, def) => {``)
    bound = b"const total = computed(() => {\n  return 1\n})\n"
    assert [s.kind for s in parse_spans("a.ts", bound).spans] == ["module"]
    # ... nor a method of data, nor a call made as a statement: a hook named ``onMounted`` in every component
    # would be taken for the definition of Vue's ``onMounted`` (references.py)
    others = b"const rows = items.map((item) => {\n  return item\n})\nonMounted(() => {\n  go()\n})\n"
    assert [s.qualname for s in parse_spans("a.vue", b"<script setup>\n" + bound + others + b"</script>\n").spans] == [
        "a",
        "total",
    ]
    assert [s.qualname for s in parsed("TodoList.vue").spans] == [
        "TodoList",
        "visibleTodos",
        "toggleTodo",
        "removeDone",
    ]
    # a name in the markup is used in the markup's own syntax: which uses are code cannot be told
    assert code_use_lines(VUE_OPTIONS.decode(), "vue", "hostValid") is None
    # is_declaration and the rest read a component's script as TypeScript
    assert is_declaration("vue", "function", "function f(a: string): number;")


@pytest.mark.parametrize(
    ("path", "source", "names"),
    [
        # a script element starts a line; a mention in a comment, a string or an attribute is none
        (
            "a.svelte",
            b'<!-- state goes in a <script context="module"> block -->\n<script>\nfunction handle() {}\n</script>\n',
            ["handle"],
        ),
        (
            "a.vue",
            b"<!-- <script>function fake() { return 1 }</script> -->\n<script>\nfunction real() {}\n</script>\n",
            ["real"],
        ),
        (
            "a.vue",
            b'<template>\n  <p>{{ "<script>" }}</p>\n</template>\n<script setup>\nfunction kept() {}\n</script>\n',
            ["kept"],
        ),
        (
            "a.svelte",
            b'<svelte:head>\n  <script src="x.js" />\n</svelte:head>\n<script>\nfunction handle() {}\n</script>\n',
            ["handle"],
        ),
        ("a.vue", b'<script-loader src="a"></script-loader>\n<script>\nfunction real() {}\n</script>\n', ["real"]),
        ("a.vue", b'<script setup lang="ts" data-type="x">\nfunction real() {}\n</script>\n', ["real"]),
        # Astro's fence with Windows line ends, or after a byte order mark
        ("a.astro", b"---\r\nfunction crlf(a) {\r\n  return a\r\n}\r\n---\r\n<div/>\r\n", ["crlf"]),
        ("a.astro", "\ufeff---\nfunction bom(a) {\n  return a\n}\n---\n<div/>\n".encode(), ["bom"]),
        # the forms TypeScript's grammar misreads are rewritten in a script as in a .ts file (Hono's overloads)
        (
            "a.vue",
            b'<script setup lang="ts">\ninterface Get {\n  (): void\n  <T>(x: T): T\n}\n'
            b"function after() {}\n</script>\n",
            ["Get", "after"],
        ),
    ],
)
def test_a_components_scripts_are_found_as_its_compiler_finds_them(path: str, source: bytes, names: list[str]) -> None:
    r = parse_spans(path, source)
    assert not r.had_errors
    assert [s.name for s in r.spans if s.kind != "module"] == names


def test_component_rewrites_keep_length_and_lines_and_read_a_hostile_file_once() -> None:
    for language, hostile in [
        ("vue", b"<script" * 50_000),
        ("vue", b"<script a='" + b">" * 100_000 + b"\n"),
        ("svelte", b"<script>\n" + b"x\r\n" * 50_000),
        ("astro", b"---\n" + b"-- \n" * 50_000),
        ("astro", "<p>\u00e9\u4e2d</p>\n<script>\nlet \u00e9 = 1\n</script>\n".encode() * 10_000),
    ]:
        out = rewritten(language, hostile)
        assert len(out) == len(hostile) and out.count(b"\n") == hostile.count(b"\n")
        assert out.count(b"\r") == hostile.count(b"\r")


def test_objective_c_declarations_and_the_docs_of_perl_and_powershell() -> None:
    r = parsed("Downloader.m")
    declared, defined = [s for s in r.spans if s.qualname == "Downloader.initWithBaseURL"]
    assert is_declaration(declared.language, declared.kind, declared.text)
    assert not is_declaration(defined.language, defined.kind, defined.text)
    assert find("Downloader.m", "Downloader.fetchPath").doc.startswith("Fetches a path below the base URL")
    assert find("Deploy.ps1", "Publish-Build").doc == ".SYNOPSIS\nCopies the build output to a share."  # <# ... #>
    assert find("Rotate.pm", "rotate").doc == "Compress every log file in a folder and keep the newest few."
    data = (FIXTURES / "Downloader.m").read_bytes()
    assert file_imports(data, "objective-c") == ['#import "Downloader.h"', "#import <Foundation/Foundation.h>"]


def test_the_docs_of_the_languages_parsed_since_the_thirty_fourth_session() -> None:
    assert find("Kalman.jl", "KalmanFilters.predict!").doc == "Advance the state estimate by one time step."  # """
    assert find("Kalman.jl", "KalmanFilters.update!").doc == "Fold the measurement `z` into the estimate."  # #
    assert find("smooth_signal.m", "smooth_signal.apply").doc == "APPLY Smooth the samples X."  # help text below
    assert find("smooth_signal.m", "clip_edges").doc == "Zero the samples that the window only partly covered."
    assert find("ledger.ml", "Account.post").doc == "Record a posting and return the new balance."  # (** *)
    # odoc's convention: a doc comment right below a val
    assert find("ledger.mli", "transfer").doc == "Move an amount between two accounts; the destination's new balance."
    assert (
        find("Routing.fs", "Shop.Web.Routing.splitSegments").doc
        == "Splits a path into its segments, without empty ones."
    )
    assert find("Routing.fs", "Shop.Web.Router.Add").signature == "member this.Add(route : Route, handler : IHandler)"
    assert find("Retry.groovy", "Retry.call").doc == (
        "Calls the block until it returns without throwing.\nThe last failure is rethrown when no attempt is left."
    )
    assert (
        find("Vault.sol", "Vault.deposit").doc
        == "@notice Adds the ether sent to the caller's balance.\n@dev Emits a {Deposited} event."
    )
    assert find("geometry.f90", "geometry.distance").doc == (
        "Euclidean distance between two points.\nBoth points are left unchanged."  # FORD's !> and !!
    )
    assert find("softmax.cu", "softmax_rows").doc.startswith("One block per row: each thread reads a strided slice")


def test_the_docs_of_gdscript_luau_and_starlark() -> None:
    assert find("spawner.gd", "spawn_wave").doc == "Spawns the next wave, `count` enemies in the given pattern."  # ##
    assert find("spawner.gd", "Schedule.wait_for").doc == "Seconds to wait before wave `index`."
    assert find("spawner.gd", "wave_spawned").signature == "signal wave_spawned(index: int, count: int)"
    # Moonwave's --[=[ ... ]=] (its brackets are no doc), a --- line; a --!strict directive is no file doc
    assert find("signal.luau", "Signal.new").doc == "Creates a signal with no handlers.\n@return Signal"
    assert find("signal.luau", "Signal.Fire").doc == "Runs every connected handler with the given arguments."
    assert (
        find("signal.luau", "signal").doc
        == "@class Signal\nA minimal signal: handlers connected to it run when it fires."
    )
    assert find("signal.luau", "Connection").signature == "export type Connection"
    # `--` lines, then a long comment: its lines are text, without its brackets
    mixed = b"-- An implementation note.\n--[=[\n\tFires it.\n]=]\nfunction M.fire()\nend\n"
    assert docs_of("m.luau", mixed) == {"M.fire": "An implementation note.\n\nFires it."}
    assert docs_of("m.lua", mixed) == {"M.fire": "An implementation note.\n\nFires it."}  # Lua's too
    # a test (jest-lua's, TestEZ's describe/it, lute's test.suite/suite:case) is named by its string
    spec = b'describe("Signal", function()\n\tit("fires once", function()\n\t\tlocal n = 1\n\tend)\nend)\n'
    got = {s.qualname: (s.kind, s.start_line, s.end_line) for s in parse_spans("signal.spec.luau", spec).spans}
    assert got["Signal"] == ("function", 1, 5) and got["Signal.fires once"] == ("function", 2, 4)
    assert find("packaging.bzl", "_archive_path").doc == "The archive's path below the package, named after the target."
    assert find("packaging.bzl", "package").doc == "Packs sources and data files into one tar archive."  # doc = "..."
    assert find("packaging.bzl", "PackageInfo").doc == "The archive a package rule made and the files in it."
    assert find("packaging.bzl", "packaging").doc == "Rules and macros that package a binary with its data files."
    assert find("BUILD.bazel", "server_bundle").doc == "The server and its static files."
    data = (FIXTURES / "packaging.bzl").read_bytes()
    assert file_imports(data, "starlark") == ['load("@bazel_skylib//lib:paths.bzl", "paths")']
    data = (FIXTURES / "spawner.gd").read_bytes()
    assert file_imports(data, "gdscript") == ['const Enemy = preload("res://enemies/enemy.gd")']
    data = (FIXTURES / "signal.luau").read_bytes()
    assert file_imports(data, "luau") == ["local Queue = require(script.Parent.Queue)"]


def test_the_signatures_and_docs_of_vb_pascal_and_ada() -> None:
    # VB.NET: ''' XML doc lines, ' and REM comments, above the attributes; the signature past them
    assert find("Basket.vb", "Shop.Baskets.BasketLine").doc == (
        "<summary>\nA line of a basket: one product and how many.\n</summary>"
    )
    assert find("Basket.vb", "Shop.Baskets.Basket").doc == "A buyer's basket of products."
    assert find("Basket.vb", "Shop.Baskets.BasketFormatting.Describe").doc == "The text shown on a receipt."
    total = find("Basket.vb", "Shop.Baskets.Basket.Total")
    assert total.signature == "Public Function Total(prices As IDictionary(Of Integer, Money)) As Money"
    assert not parsed("Basket.vb").had_errors
    # Pascal: /// XMLDoc, { }, (* *) and // comments; a routine's signature is its header, not its local routines
    assert find("Stacks.pas", "TSlot").doc == "<summary>A point on the stack's plane.</summary>"
    assert find("Stacks.pas", "TStringStack").doc == "A stack of strings, last in first out."
    pop = [s for s in parsed("Stacks.pas").spans if s.qualname == "TStringStack.Pop"]
    assert [(s.kind, s.signature, s.doc) for s in pop] == [
        ("method", "function Pop: string", ""),
        ("function", "function TStringStack.Pop: string", "Removes the top item and returns it."),
    ]
    assert find("Stacks.pas", "TStringStack.Destroy", "method").signature == "destructor Destroy; override"
    # Ada: -- comments above a definition, or right below a declaration (GNAT's style); a signature is the
    # specification over its lines, without `is` or the generic formal part
    assert find("queues.ads", "Queues").doc == "Bounded queues of jobs."
    assert find("queues.ads", "Queues.Push").doc == "Add J behind the jobs of its priority."
    assert find("queues.ads", "Queues.Pop").signature == (
        "function Pop (Q : in out Queue; Level : Priority := High) return Job"
    )
    assert find("queues.ads", "Queues.Iterate").signature == "procedure Iterate (Q : Queue)"
    assert find("queues.adb", "Queues.Pop.First_At").doc == "The first job at Level, else the first."
    assert find("queues.adb", "Queues.Push").signature == "procedure Push (Q : in out Queue; J : Job)"


def test_pascal_reads_the_first_branch_of_a_conditional_and_a_programs_uses() -> None:
    # two alternatives side by side are no Pascal: the {$ELSE} branches and the directives are blanked
    source = (
        b"unit U;\ninterface\nuses\n  {$IFDEF FPC}\n  SysUtils;\n  {$ELSE}\n  System.SysUtils;\n  {$ENDIF}\n"
        b"type\n  TProc = {$IF DEFINED(FPC)}procedure of object{$ELSE}reference to procedure{$ENDIF};\n"
        b"  TA = class\n    function Ref: Integer; {$IFDEF WINDOWS}stdcall{$ELSE}cdecl{$ENDIF};\n  end;\n"
        b"implementation\nend.\n"
    )
    blanked = rewritten("pascal", source)
    assert len(blanked) == len(source) and blanked.count(b"\n") == source.count(b"\n")
    assert b"System.SysUtils" not in blanked and b"cdecl" not in blanked and b"{$" not in blanked
    r = parse_spans("u.pas", source)
    assert not r.had_errors
    assert [(s.kind, s.qualname) for s in r.spans if s.kind != "module"] == [
        ("type", "TProc"),
        ("class", "TA"),
        ("method", "TA.Ref"),
    ]
    # a program's units named with their files (the grammar reads no `in '...'`)
    program = b"program Shop;\n\nuses\n  Vcl.Forms,\n  Main.Form in 'src\\Main.Form.pas' {FrmMain};\n\nbegin\nend.\n"
    assert not parse_spans("Shop.dpr", program).had_errors
    assert b"  Main.Form" + b" " * 24 + b"{FrmMain};" in rewritten("pascal", program)
    # a forward declaration is no class; a class of one line with a parent is one
    forward = b"unit U;\ninterface\ntype\n  TA = class;\n  EA = class(Exception);\n  TA = class\n  end;\n"
    spans = parse_spans("u.pas", forward + b"implementation\nend.\n").spans
    assert [(s.qualname, s.start_line) for s in spans] == [("u", 1), ("EA", 5), ("TA", 6)]


def test_vb_stacked_attribute_lines_are_one_block() -> None:
    source = b"Class A\n    <Required>\n    <EmailAddress>\n    Public Property Email As String\nEnd Class\n"
    joined = rewritten("vb", source)
    assert joined == b"Class A\n    <Required,\n     EmailAddress>\n    Public Property Email As String\nEnd Class\n"
    assert not parse_spans("a.vb", source).had_errors
    two = b"Class A\n    <DebuggerHidden()> <DebuggerStepThrough()>\n    Public Sub B()\n    End Sub\nEnd Class\n"
    assert b"<DebuggerHidden(),  DebuggerStepThrough()>" in rewritten("vb", two)
    assert not parse_spans("a.vb", two).had_errors
    xml = b"Dim page =\n    <html>\n    <body>\n    </body>\n"  # an XML literal's elements: no declaration below
    assert rewritten("vb", xml) == xml
    # a namespace named from the root is the namespace it names
    rooted = parse_spans("a.vb", b"Namespace Global.Shop.Core\n    Class A\n    End Class\nEnd Namespace\n")
    assert [s.qualname for s in rooted.spans] == ["a", "Shop.Core", "Shop.Core.A"]


def test_vb_nested_types_and_constructors_are_definitions() -> None:
    source = (
        b"Public Class Encoder\n"
        b"    Sub New(name As String)\n"
        b"        Me.Name = name\n"
        b"    End Sub\n"
        b"\n"
        b"    ''' <summary>A quality preset.</summary>\n"
        b"    <Serializable>\n"
        b"    Public Class QualityItem\n"
        b"        Public Shared Sub New()\n"
        b"        End Sub\n"
        b"        Function Describe() As String\n"
        b"            Return Text\n"
        b"        End Function\n"
        b"    End Class\n"
        b"\n"
        b"    <Flags> Private Enum Mode\n"
        b"        Fast = 1\n"
        b"    End Enum\n"
        b"End Class\n"
    )
    result = parse_spans("Encoder.vb", source)
    assert not result.had_errors
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in result.spans] == [
        ("module", "Encoder", 1, 19),
        ("class", "Encoder", 1, 19),
        ("method", "Encoder.New", 2, 4),
        ("class", "Encoder.QualityItem", 7, 14),  # from its attribute, as a type at the top level
        ("method", "Encoder.QualityItem.New", 9, 10),
        ("method", "Encoder.QualityItem.Describe", 11, 13),
        ("enum", "Encoder.Mode", 16, 18),
    ]
    assert find_in(result, "Encoder.New").signature == "Sub New(name As String)"
    assert find_in(result, "Encoder.QualityItem").doc == "<summary>A quality preset.</summary>"  # not the attribute
    # only a nested type's attributes are rewritten; a namespace's type keeps its own
    top = b"Namespace N\n    <Serializable>\n    Public Class A\n    End Class\nEnd Namespace\n"
    assert rewritten("vb", top) == top
    assert find_in(parse_spans("a.vb", top), "N.A").start_line == 2
    # a type ended on its own line (`Class I : End Class`) holds nothing: a later top-level type keeps its attributes
    one_line = b"Public Class O\n    Class I : End Class\nEnd Class\n<Serializable>\nPublic Class P\nEnd Class\n"
    assert rewritten("vb", one_line) == one_line
    assert find_in(parse_spans("a.vb", one_line), "P").start_line == 4


def test_systemverilog_assertion_macros_do_not_lose_the_module() -> None:
    source = (
        b"module sender (input logic clk_i, input logic req_i, output logic ack_o);\n"
        b"  typedef enum logic [1:0] {Idle, Busy} state_e;\n"
        b"  assign ack_o = req_i;\n"
        b"`ifdef INC_ASSERT\n"
        b"  `ASSERT(AckFollowsReq_A, req_i |=> ack_o,\n"
        b"          clk_i, !rst_ni)\n"
        b"  `ASSERT(PingHs_A, ##1 $changed(req_i) && ack_o |-> $rose(ack_o));\n"
        b"`endif\n"
        b"  `ASSERT_KNOWN(AckKnown_A, ack_o)\n"
        b"endmodule\n"
    )
    result = parse_spans("sender.sv", source)
    assert not result.had_errors
    assert [(s.kind, s.qualname) for s in result.spans] == [
        ("module", "sender"),
        ("class", "sender"),
        ("enum", "sender.state_e"),
    ]
    blanked = rewritten("systemverilog", source)
    assert len(blanked) == len(source) and blanked.count(b"\n") == source.count(b"\n")
    assert b"ASSERT(" not in blanked and b"`ASSERT_KNOWN(AckKnown_A, ack_o)" in blanked  # no property: kept
    # a call in a `define's body is the macro's text
    define = b"`define CHECK(a, b) \\\n  `ASSERT(Chk, a |-> b, clk, rst)\n"
    assert rewritten("systemverilog", define) == define


def test_a_macro_defined_as_trailing_spaces_keeps_the_next_line() -> None:
    # every C-family grammar read the line after `#define NAME ` as the macro's value
    for path in ("guard.h", "guard.glsl", "guard.hlsl", "guard.cu"):
        source = b"#ifndef FNC_DYAD\n#define FNC_DYAD  \nint dyad(int index) {\n    return index;\n}\n#endif\n"
        assert [s.qualname for s in parse_spans(path, source).spans][1:] == ["dyad"], path
    empty = b"#define SAL_ASSUME(expr)\t\nint x;\n"
    assert rewritten("c", empty) == b"#define SAL_ASSUME(expr);\nint x;\n"
    assert find_in(parse_spans("sal.h", empty), "SAL_ASSUME").end_line == 1


def test_systemverilog_assertion_macros_read_past_strings_and_comments() -> None:
    # a `define's body is left as it is with CRLF line ends too
    define = b"`define CHECK(a, b) \\\r\n  `ASSERT(Chk, a |-> b, clk, rst)\r\n"
    assert rewritten("systemverilog", define) == define
    # a `)` in a comment inside the call does not close it: the rest of the call and the module are kept
    source = (
        b"module m (input logic clk_i);\n"
        b"  `ASSERT(Foo_A, a |-> b, // a) holds\n"
        b"          clk_i, !rst_ni)\n"
        b"  function automatic int f(int x);\n"
        b"    return x;\n"
        b"  endfunction\n"
        b"endmodule\n"
    )
    blanked = rewritten("systemverilog", source)
    assert b"clk_i, !rst_ni)" not in blanked and b"function automatic" in blanked
    result = parse_spans("m.sv", source)
    assert not result.had_errors and [s.qualname for s in result.spans] == ["m", "m", "m.f"]
    # `##` in a message is no property: the call is kept (blanked, it left `if (ok) else`, an error)
    message = (
        b"class t extends uvm_test;\n"
        b"  task run_phase(uvm_phase phase);\n"
        b"    if (ok)\n"
        b'      `uvm_info("t", $sformatf("### core = %s", core), UVM_LOW)\n'
        b"    else\n"
        b'      `uvm_error("t", "failed")\n'
        b"  endtask\n"
        b"endclass\n"
    )
    assert rewritten("systemverilog", message) == message
    assert not parse_spans("t.sv", message).had_errors


def test_docs_lose_the_box_drawn_around_them_and_keep_their_lines() -> None:
    # VHDL's and Rust's line comments end in their newline: the doc's lines were double-spaced
    vhdl = (
        b"-- ================================================================ --\n"
        b"-- NEORV32 SoC - Generic Cache                                      --\n"
        b"-- ---------------------------------------------------------------- --\n"
        b"-- The cache is direct-mapped and writes back.                      --\n"
        b"-- ================================================================ --\n"
        b"entity neorv32_cache is\nend entity;\n"
    )
    assert find_in(parse_spans("cache.vhd", vhdl), "neorv32_cache").doc == (
        "NEORV32 SoC - Generic Cache\nThe cache is direct-mapped and writes back."
    )
    rust = b"/// Pops an entry from the notified list.\n///\n/// The entry moves to the idle list.\nfn pop() {}\n"
    assert find_in(parse_spans("set.rs", rust), "pop").doc == (
        "Pops an entry from the notified list.\n\nThe entry moves to the idle list."
    )
    c = b"/********************\n * Frobs the widget. *\n * Twice.            *\n ********************/\n"
    c += b"void frob(void) {}\n"
    assert find_in(parse_spans("w.c", c), "frob").doc == "Frobs the widget.\nTwice."
    # one line in a box of slashes; a diagram's corners and a sentence's last dash are text
    ts = b"//////////\n//     $ZodString      //////////\n//////////\nexport interface $ZodStringDef {}\n"
    assert find_in(parse_spans("s.ts", ts), "$ZodStringDef").doc == "$ZodString"
    framed = b"// --- http2 ---\nexport type CreateHTTP2HandlerOptions = {}\n"
    assert find_in(parse_spans("standalone.ts", framed), "CreateHTTP2HandlerOptions").doc == "http2"
    diagram = b"# Given:\n#   +-----+\n#   | a |\n#   +-----+\n# the value --\ndef given():\n    pass\n"
    assert find_in(parse_spans("g.py", diagram), "given").doc == "Given:\n  +-----+\n  | a |\n  +-----+\nthe value --"


def test_the_docs_and_signatures_of_hardware_and_shader_languages() -> None:
    assert find("uart_tx.sv", "uart_tx", "class").doc == "Shifts a byte out on `tx`, least significant bit first."
    assert find("uart_tx.sv", "uart_tx", "class").signature == (  # the whole head, less the comment in it
        "module uart_tx import uart_pkg::*; #(parameter int ClkPerBit = 16) "
        "(input logic clk_i, input logic [7:0] data_i, output logic tx_o)"
    )
    assert find("uart_tx.sv", "uart_pkg.parity_of").doc == "Even parity of one byte."
    sends = [(s.start_line, s.doc) for s in parsed("uart_tx.sv").spans if s.qualname == "uart_driver.send"]
    assert sends == [(44, ""), (52, "Drives one byte on the interface.")]  # the prototype, the body outside
    assert find("counter.v", "counter", "class").doc == "Counts up while `en` is high; wraps at 2**WIDTH."
    crc = (  # a function's head over its lines: through its ports (GrammarSpec.head_end_types)
        b"package crc_pkg;\n  function automatic logic [7:0]\n      crc8(input logic [7:0] crc,  // running\n"
        b"           input logic [7:0] data);\n    return crc ^ data;\n  endfunction\nendpackage\n"
    )
    assert find_in(parse_spans("crc_pkg.sv", crc), "crc_pkg.crc8").signature == (
        "function automatic logic [7:0] crc8(input logic [7:0] crc, input logic [7:0] data)"
    )
    assert find("fifo.vhd", "fifo_pkg.clog2").doc == "The number of bits needed to count to `n`."  # --
    assert find("fifo.vhd", "fifo_pkg.clog2").signature == "function clog2(n : positive) return natural"
    assert find("fifo.vhd", "fifo", "class").doc == "A first-in first-out queue of DEPTH words."
    assert find("fifo.vhd", "fifo.rtl.clear").doc == "Clears a status flag."
    assert find("lighting.frag", "diffuse").doc == "Lambertian diffuse term of one light, fading to zero at its radius."
    assert find("tonemap.hlsl", "ToneMapConstants").doc == "Exposure settings, set once per frame."
    assert find("tonemap.hlsl", "ToneMapConstants").signature == "cbuffer ToneMapConstants : register(b0)"
    assert find("tonemap.hlsl", "ToneMap.Reinhard").doc == "Reinhard's operator, extended to map `white` to 1."
    assert find("tonemap.hlsl", "ToneMapPS").signature == "float4 ToneMapPS(VSOutput input) : SV_Target"
    assert find("tonemap.hlsl", "ToneMapCS").doc == "Maps the HDR input to the LDR output, one thread per pixel."
    assert find("tonemap.hlsl", "ToneMapCS").signature == (
        '[RootSignature("DescriptorTable(SRV(t0), UAV(u0)), CBV(b0)")] [numthreads(8, 8, 1)] '
        "void ToneMapCS(uint3 id : SV_DispatchThreadID)"
    )


def test_a_shader_named_by_its_stage_is_glsl_or_hlsl_by_its_text() -> None:
    glsl = b"#version 450\nlayout (location = 0) out vec4 outColor;\nvoid main() { outColor = vec4(1.0); }\n"
    hlsl = b"float4 main(float2 uv : TEXCOORD0) : SV_TARGET\n{\n    return float4(uv, 0, 1);\n}\n"
    vulkan = b"struct VSInput\n{\n[[vk::location(0)]] float3 Pos : POSITION0;\n};\n"
    assert language_for("shaders/glsl/blur.frag", glsl) == "glsl"
    assert language_for("shaders/hlsl/blur.frag", hlsl) == "hlsl"
    assert language_for("shaders/hlsl/base.vert", vulkan) == "hlsl"
    assert language_for("shaders/hlsl/cull.comp", b"cbuffer Params : register(b0) { uint n; };\n") == "hlsl"


def test_hlsl_buffers_with_registers_and_stacked_attributes_parse_cleanly() -> None:
    source = (
        b"cbuffer A : register(b0) { float a; };\n"
        b"tbuffer B : register(t1, space2)\n{\n    float b;\n};\n"
        b"[RootSignature(Sig)]\n[numthreads(8, 8, 1)]\nvoid CS(uint3 id : SV_DispatchThreadID) {}\n"
    )
    r = parse_spans("x.hlsl", source)
    assert not r.had_errors
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in r.spans if s.kind != "module"] == [
        ("struct", "A", 1, 1),
        ("struct", "B", 2, 5),
        ("function", "CS", 6, 8),
    ]
    assert len(rewritten("hlsl", source)) == len(source)
    assert rewritten("hlsl", source).count(b"\n") == source.count(b"\n")


def docs_of(path: str, source: bytes) -> dict[str, str]:
    return {s.qualname: s.doc for s in parse_spans(path, source).spans if s.kind != "module"}


def test_an_ocaml_doc_comment_belongs_to_the_item_it_touches() -> None:
    # odoc's rule: right below an item (no blank line) a doc comment is that item's, else the one below's
    dense = b"val a : int\n(** doc a *)\nval b : int\n(** doc b *)\nval c : int\n(** doc c *)\n"
    assert docs_of("x.mli", dense) == {"a": "doc a", "b": "doc b", "c": "doc c"}
    assert docs_of("x.ml", dense.replace(b"val", b"let").replace(b" : int", b" = 1")) == {
        "a": "doc a",
        "b": "doc b",
        "c": "doc c",
    }
    spaced = b"(** The type. *)\ntype t\n\n(** Make one. *)\nval create : unit -> t\n\n"
    spaced += b"val size : t -> int\n(** Its size. *)\n"
    assert docs_of("x.mli", spaced) == {"t": "The type.", "create": "Make one.", "size": "Its size."}
    # odoc's stop comment and an empty one are no doc
    assert docs_of("x.mli", b"(**/**)\nval hidden : int\n\n(**)\nval bare : int\n") == {"hidden": "", "bare": ""}
    # a functor's parameter states what its argument must have: no definition of the file's
    functor = b"module Make (X : sig type t val compare : t -> t -> int end) = struct\n  let id x = x\nend\n"
    assert [(s.kind, s.qualname) for s in parse_spans("x.ml", functor).spans] == [
        ("module", "x"),
        ("module", "Make"),
        ("function", "Make.id"),
    ]


def test_a_julia_signature_is_its_whole_head() -> None:
    # the grammar has no body field: the `signature` node is the head, over its lines, past a macro around it
    src = b"function Dense(\n    (in, out)::Pair, sigma = identity;\n    bias = true)\n  1\nend\n"
    src += b"@inline function f(x::Int) # trailing\n  x\nend\nfunction g end\n"
    sigs = {s.qualname: s.signature for s in parse_spans("a.jl", src).spans if s.kind != "module"}
    assert sigs == {
        "Dense": "function Dense((in, out)::Pair, sigma = identity; bias = true)",
        "f": "function f(x::Int)",
        "g": "function g",
    }


def test_a_matlab_pragma_is_not_the_help_text() -> None:
    src = b"function [a, b] = f(x, ...\n    y) %#ok<INUSD>\n% F pairs its inputs.\na = x; b = y;\nend\n"
    (f,) = [s for s in parse_spans("f.m", src).spans if s.kind == "function"]
    assert f.doc == "F pairs its inputs." and f.signature == "function [a, b] = f(x, ... y)"


def test_a_file_without_a_final_line_end_keeps_its_last_body() -> None:
    # tree-sitter-matlab reads a final `end` with no line end after it as an error: the function (whose own `end`
    # a function file may leave out) lost its body after its third line
    src = b"function v = get(f)\n% GET reads the domain.\nv = f.domain;\nif isempty(v)\n  v = [-1 1];\nend"
    r = parse_spans("get.m", src)
    (f,) = [s for s in r.spans if s.kind == "function"]
    assert (f.start_line, f.end_line) == (1, 6) and not r.had_errors
    assert f.text.endswith("  v = [-1 1];\nend") and f.doc == "GET reads the domain."
    py = parse_spans("a.py", b"def f():\n    return 1")  # the spans' text is the file's, not the grammar's
    assert [(s.qualname, s.end_line, s.text) for s in py.spans][1] == ("f", 2, "def f():\n    return 1")


def test_a_parse_that_runs_too_long_is_given_up_for_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    # tree-sitter-julia takes time quadratic in lines like `A' * x`: such a file must not hold indexing up
    slow = b"using LinearAlgebra\n" + b"function f(A, x)\n    A' * x\nend\n" * 3000
    monkeypatch.setattr(parsing, "PARSE_SECONDS", 0.05)
    r = parse_spans("slow.jl", slow)
    assert r.language == "julia" and not r.parsed and {s.kind for s in r.spans} == {"window"}
    assert file_imports(slow, "julia") == []  # the context's parse has the same budget
    monkeypatch.setattr(parsing, "PARSE_SECONDS", 10.0)
    fine = parse_spans("fine.jl", b"f(x) = 1\n")  # the parser given up is reset, not resumed
    assert fine.parsed and not fine.had_errors and [s.qualname for s in fine.spans] == ["fine", "f"]


def test_typescript_generic_call_signatures_after_a_member_keep_the_file_parsed() -> None:
    # Hono's overloads: a generic call signature under another member was read as that member's type
    # arguments, and the rest of the file was one error (types.ts: 47 of its 80 definitions)
    src = (
        b"export interface HandlerInterface<E extends Env = Env> {\n"
        b"  // app.get(handler)\n"
        b"  <P extends string = string>(handler: H<E, P>): HonoBase<E>\n"
        b"\n"
        b"  // app.get(handler x2) // two\n"
        b"  <\n"
        b"    P extends string = string,\n"
        b"    I extends Input = BlankInput,\n"
        b"  >(\n"
        b"    ...handlers: [H<E, P, I>, H<E, P, I>]\n"
        b"  ): HonoBase<E>\n"
        b"}\n"
        b"\n"
        b"interface Overloads {\n"
        b"  a(): void\n"
        b"  <T>(x: T): T\n"
        b"  <U extends Input = {}>(y: U): U\n"
        b"}\n"
        b"\n"
        b"export interface LogFn {\n"
        b"  // a first member after a comment, then one after a semicolon\n"
        b"  <T extends string>(msg: T): void;\n"
        b"  <T, U>(obj: T, msg?: U): void; // typed\n"
        b"  <T>(obj: T): void\n"
        b"}\n"
        b"\n"
        b"export type MergePath<A extends string, B extends string> = `${A}${B}`\n"
        b"\n"
        b"export const createFactory = <E extends Env = Env>(init?: Init<E>): Factory<E> => new Factory<E>(init)\n"
    )
    result = parse_spans("types.ts", src)
    assert not result.had_errors
    assert [(s.kind, s.name) for s in result.spans if s.kind != "module"] == [
        ("interface", "HandlerInterface"),
        ("interface", "Overloads"),
        ("interface", "LogFn"),
        ("type", "MergePath"),
        ("function", "createFactory"),
    ]
    assert parse_spans("types.ts", src).spans[1].text.startswith("export interface HandlerInterface")
    # the tree of rewritten text is not kept for an incremental parse: an editor's edits describe the file
    assert result.tree is None
    assert parse_spans("plain.ts", b"export function f() {}\n").tree is not None
    assert next(s for s in result.spans if s.name == "Overloads").end_line == 18  # both signatures read
    # variance annotations and `export type *` (TypeScript 4.7, 5.0) are no syntax error: a file is not listed
    # as broken for them
    modern = (
        b"export type * from './types'\n"
        b"export interface ZodType<\n"
        b"  /** @ts-ignore Cast variance */\n"
        b"  out Output = unknown,\n"
        b"  out Internals extends Base<Output> = Base<Output>,\n"
        b"> {\n"
        b"  parse(x: unknown): Output\n"
        b"}\n"
        b"export interface ActorLogic<in out TEvent extends EventObject, in TInput = unknown> {}\n"
    )
    modern_result = parse_spans("schemas.ts", modern)
    assert not modern_result.had_errors
    assert [s.name for s in modern_result.spans if s.kind != "module"] == ["ZodType", "ActorLogic"]
    assert "out Output = unknown" in modern_result.spans[1].signature  # read as written
    # a generic arrow on the next line of an expression, type arguments on the next line, and a TSX element
    # are left alone
    for left_alone in [
        b"const r = f(a,\n  <T>(x: T) => x)\n",
        b"export const createSelector = (a: number) =>\n  <T>(x: T): T => x\n",
        b"function f() {\n  return\n  <T>(x: T) => x\n}\n",
        b"export interface Props extends Base\n  <A, B> {\n  x: A\n}\n",
        b"for (const k in obj) {\n  f(k, out)\n}\nconst m = new Map<string, number>()\n",
        b"export * from './all'\nexport type { A } from './a'\n",
    ]:
        assert rewritten("typescript", left_alone) == left_alone
        assert not parse_spans("call.ts", left_alone).had_errors
    tsx = b"export function App() {\n  return (\n    <div>\n      <Item>(one)</Item>\n    </div>\n  )\n}\n"
    assert not parse_spans("App.tsx", tsx).had_errors


def test_rewrites_keep_length_and_lines_and_read_a_hostile_line_once() -> None:
    for language, hostile in [
        ("kotlin", b"  is A" + b" if" * 20_000 + b"\n"),
        ("kotlin", b"  is A if (" + b"(" * 20_000 + b"\n"),
        ("kotlin", b"@A " * 30_000 + b"\nget()\n"),
        ("kotlin", b"is A" + b" if" * 66 + b" " * 100_000 + b"\n"),
        ("typescript", b"interface I {\n  a(): void\n" + b"  <" * 50_000 + b"\n}\n"),
        ("typescript", b",/*" * 50_000 + b"\n" + b"<" + b" " * 100_000 + b"\n"),
        ("typescript", (b"x // " + b"/" * 3_000 + b"\n") * 2_000),
        ("typescript", b"a" * 100_000 + b"\n" + b" " * 100_000 + b"<T>(x)\n"),
    ]:
        out = rewritten(language, hostile)
        assert len(out) == len(hostile) and out.count(b"\n") == hostile.count(b"\n")
    data = KOTLIN_THE_GRAMMAR_MISREADS.replace(b"\n", b"\r\n")
    out = rewritten("kotlin", data)
    assert len(out) == len(data) and out.count(b"\r\n") == data.count(b"\r\n") and out != data
    assert rewritten("python", data) is data


ASSIGNED = b"""'use strict';

/**
 * Send a response.
 */
res.send = function send(body) {
  return this.end(body);
};

app.handle = (req, res) => {
  return router.handle(req, res);
};

Router.prototype.route = function (path) {
  return new Route(path);
};

res.locals = {};
module.exports = createApplication;

const pages = (function* () {
  yield 1;
});
"""


@pytest.mark.parametrize("path", ["response.js", "response.ts"])
def test_a_function_assigned_to_a_property_is_a_definition(path: str) -> None:
    """``res.send = function send(body) {`` defines a method by assignment (Express, prototypes, zod's
    ``inst.check = (...) => {``); a property given a value that is not a function is not one. A function
    bound to a name in parentheses is a definition too."""
    functions = [s for s in parse_spans(path, ASSIGNED).spans if s.kind == "function"]
    assert [(s.qualname, s.start_line, s.end_line) for s in functions] == [
        ("send", 6, 8),
        ("handle", 10, 12),
        ("route", 14, 16),
        ("pages", 21, 23),
    ]
    assert functions[0].doc == "Send a response."
