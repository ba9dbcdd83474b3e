"""`spyglass search --language/--kind` (in-process ``main``): unknown values are usage errors naming the valid
ones; language names are case-insensitive and accept the usual aliases."""

import json
from pathlib import Path

import pytest

from spyglass.cli.main import main
from spyglass.engine.languages import LANGUAGES
from spyglass.engine.spans import KINDS


@pytest.fixture
def indexed(polyglot: Path, monkeypatch) -> Path:
    monkeypatch.chdir(polyglot)
    assert main(["index", "--no-embed", "-q"]) == 0
    return polyglot


@pytest.mark.parametrize(
    ("option", "value", "valid"),
    [("--language", "klingon", ("python", "go", "typescript")), ("--kind", "galaxy", KINDS)],
)
def test_an_unknown_filter_value_is_a_usage_error_listing_the_valid_ones(indexed, capsys, option, value, valid):
    capsys.readouterr()
    assert main(["search", "cart", option, value]) == 2
    out, err = capsys.readouterr()
    assert out == "" and value in err
    assert all(v in err for v in valid), err


@pytest.mark.parametrize("spelling", ["Python", "PYTHON", "py", "python"])
def test_language_names_are_case_insensitive_and_aliases_work(indexed, capsys, spelling):
    capsys.readouterr()
    assert main(["search", "inventory stock", "--language", spelling, "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert results and {r["language"] for r in results} == {"python"}


def test_kinds_are_case_insensitive(indexed, capsys):
    capsys.readouterr()
    assert main(["search", "cart", "--kind", "Function", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert results and {r["kind"] for r in results} == {"function"}


def test_every_language_a_file_can_have_is_valid():
    assert {"python", "tsx", "markdown", "text", "yaml", "make", "dockerfile"} <= LANGUAGES
