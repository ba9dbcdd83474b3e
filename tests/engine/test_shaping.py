from dataclasses import dataclass

from spyglass.engine.search.shaping import (
    ELLIPSIS,
    LINE_CHARS,
    best_lines,
    confident,
    cost,
    diverse,
    fit_budget,
    tokens_of,
)


def test_best_lines_picks_the_window_with_most_query_terms():
    text = "\n".join([f"line {i}" for i in range(30)] + ["def parse_config(path):", "    return load(path)"])
    snip = best_lines(text, {"parse", "config", "load"}, max_lines=4)
    assert "def parse_config(path):" in snip and "return load(path)" in snip
    assert len(snip.splitlines()) == 4


def test_best_lines_of_a_short_span_is_the_span_without_blank_edges():
    assert best_lines("\n\ndef f():\n    pass\n\n", {"x"}, 8) == "def f():\n    pass"


def test_best_lines_without_matching_terms_starts_at_the_top():
    text = "\n".join(f"line {i}" for i in range(20))
    assert best_lines(text, {"absent"}, 3) == "line 0\nline 1\nline 2"


def test_best_lines_cuts_an_overlong_line_with_a_marker():
    snip = best_lines("x = '" + "a" * 5000 + "'", set(), 8)
    assert len(snip) == LINE_CHARS and snip.endswith(ELLIPSIS)


def test_confident_keeps_scores_over_both_floors():
    scored = [(0.9, "a"), (0.5, "b"), (0.39, "c"), (0.3, "d")]
    assert confident(scored, min_score=0.2, relative_floor=0.45) == [(0.9, "a"), (0.5, "b")]
    assert confident(scored, min_score=0.6, relative_floor=0.0) == [(0.9, "a")]


def test_confident_stops_at_a_gap_between_groups():
    scored = [(0.9, "a"), (0.85, "b"), (0.6, "c"), (0.58, "d")]
    assert confident(scored, min_score=0.2, relative_floor=0.45, gap=0.15) == [(0.9, "a"), (0.85, "b")]
    assert confident(scored, min_score=0.2, relative_floor=0.45, gap=0.3) == scored
    assert confident(scored, min_score=0.2, relative_floor=0.45) == scored


def test_confident_can_answer_nothing():
    assert confident([(0.1, "a"), (0.05, "b")], min_score=0.2, relative_floor=0.45) == []
    assert confident([], min_score=0.2, relative_floor=0.45) == []


def test_diverse_limits_results_per_file_and_in_all():
    items = [("a.py", 1), ("a.py", 2), ("a.py", 3), ("b.py", 4), ("a.py", 5), ("c.py", 6)]
    assert diverse(items, key=lambda t: t[0], per_key=2, limit=10) == [
        ("a.py", 1),
        ("a.py", 2),
        ("b.py", 4),
        ("c.py", 6),
    ]
    assert diverse(items, key=lambda t: t[0], per_key=2, limit=3) == [("a.py", 1), ("a.py", 2), ("b.py", 4)]


@dataclass
class Hit:
    path: str
    symbol: str
    snippet: str


def _hit(lines: int, name: str = "f") -> Hit:
    return Hit("pkg/mod.py", name, "\n".join(f"    value_{i} = compute({i})" for i in range(lines)))


def test_cost_counts_path_symbol_snippet_and_overhead():
    hit = Hit("a.py", "f", "x" * 35)
    assert cost(hit) == tokens_of(4 + 1 + 35 + 60) == 25


def test_fit_budget_keeps_everything_that_fits():
    hits = [_hit(3, "a"), _hit(3, "b")]
    kept, truncated = fit_budget(hits, 10_000, set())
    assert kept == hits and not truncated


def test_fit_budget_never_exceeds_the_budget_and_shortens_the_last_snippet():
    hits = [_hit(8, "a"), _hit(8, "b"), _hit(8, "c")]
    one = cost(hits[0])
    for budget in range(20, 3 * one + 5, 7):
        kept, truncated = fit_budget(hits, budget, {"value_5"})
        assert sum(cost(h) for h in kept) <= budget
        assert truncated == (budget < 3 * one)
        assert [h.symbol for h in kept] == ["a", "b", "c"][: len(kept)]
    kept, truncated = fit_budget(hits, one + one // 2, set())
    assert truncated and len(kept) == 2
    assert kept[1].snippet.endswith(ELLIPSIS) and len(kept[1].snippet.splitlines()) < 9


def test_fit_budget_too_small_for_any_result_returns_none():
    kept, truncated = fit_budget([_hit(8)], 5, set())
    assert kept == [] and truncated
