"""What the model reads for a span (engine/embedtext.py): a definition without its path, so a moved file
keeps its vectors; a module span named by its path's words, which say what the file holds."""

from __future__ import annotations

import pytest

from spyglass.engine.embedtext import embed_hash, embed_text, module_words


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("lib/sinatra/show_exceptions.rb", "sinatra show exceptions"),
        ("axum/src/extract/mod.rs", "axum extract mod"),
        (
            "packages/vitest/src/node/reporters/jsonReporter.ts",
            "packages vitest node reporters jsonreporter json reporter",
        ),
        ("Makefile", "makefile"),
    ],
)
def test_a_module_is_named_by_its_path_words(path: str, words: str):
    assert module_words(path) == words
    assert embed_text("module", "x", "", "", "body", 256, "summary", path).startswith(f"module {words}\n")


def test_a_definition_is_embedded_the_same_wherever_its_file_is():
    args = ("function", "render", "def render(exc)", "Render a traceback.", "return page(exc)", 256, "summary")
    a, b = embed_text(*args, path="a/errors.py"), embed_text(*args, path="b/moved.py")
    assert a == b and embed_hash(a, 256) == embed_hash(b, 256)
    moved = [embed_text("module", "", "", "", "x = 1", 256, "summary", p) for p in ("a/errors.py", "b/moved.py")]
    assert moved[0] != moved[1]
