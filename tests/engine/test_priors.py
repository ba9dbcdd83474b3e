"""Path and kind priors on a real index: code in a `doc/` folder is code, an exact definition name keeps its
rank wherever it lives, prose still ranks below code for a description, a function that only declares ranks
below the one that does the work, and the priors are a setting."""

from pathlib import Path

import pytest

from spyglass.engine.workspace import Workspace

# a Go project that keeps real code in package doc/ (as spf13/cobra does), with prose and callers around it
FILES = {
    "doc/gen_man.go": """package doc

import (
	"io"
	"os"
	"path/filepath"
)

// GenManTree will generate a man page for this command and all descendants
// in the directory given.
func GenManTree(cmd *Command, header *GenManHeader, dir string) error {
	return GenManTreeFromOpts(cmd, GenManTreeOptions{Header: header, Path: dir})
}

// GenManTreeFromOpts generates a man page for the command and all descendants.
func GenManTreeFromOpts(cmd *Command, opts GenManTreeOptions) error {
	for _, c := range cmd.Commands() {
		if err := GenManTreeFromOpts(c, opts); err != nil {
			return err
		}
	}
	f, err := os.Create(filepath.Join(opts.Path, cmd.Name()+".1"))
	if err != nil {
		return err
	}
	defer f.Close()
	return GenMan(cmd, opts.Header, f)
}

// GenMan writes the man page of one command to w.
func GenMan(cmd *Command, header *GenManHeader, w io.Writer) error {
	_, err := io.WriteString(w, cmd.Name())
	return err
}
""",
    "doc/gen_man_test.go": """package doc

import "testing"

func TestGenManTree(t *testing.T) {
	if err := GenManTree(rootCmd, nil, t.TempDir()); err != nil {
		t.Fatal(err)
	}
}
""",
    "cmd/gen.go": """package cmd

import "example.com/app/doc"

// genMan calls GenManTree for the root command.
func genMan() error {
	return doc.GenManTree(rootCmd, nil, "./man")
}
""",
    "cmd/root.go": """package cmd

// Execute runs the root command and prints its error.
func Execute() error {
	return rootCmd.Execute()
}
""",
    "docs/man_pages.md": """# Man pages

Generating man pages for every command of your application is easy: call GenManTree with the root
command, a header and a directory, and it will generate one man page for each command and its descendants.
""",
    "README.md": "# app\n\nMan pages: see docs/man_pages.md and GenManTree.\n",
}

DESCRIPTION = "generate a man page for each command and its descendants"


def _workspace(tmp_path: Path, settings: str = "", files: dict[str, str] = FILES) -> Path:
    root = tmp_path / "app"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    if settings:
        (root / ".spyglass.toml").write_text(settings, encoding="utf-8")
    return root


def _search(root: Path, query: str, *, embed: bool) -> list[dict]:
    with Workspace.open(root, writer=True, overrides={"embed": embed}) as ws:
        ws.index()
        return ws.search(query).results


@pytest.mark.parametrize("embed", [False, True], ids=["lexical", "hybrid"])
def test_an_exact_definition_in_a_doc_folder_comes_first_and_is_not_weak(tmp_path: Path, embed: bool):
    results = _search(_workspace(tmp_path), "GenManTree", embed=embed)
    first = results[0]
    assert (first.path, first.symbol) == ("doc/gen_man.go", "GenManTree")
    assert first.score >= 0.5  # "strong" by the scale the MCP tools describe


def test_an_exact_definition_in_a_test_file_keeps_its_rank(tmp_path: Path):
    results = _search(_workspace(tmp_path), "TestGenManTree", embed=False)
    assert (results[0].path, results[0].symbol) == ("doc/gen_man_test.go", "TestGenManTree")
    assert results[0].score >= 0.5


