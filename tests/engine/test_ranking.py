import pytest

from spyglass.engine.search.ranking import blend, prior, prior_for_tests


def test_blend_is_the_weighted_sum_capped_at_one():
    signals = {1: {"vector": 0.8, "lexical": 1.0}, 2: {"name": 1.0}, 3: {"vector": 1.0, "lexical": 1.0, "name": 1.0}}
    scores = blend(signals, {"vector": 0.5, "lexical": 0.25, "name": 0.5})
    assert scores[1] == pytest.approx(0.65)
    assert scores[2] == pytest.approx(0.5)
    assert scores[3] == 1.0


def test_blend_ignores_signals_without_a_weight():
    assert blend({1: {"vector": 1.0, "other": 1.0}}, {"vector": 0.3}) == {1: pytest.approx(0.3)}


def test_prior_scales_tests_and_prose():
    assert prior(False, True, 0.7, 0.6) == 1.0
    assert prior(True, True, 0.7, 0.6) == 0.7
    assert prior(False, False, 0.7, 0.6) == 0.6
    assert prior(True, False, 0.7, 0.6) == pytest.approx(0.42)


def test_prior_for_tests_is_lifted_only_for_short_queries_asking_for_tests():
    assert prior_for_tests(0.5, short=True, terms=["tests", "parser"]) == 1.0
    assert prior_for_tests(0.5, short=True, terms=["parser"]) == 0.5
    assert prior_for_tests(0.5, short=False, terms=["tests", "parser"]) == 0.5
