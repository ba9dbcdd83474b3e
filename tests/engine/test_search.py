import dataclasses

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
    from spyglass.engine.search.ranking import one_definition_once

    parts = [(0.9, _part(1, "Dataset", 1)), (0.8, _part(2, "Dataset", 11)), (0.7, _part(3, "Dataset", 21))]
    others = [(0.85, _part(4, "Dataset", 1, path="b.py")), (0.75, _part(5, "Dataset.merge", 31, kind="method"))]
    kept = one_definition_once(parts + others)
    assert [s.rowid for _, s in kept] == [1, 4, 5]  # another file's Dataset and a method are other definitions


def test_within_a_file_the_spans_own_signals_choose_which_takes_each_place():
    from spyglass.engine.search.ranking import order_within_files

    a1, a2, a3 = _part(1, "f", 1, kind="function"), _part(2, "g", 11, kind="function"), _part(3, "h", 21)
    b = _part(4, "k", 1, path="b.py", kind="function")
    scored = [(0.9, a1), (0.7, b), (0.5, a2), (0.4, a3)]
    signals = {1: {"vector": 0.9, "file": 1.0}, 2: {"lexical": 0.9, "file": 1.0}, 3: {"file": 1.0}, 4: {"vector": 0.5}}
    out = order_within_files(scored, signals, {"vector": 0.1, "lexical": 0.6})
    # a.py keeps places 1, 3 and 4 with their scores; g (words) now comes before f (vector); b.py stays second
    assert [(score, span.rowid) for score, span in out] == [(0.9, 2), (0.7, 4), (0.5, 1), (0.4, 3)]
    # spans with equal own evidence keep their order
    same = order_within_files(scored, {1: {}, 2: {}, 3: {}, 4: {}}, {"lexical": 1.0})
    assert same == scored


def test_within_a_file_a_declaration_stays_below_the_implementation_beside_it():
    """An overload's signature matches a name as well as its implementation does, and better on short text:
    its declaration prior holds within the file too, so the code takes the file's first place."""
    from spyglass.engine.search.ranking import order_within_files

    overload, implementation = _part(1, "to_dict", 1, kind="method"), _part(2, "to_dict", 3, kind="method")
    scored = [(0.96, overload), (0.9, implementation)]
    signals = {1: {"lexical": 1.0, "name": 0.7}, 2: {"lexical": 0.84, "name": 0.7}}
    weights = {"lexical": 0.6, "name": 0.4}
    assert [s.rowid for _, s in order_within_files(scored, signals, weights)] == [1, 2]
    out = order_within_files(scored, signals, weights, declared={1: 0.7})
    assert [(score, span.rowid) for score, span in out] == [(0.96, 2), (0.9, 1)]


def test_a_description_puts_code_that_runs_before_types_classes_and_files_keeping_the_scores():
    from spyglass.engine.search.ranking import code_before_data

    struct = _part(1, "RetryPolicy", 1, kind="struct")
    wait = _part(2, "nextWait", 1, path="b.go", kind="function")
    module = _part(3, "c", 1, path="c.go", kind="module")
    window = _part(4, "", 1, path="d.zz", kind="window")
    scored = [(0.56, struct), (0.52, wait), (0.5, module), (0.45, window)]
    out = code_before_data(scored, 0.7)
    # the function (0.52) passes the struct (0.56 * 0.7) and the module; a window may hold code and keeps its
    # score; the places keep their scores, so a confidence cut keeps as many results
    assert [span.rowid for _, span in out] == [2, 4, 1, 3]
    assert [score for score, _ in out] == [0.56, 0.52, 0.5, 0.45]
    assert code_before_data(scored, 1.0) == scored


def test_a_description_puts_a_function_that_does_more_before_a_few_lines_unless_the_query_names_them():
    from dataclasses import replace

    from spyglass.engine.search.ranking import code_before_data

    getter = replace(_part(1, "Client.retries", 1, path="a.go", kind="method"), end_line=3)  # 3 lines
    backoff = replace(_part(2, "nextWait", 1, path="b.go", kind="function"), end_line=30)  # 30 lines
    helper = replace(_part(3, "jitter", 1, path="c.go", kind="function"), end_line=8)  # 8 lines
    scored = [(0.56, getter), (0.52, backoff), (0.45, helper)]
    out = code_before_data(scored, 1.0, (20, 0.2))
    # the getter takes the place of 0.56 * (3 / 20) ** 0.2 = 0.38 and the helper 0.45 * (8 / 20) ** 0.2 = 0.37:
    # the function that does the work comes first; the places keep their scores
    assert [span.rowid for _, span in out] == [2, 1, 3]
    assert [score for score, _ in out] == [0.56, 0.52, 0.45]
    # a function of at least 20 lines is never scaled up, and the rule off leaves the order alone
    assert code_before_data([(0.5, backoff), (0.49, getter)], 1.0, (20, 0.2))[0][1] is backoff
    assert code_before_data(scored, 1.0, (0, 0.0)) == scored
    # a definition the query names keeps its place, however short
    assert code_before_data(scored, 1.0, (20, 0.2), named={1}) == scored


def test_a_name_holding_every_word_of_the_query_is_named_by_the_share_of_it_the_query_gives():
    from spyglass.engine.search.retrievers import names_holding

    spans = [
        _part(1, "getProxyRequestHeaders", 1, kind="function"),
        # "handler" from its type; "with" is no word of it
        dataclasses.replace(_part(2, "Handler.WithGroup", 11, kind="method"), name="WithGroup"),
        _part(3, "proxyRequest", 21, kind="function"),  # holds two of the three words
        _part(4, "proxy_request_headers", 1, path="proxy_request_headers.py", kind="module"),
    ]
    assert names_holding(spans, ["proxy", "request", "headers"]) == {1: 0.75}
    assert names_holding(spans, ["handler", "groups"]) == {2: 1.0}  # other forms of a word too
    assert names_holding(spans, ["proxy"]) == {}  # one word: a name lookup's job
