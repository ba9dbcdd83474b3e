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


def _part(rowid: int, qualname: str, start: int, path: str = "a.py", kind: str = "class") -> StoredSpan:
    return StoredSpan(
        rowid,
        f"id{rowid}",
        kind,
        qualname,
        qualname,
        "",
        "",
        None,
        "python",
        start,
        start + 9,
        0,
        1,
        "t",
        "h",
        True,
        path,
    )


def test_the_parts_of_one_long_definition_count_once():
    from spyglass.engine.search import _one_definition_once

    parts = [(0.9, _part(1, "Dataset", 1)), (0.8, _part(2, "Dataset", 11)), (0.7, _part(3, "Dataset", 21))]
    others = [(0.85, _part(4, "Dataset", 1, path="b.py")), (0.75, _part(5, "Dataset.merge", 31, kind="method"))]
    dropped = _one_definition_once(parts + others, 0.0)
    assert [s.rowid for _, s in dropped] == [1, 4, 5]  # another file's Dataset and a method are other definitions
    halved = _one_definition_once(parts + others, 0.5)
    assert {s.rowid: round(score, 2) for score, s in halved} == {1: 0.9, 4: 0.85, 2: 0.4, 5: 0.75, 3: 0.35}
