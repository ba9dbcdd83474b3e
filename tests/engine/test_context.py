"""Workspace.context and Workspace.span(context_lines=...): real files, a real (lexical) index."""

import dataclasses
from pathlib import Path

import pytest

from spyglass.engine.context import IMPORTS, file_imports
from spyglass.engine.errors import OutsideWorkspace
from spyglass.engine.languages import grammar_for
from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}

CART = '''\
"""Shopping carts."""


class Cart:
    """A list of items."""

    def __init__(self):
        self.items = []

    def add_item(self, item):
        self.items.append(item)

    def total(self):
        return sum(price_of(i) for i in self.items)


def price_of(item):
    return item.price
'''

MAIN = '''\
import os
from shop.cart import (
    Cart,
)

LIMIT = 10


def checkout(items):
    """Put the items in a cart and format its total."""
    cart = Cart()
    for it in items:
        cart.add_item(it)
    return format_total(cart.total(), os.sep)


def format_total(value, sep):
    return f"{value:.2f}{sep}"
'''

# same names as shop/cart.py, in a file main.py does not import: never preferred over the imported ones
DECOY = """\
def add_item(bag, item):
    bag.append(item)


def total(bag):
    return len(bag)
"""

GO = """\
package main

import (
\t"fmt"
\t"example.com/shop/inventory"
)

import "os"

// Run prints the stock.
func Run() {
\tfmt.Println(inventory.Count(), os.Args)
}
"""

TS = """\
import { Cart } from "./cart";
import * as path from "path";
const fs = require("fs");

export function load(name: string): Cart {
  const util = require("util");
  return new Cart(path.join(name), fs, util);
}
"""