def test_prose_in_docs_still_ranks_below_code_for_a_description(tmp_path: Path):
    paths = [r.path for r in _search(_workspace(tmp_path), DESCRIPTION, embed=False)]
    assert paths[0] == "doc/gen_man.go"
    if "docs/man_pages.md" in paths:
        assert paths.index("docs/man_pages.md") > paths.index("doc/gen_man.go")


def test_turning_the_priors_off_changes_the_order(tmp_path: Path):
    on = [r.path for r in _search(_workspace(tmp_path / "on"), DESCRIPTION, embed=False)]
    root = _workspace(tmp_path / "off", "[search]\npriors = false\n")
    off = [r.path for r in _search(root, DESCRIPTION, embed=False)]
    assert off[0] == "docs/man_pages.md" and on[0] != off[0]


def test_prior_values_come_from_the_settings_file(tmp_path: Path):
    root = _workspace(tmp_path, "[search.priors]\nprose = 1.0\n")
    paths = [r.path for r in _search(root, DESCRIPTION, embed=False)]
    assert paths[0] == "docs/man_pages.md"


# an example program that says the description's words more literally than the code it illustrates (a whole
# program, long enough that the short-code rule of a description in words leaves it alone: the examples prior
# orders them)
EXAMPLE_TEXT = """package main

// Generate a man page for each command into ./man.
func main() {
	rootCmd := &cobra.Command{Use: "app", Short: "An example application"}
	rootCmd.AddCommand(&cobra.Command{Use: "serve", Short: "Serve the example"})
	rootCmd.AddCommand(&cobra.Command{Use: "version", Short: "Print the version"})
	out := "./man"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		panic(err)
	}
	header := &doc.GenManHeader{
		Title:   "APP",
		Section: "1",
		Source:  "example",
		Manual:  "Example manual",
	}
	if err := doc.GenManTree(rootCmd, header, out); err != nil {
		panic(err)
	}
	fmt.Println("wrote the pages to", out)
}

// ExamplePages lists the man pages the example writes.
func ExamplePages() []string {
	return []string{"app.1"}
}
"""
EXAMPLE = "_examples/manpages/main.go"


def _with_example(tmp_path: Path, settings: str = "", where: str = EXAMPLE) -> Path:
    root = _workspace(tmp_path, settings)
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    (root / where).write_text(EXAMPLE_TEXT, encoding="utf-8")
    return root


# an examples folder, or a file named as an example beside the code (sphinx's doc/usage/example_google.py)
@pytest.mark.parametrize("where", [EXAMPLE, "doc/example_manpages.go"])
def test_example_code_ranks_below_the_code_it_shows(tmp_path: Path, where: str):
    paths = [r.path for r in _search(_with_example(tmp_path / "on", where=where), DESCRIPTION, embed=False)]
    assert paths[0] == "doc/gen_man.go"
    assert paths.index(where) > paths.index("doc/gen_man.go")
    # without the example prior the example's wording wins: the prior is what orders them
    root = _with_example(tmp_path / "off", "[search.priors]\nexamples = 1.0\n", where)
    assert [r.path for r in _search(root, DESCRIPTION, embed=False)][0] == where


def test_an_exact_name_in_an_example_keeps_its_rank(tmp_path: Path):
    results = _search(_with_example(tmp_path), "ExamplePages", embed=False)
    assert (results[0].path, results[0].symbol) == (EXAMPLE, "ExamplePages")
    assert results[0].score >= 0.5


# a plugin system: the hook's specification says in words what the implementation does in code
PLUGIN_FILES = {
    "plug/hookspec.py": '''"""Hook specifications: what plugins may implement."""


def collect_file(path, parent):
    """Create a collector for the given file path, or return None when the file is not a test file.

    Any plugin may create a collector for a file path; the first collector returned wins.
    """


def report_header(config):
    """Return lines for the header of the terminal report."""
''',
    "plug/python.py": '''from .nodes import Module


def collect_file(path, parent):
    """Create a Module collector for a test_*.py file."""
    if path.suffix == ".py" and path.name.startswith("test_"):
        return Module.from_parent(parent, path=path)
    return None
''',
    "plug/nodes.py": """class Module:
    @classmethod
    def from_parent(cls, parent, path):
        module = cls()
        module.parent, module.path = parent, path
        return module
""",
}

