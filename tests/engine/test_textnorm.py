import pytest

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