@pytest.fixture
def ws(tmp_path: Path):
    root = tmp_path / "ws"
    files = {
        "shop/__init__.py": "",
        "shop/cart.py": CART,
        "shop/main.py": MAIN,
        "misc/decoy.py": DECOY,
        "cmd/main.go": GO,
        "web/load.ts": TS,
        "notes.txt": "import nothing from here\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        yield ws


def _line(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def test_context_of_a_line_in_a_function(ws: Workspace):
    ctx = ws.context("shop/main.py", _line(MAIN, "cart.add_item(it)"))
    assert {f.name for f in dataclasses.fields(ctx)} == {
        "path",
        "line",
        "language",
        "span",
        "imports",
        "references",
        "message",
    }
    assert (ctx.path, ctx.language, ctx.message) == ("shop/main.py", "python", None)
    span = ctx.span
    assert span.symbol == "checkout" and span.kind == "function"
    assert span.signature == "def checkout(items)"
    assert span.doc == "Put the items in a cart and format its total."
    assert (span.start_line, span.end_line) == (_line(MAIN, "def checkout"), _line(MAIN, "return format_total"))
    assert ctx.imports == ["import os", "from shop.cart import ( Cart, )"]

    refs = [(r.symbol, r.path) for r in ctx.references]
    # the same file first, then the imported file, in order of first use in the code (the docstring's
    # "total" does not count); the decoy's same-named functions lose to the imported file's
    assert refs == [
        ("format_total", "shop/main.py"),
        ("Cart", "shop/cart.py"),
        ("Cart.add_item", "shop/cart.py"),
        ("Cart.total", "shop/cart.py"),
    ]
    assert all(r.signature for r in ctx.references)
    assert ctx.references[0].signature == "def format_total(value, sep)"


def test_references_of_a_method_skip_its_own_class_and_itself(ws: Workspace):
    ctx = ws.context("shop/cart.py", _line(CART, "return sum("))
    assert ctx.span.symbol == "Cart.total"
    assert [r.symbol for r in ctx.references] == ["price_of"]


def test_a_line_outside_any_definition(ws: Workspace):
    ctx = ws.context("shop/main.py", _line(MAIN, "LIMIT = 10"))
    assert ctx.span is None and ctx.references == []
    assert "not inside a definition" in ctx.message
    assert ctx.imports == ["import os", "from shop.cart import ( Cart, )"]  # still useful there


def test_unindexed_missing_and_outside_files(ws: Workspace):
    (ws.root / "shop" / "late.py").write_text("import sys\n\ndef late():\n    return sys.argv\n")
    ctx = ws.context("shop/late.py", 3)
    assert ctx.span is None and "not indexed" in ctx.message
    assert ctx.imports == ["import sys"]  # read from the file itself

    ctx = ws.context("shop/gone.py", 1)
    assert ctx.span is None and "does not exist" in ctx.message and ctx.imports == []

    assert "past the end" in ws.context("shop/main.py", 500).message
    with pytest.raises(OutsideWorkspace):
        ws.context("../elsewhere.py", 1)
    with pytest.raises(OutsideWorkspace):
        ws.context(ws.root.parent / "elsewhere.py", 1)
    with pytest.raises(ValueError):
        ws.context("shop/main.py", 0)


def test_context_follows_unsaved_buffers(ws: Workspace):
    text = (
        MAIN.replace("import os\n", "import os\nimport json\n") + "\n\ndef dump(items):\n    return checkout(items)\n"
    )
    ws.update_file("shop/main.py", text=text, embed=False)
    ctx = ws.context("shop/main.py", _line(text, "return checkout(items)"))
    assert ctx.span.symbol == "dump"
    assert ctx.imports[:2] == ["import os", "import json"]
    assert [r.symbol for r in ctx.references] == ["checkout"]


def test_go_and_typescript_imports(ws: Workspace):
    ctx = ws.context("cmd/main.go", _line(GO, "fmt.Println"))
    assert ctx.language == "go" and ctx.span.symbol == "Run"
    assert ctx.span.doc == "Run prints the stock."
    assert ctx.imports == ['import ( "fmt" "example.com/shop/inventory" )', 'import "os"']

    ctx = ws.context("web/load.ts", _line(TS, "return new Cart"))
    assert ctx.language == "typescript" and ctx.span.symbol == "load"
    # a require inside a function is not a file import
    assert ctx.imports == [
        'import { Cart } from "./cart";',
        'import * as path from "path";',
        'const fs = require("fs");',
    ]


def test_unknown_language_has_no_imports(ws: Workspace):
    ctx = ws.context("notes.txt", 1)
    assert ctx.imports == [] and ctx.span is None and ctx.language == "text"


SAMPLES = {
    "python": (b"import a\nfrom b import c\ndef f():\n    import d\n", 3),
    "javascript": (b"import x from 'x';\nconst y = require('y');\nfunction f() { require('z'); }\n", 2),
    "go": (b'package p\nimport "fmt"\nimport (\n\t"os"\n)\nfunc f() {}\n', 2),
    "rust": (b"use std::io;\nextern crate foo;\nmod m { use super::x; }\n", 3),
    "java": (b"package p;\nimport java.util.List;\nclass A {}\n", 1),
    "c": (b'#include <stdio.h>\n#ifdef X\n#include "y.h"\n#endif\n', 2),
    "cpp": (b"#include <vector>\nint main() { return 0; }\n", 1),
    "objective-c": (b'#import <Foundation/Foundation.h>\n#include "b.h"\n@interface A : NSObject\n@end\n', 2),
    "csharp": (b"using System;\nnamespace N { using X.Y; class A {} }\n", 2),
    "ruby": (b"require 'json'\nrequire_relative \"cart\"\nputs 1\n", 2),
    "php": (b"<?php\nuse Foo\\Bar;\nrequire_once 'x.php';\n", 2),
    "bash": (b"source ./lib.sh\n. other.sh\necho hi\n", 2),
    "kotlin": (b"package a.b\n\nimport java.time.Instant\nimport kotlin.math.*\n\nfun f() = 1\n", 2),
    "scala": (b"package p\nimport scala.collection.mutable\nimport a.{B, C}\nobject O\n", 2),
    "swift": (b"import Foundation\nimport UIKit\nfunc f() {}\n", 2),
    "haskell": (b"module M where\n\nimport Data.List (sort)\nimport qualified Data.Map as Map\n\nf = 1\n", 2),
    "dart": (b"import 'dart:io';\nexport 'src/a.dart';\nvoid main() {}\n", 2),
    "lua": (b'local json = require("json")\nrequire "socket"\nlocal x = 1\n', 2),
    "zig": (b'const std = @import("std");\nconst m = @import("m.zig").x;\nfn f() void {}\n', 2),
    "elixir": (b"defmodule A do\n  alias B.C\n  import D\n  use E\n  require F\n  def f, do: g()\nend\n", 4),
    "julia": (b"module M\nusing LinearAlgebra\nimport Base: show\nf(x) = 1\nend\n", 2),
    "ocaml": (b'open Lwt.Infix\nlet f x =\n  let open Printf in\n  sprintf "%d" x\n', 2),  # a local open too
    "ocaml-interface": (b"open Types\nval f : int -> int\n", 1),
    "fsharp": (b"module Routing\n\nopen System\nopen Giraffe\n\nlet f x = x\n", 2),
    "groovy": (b"package a\nimport java.util.List\nimport static org.junit.Assert.*\nclass A {}\n", 2),
    "solidity": (b'import "./A.sol";\nimport {B} from "./B.sol";\ncontract C {}\n', 2),
    "fortran": (
        b"module m\n  use iso_fortran_env, only: dp => real64\n  use fpm_strings\n  implicit none\nend module m\n",
        2,
    ),
    "luau": (b'local Signal = require(script.Parent.Signal)\nlocal t = require("@pkg/t")\nlocal x = 1\n', 2),
    # a preload in a function is not the file's
    "gdscript": (
        b'extends Node2D\nconst E = preload("res://e.gd")\nvar t = load("t.tres")\nfunc f():\n\tload("x")\n',
        2,
    ),
    "starlark": (b'load("@rules_cc//cc:defs.bzl", "cc_library")\nload(":defs.bzl", "x")\ncc_library(name = "a")\n', 2),
    "vb": (b"Imports System.Text\nImports IO = System.IO\n\nModule M\n    Sub Main()\n    End Sub\nEnd Module\n", 2),
    "pascal": (b"unit U;\ninterface\nuses\n  SysUtils, Classes;\nimplementation\nuses Math;\nend.\n", 2),
    "ada": (b"with Ada.Text_IO; use Ada.Text_IO;\nwith Interfaces.C;\nprocedure Main is null;\n", 2),
    "systemverilog": (
        b'`include "uvm_macros.svh"\nimport uvm_pkg::*;\nmodule m import ibex_pkg::*; (input a);\n'
        b"  import util_pkg::clog2;\nendmodule\n",
        4,
    ),
    "vhdl": (b"library ieee;\nuse ieee.std_logic_1164.all;\nuse work.fifo_pkg.all;\nentity e is\nend entity;\n", 3),
    "glsl": (b'#version 450\n#extension GL_GOOGLE_include_directive : require\n#include "common.glsl"\n', 1),
    "hlsl": (b'#include "ColorSpace.hlsli"\nfloat4 main() : SV_Target { return 0; }\n', 1),
}


@pytest.mark.parametrize("language", sorted(IMPORTS))
def test_every_import_table_entry_fits_its_grammar(language: str):
    assert grammar_for(language) is not None
    data, count = SAMPLES.get(language, (b"import { a } from 'a';\n", 1))
    found = file_imports(data, language)
    assert len(found) == count, found
    assert all("\n" not in line and len(line) <= 200 for line in found)


def test_span_context_lines_are_clamped_to_the_file(ws: Workspace):
    lines = CART.splitlines()
    cart = ws.span_at("shop/cart.py", _line(CART, "class Cart"))
    plain = ws.span(cart.id)
    assert (plain.text_start_line, plain.text_end_line) == (plain.start_line, plain.end_line)

    wide = ws.span(cart.id, context_lines=2)
    assert wide.status == "current" and (wide.start_line, wide.end_line) == (plain.start_line, plain.end_line)
    assert (wide.text_start_line, wide.text_end_line) == (plain.start_line - 2, plain.end_line + 2)
    assert wide.text == "\n".join(lines[wide.text_start_line - 1 : wide.text_end_line])

    first = ws.span_at("shop/cart.py", 1)  # the module span: lines 1..N
    whole = ws.span(first.id, context_lines=50)
    assert (whole.text_start_line, whole.text_end_line) == (1, len(lines))

    price = ws.span_at("shop/cart.py", len(lines))  # the last function, to the end of the file
    tail = ws.span(price.id, context_lines=5)
    assert tail.text_end_line == len(lines) == tail.end_line
    assert tail.text_start_line == tail.start_line - 5
    assert tail.text == "\n".join(lines[tail.text_start_line - 1 :])

    (ws.root / "shop" / "cart.py").unlink()
    gone = ws.span(cart.id, context_lines=3)
    assert gone.status == "missing" and gone.text == ""
    assert (gone.text_start_line, gone.text_end_line) == (gone.start_line, gone.end_line)
