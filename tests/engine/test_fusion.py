import pytest

from spyglass.engine.fusion import blend, fuse, prior, prior_for_tests, rrf, scale_similarities


def test_blend_is_the_weighted_sum_capped_at_one():
    signals = {1: {"vector": 0.8, "lexical": 1.0}, 2: {"name": 1.0}, 3: {"vector": 1.0, "lexical": 1.0, "name": 1.0}}
    scores = blend(signals, {"vector": 0.5, "lexical": 0.25, "name": 0.5})
    assert scores[1] == pytest.approx(0.65)
    assert scores[2] == pytest.approx(0.5)
    assert scores[3] == 1.0


def test_blend_ignores_signals_without_a_weight():
    assert blend({1: {"vector": 1.0, "other": 1.0}}, {"vector": 0.3}) == {1: pytest.approx(0.3)}


def test_rrf_worked_example():
    # lexical ranks 1 > 2 > 3; vector ranks 3 > 1; k = 60, equal weights
    signals = {1: {"lexical": 0.9, "vector": 0.5}, 2: {"lexical": 0.8}, 3: {"lexical": 0.1, "vector": 0.7}}
    scores = rrf(signals, {"lexical": 1.0, "vector": 1.0}, k=60)
    best = 2 / 61
    assert scores[1] == pytest.approx((1 / 61 + 1 / 62) / best)
    assert scores[2] == pytest.approx((1 / 62) / best)
    assert scores[3] == pytest.approx((1 / 63 + 1 / 61) / best)
    assert scores[1] > scores[3] > scores[2]


def test_rrf_first_everywhere_scores_one_and_ties_share_a_rank():
    scores = rrf({1: {"lexical": 1.0}, 2: {"lexical": 1.0}, 3: {"lexical": 0.2}}, {"lexical": 1.0})
    assert scores[1] == scores[2] == 1.0 and scores[3] == pytest.approx(61 / 63)


def test_fuse_rejects_an_unknown_method():
    with pytest.raises(ValueError, match="unknown fusion"):
        fuse({}, {}, "max")


def test_prior_scales_tests_and_prose():
    assert prior(False, True, 0.7, 0.6) == 1.0
    assert prior(True, True, 0.7, 0.6) == 0.7
    assert prior(False, False, 0.7, 0.6) == 0.6
    assert prior(True, False, 0.7, 0.6) == pytest.approx(0.42)


def test_prior_for_tests_is_lifted_only_for_short_queries_asking_for_tests():
    assert prior_for_tests(0.5, short=True, terms=["tests", "parser"]) == 1.0
    assert prior_for_tests(0.5, short=True, terms=["parser"]) == 0.5
    assert prior_for_tests(0.5, short=False, terms=["tests", "parser"]) == 0.5


def test_scale_similarities_worked_examples():
    sims = [0.5, 0.4, 0.25]
    assert scale_similarities(sims) == sims
    assert scale_similarities(sims, "relative") == pytest.approx([1.0, 0.8, 0.5])
    assert scale_similarities(sims, "spread") == pytest.approx([1.0, 0.6, 0.0])
    assert scale_similarities([0.3, 0.3], "spread") == [1.0, 1.0]
    assert scale_similarities([], "relative") == []
    with pytest.raises(ValueError, match="unknown similarity scale"):
        scale_similarities(sims, "log")
