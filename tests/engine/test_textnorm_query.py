import pytest

from spyglass.engine.query import parse_query
from spyglass.engine.textnorm import path_words, split_identifier, subword_terms, words


@pytest.mark.parametrize(
    ("ident", "parts"),
    [
        ("parse_config", ["parse", "config"]),
        ("parseConfig", ["parse", "config"]),
        ("parseHTTPConfig", ["parse", "http", "config"]),
        ("HTTPServer", ["http", "server"]),
        ("__init__", ["init"]),
        ("v2Parser", ["v2", "parser"]),
        ("MAX_SIZE", ["max", "size"]),
        ("x", ["x"]),
    ],
)
def test_split_identifier(ident, parts):
    assert split_identifier(ident) == parts


def test_subword_terms_adds_only_what_unicode61_misses():
    terms = subword_terms("def parse_config(cfg): return loadYamlFile(cfg) + HTTPServer")
    assert terms.split() == ["load", "yaml", "file", "http", "server"]


def test_words_and_path_words():
    assert words("getUser failed") == ["getuser", "get", "user", "failed"]
    assert path_words("src/httpClient/retry_policy.py") == "src httpclient http client retry policy py"


def test_query_finds_identifiers_paths_and_terms():
    q = parse_query("URLValidator.__call__ raises ValueError in django/core/validators.py when parse_url(x) fails")
    assert "django/core/validators.py" in q.paths
    for ident in ("URLValidator", "ValueError", "parse_url", "URLValidator.__call__"):
        assert ident in q.identifiers
    assert "the" not in q.terms and "when" not in q.terms
    assert {"urlvalidator", "parse", "url", "raises"} <= set(q.terms)
    assert q.fts_match.startswith('"')


def test_short_natural_language_query():
    q = parse_query("where is the config loaded")
    assert q.identifiers == []
    assert q.terms == ["config", "loaded"]


def test_quotes_cannot_break_the_fts_expression():
    q = parse_query('say "hello" OR NOT near(')
    assert all('"' not in t for t in q.terms)