PLUGIN_QUERY = "create a collector for a test file path"


def test_the_implementation_ranks_above_its_specification(tmp_path: Path):
    first = _search(_workspace(tmp_path / "on", files=PLUGIN_FILES), PLUGIN_QUERY, embed=False)[0]
    assert (first.path, first.symbol) == ("plug/python.py", "collect_file")
    # the specification's docstring says the query's words; without the declarations prior it wins
    root = _workspace(tmp_path / "off", "[search.priors]\ndeclarations = 1.0\n", files=PLUGIN_FILES)
    first = _search(root, PLUGIN_QUERY, embed=False)[0]
    assert (first.path, first.symbol) == ("plug/hookspec.py", "collect_file")


def test_a_declaration_named_exactly_keeps_its_rank(tmp_path: Path):
    first = _search(_workspace(tmp_path, files=PLUGIN_FILES), "report_header", embed=False)[0]
    assert (first.path, first.symbol) == ("plug/hookspec.py", "report_header")
    assert first.score >= 0.5


# a web app whose logic lives in its components and in an R script, beside TypeScript, Python and prose that
# say the same words: component code and code in a language without a grammar here rank as code, not as prose
APP_FILES = {
    "src/components/CartSummary.vue": """<script setup lang="ts">
import { computed, ref } from 'vue'
import { fetchCart } from '../api/cart'

const cart = ref(await fetchCart())
const code = ref('')

function applyDiscountCode() {
  const percent = cart.value.codes[code.value.trim().toUpperCase()]
  if (percent === undefined) {
    throw new Error('unknown discount code')
  }
  cart.value.total = Math.round(cart.value.total * (100 - percent)) / 100
}
</script>

<template>
  <input v-model="code" placeholder="Discount code">
  <button @click="applyDiscountCode">Apply</button>
  <p>Total: {{ cart.total }}</p>
</template>
""",
    "src/api/cart.ts": """export interface Cart {
  total: number
  codes: Record<string, number>
}

export async function fetchCart(): Promise<Cart> {
  const reply = await fetch('/api/cart')
  return (await reply.json()) as Cart
}
""",
    "README.md": """# Shop

The cart page shows the total. Type a discount code under it and the total is lowered by the code's percent.
Old log files are rotated and compressed every night by the tools folder.
""",
    "tools/rotate_logs.R": """# Rotate the shop's log files: compress each old log with gzip and keep seven of them.
rotate_logs <- function(dir, keep = 7) {
  logs <- list.files(dir, pattern = "\\\\.log$", full.names = TRUE)
  old <- logs[order(file.mtime(logs), decreasing = TRUE)][-seq_len(keep)]
  for (log in old) {
    system2("gzip", c("-f", log))
  }
}

rotate_logs("/var/log/shop")
""",
    "app/logging_setup.py": '''import logging


def configure_logging(path):
    """Write the shop's log to path."""
    logging.basicConfig(filename=path, level=logging.INFO)
''',
}


@pytest.mark.parametrize("embed", [False, True], ids=["lexical", "hybrid"])
def test_component_code_and_code_without_a_grammar_rank_as_code(tmp_path: Path, embed: bool):
    root = _workspace(tmp_path, files=APP_FILES)
    first = _search(root, "apply a discount code to the cart total", embed=embed)[0]
    assert (first.path, first.kind, first.symbol) == ("src/components/CartSummary.vue", "function", "applyDiscountCode")
    first = _search(root, "compress old log files with gzip", embed=embed)[0]
    assert first.path == "tools/rotate_logs.R"  # R has no grammar here: windows, but code
