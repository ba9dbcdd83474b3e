import pytest

from spyglass.engine.search import SearchFilters, _snippet
from spyglass.engine.store import StoredSpan


def test_snippet_picks_the_lines_with_most_query_terms():
    text = "\n".join([f"line {i}" for i in range(30)] + ["def parse_config(path):", "    return load(path)"])
    snip = _snippet(text, {"parse", "config", "load"}, max_lines=4)
    assert "def parse_config(path):" in snip and "return load(path)" in snip
    assert len(snip.splitlines()) == 4


def test_snippet_of_a_short_span_is_the_span_without_blank_edges():
    assert _snippet("\n\ndef f():\n    pass\n\n", {"x"}) == "def f():\n    pass"


def _span(path: str, language: str, kind: str) -> StoredSpan:
    return StoredSpan(1, "id", kind, "n", "n", "", "", None, language, 1, 2, 0, 1, "text", "h", True, path)


@pytest.mark.parametrize(
    ("filters", "span", "accepted"),
    [
        (SearchFilters(), _span("a.py", "python", "function"), True),
        (SearchFilters(languages=["go"]), _span("a.py", "python", "function"), False),
        (SearchFilters(kinds=["class", "method"]), _span("a.py", "python", "method"), True),
        (SearchFilters(globs=["src/*"]), _span("src/x/a.py", "python", "function"), True),
        (SearchFilters(globs=["*.ts"]), _span("src/a.py", "python", "function"), False),
    ],
)
def test_filters(filters, span, accepted):
    assert filters.accepts(span) is accepted
