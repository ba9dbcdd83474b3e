import pytest

from spyglass.engine.search import SearchFilters
from spyglass.engine.store import StoredSpan


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
