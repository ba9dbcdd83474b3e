import math
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from spyglass.evaluation.dataset import GoldItem
from spyglass.evaluation.metrics import (
    METRICS,
    InstanceScore,
    RetrievedSpan,
    acc_at_k,
    aggregate,
    first_rank,
    gold_keys,
    mrr,
    ndcg_at_k,
    roll_up,
    score_instance,
)


def _g(rank: int) -> float:
    """The DCG gain at a 1-based rank."""
    return 1 / math.log2(rank + 1)


# ---------------------------------------------------------------------------------------------------------
# Acc@k, MRR, nDCG on hand-worked lists

# One gold item at rank 3 of ["a", "b", "g", "c"]:
#   Acc@1 = 0 (g not in top 1), Acc@3 = Acc@5 = 1
#   MRR = 1/3
#   nDCG@10 = gain(3) / gain(1) = (1/log2 4) / (1/log2 2) = 0.5
SINGLE = (["a", "b", "g", "c"], {"g"})

# Three gold items at ranks 1, 3 and 6 of ["g1", "x", "g2", "y", "z", "g3"] (LocAgent: need min(k, 3) in top k):
#   Acc@1 = 1 (need 1: g1 is first), Acc@2 = 0 (need 2, have 1), Acc@3 = 0 (need 3, have 2),
#   Acc@5 = 0 (need 3, have 2), Acc@6 = 1 (all three)
#   MRR = 1
#   nDCG@10 = (gain1 + gain3 + gain6) / (gain1 + gain2 + gain3) = (1 + .5 + .35621) / (1 + .63093 + .5) = .87108
#   nDCG@3  = (gain1 + gain3) / (gain1 + gain2 + gain3) = 1.5 / 2.13093 = .70392
MULTI = (["g1", "x", "g2", "y", "z", "g3"], {"g1", "g2", "g3"})


@pytest.mark.parametrize(
    ("case", "k", "expected"),
    [
        (SINGLE, 1, 0.0),
        (SINGLE, 3, 1.0),
        (SINGLE, 5, 1.0),
        (MULTI, 1, 1.0),
        (MULTI, 2, 0.0),
        (MULTI, 3, 0.0),
        (MULTI, 5, 0.0),
        (MULTI, 6, 1.0),
        (MULTI, 10, 1.0),
        ((["a", "b"], {"g"}), 10, 0.0),
        (([], {"g"}), 5, 0.0),
    ],
)
def test_acc_at_k(case, k, expected):
    ranked, gold = case
    assert acc_at_k(ranked, gold, k) == expected


@pytest.mark.parametrize(
    ("case", "expected_mrr", "expected_rank"),
    [(SINGLE, 1 / 3, 3), (MULTI, 1.0, 1), ((["a", "b"], {"g"}), 0.0, None)],
)
def test_mrr_and_first_rank(case, expected_mrr, expected_rank):
    ranked, gold = case
    assert mrr(ranked, gold) == pytest.approx(expected_mrr)
    assert first_rank(ranked, gold) == expected_rank


@pytest.mark.parametrize(
    ("case", "k", "expected"),
    [
        (SINGLE, 10, 0.5),
        (SINGLE, 2, 0.0),
        (MULTI, 10, 0.8710785),
        (MULTI, 3, 0.7039181),
        (MULTI, 1, 1.0),
        ((["a", "b"], {"g"}), 10, 0.0),
    ],
)
def test_ndcg_at_k(case, k, expected):
    ranked, gold = case
    assert ndcg_at_k(ranked, gold, k) == pytest.approx(expected, abs=1e-6)


def test_ndcg_matches_the_formula():
    ranked, gold = MULTI
    assert ndcg_at_k(ranked, gold, 10) == pytest.approx((_g(1) + _g(3) + _g(6)) / (_g(1) + _g(2) + _g(3)))


def test_empty_gold_is_excluded_not_zero():
    assert acc_at_k(["a"], [], 5) is None
    assert mrr(["a"], set()) is None
    assert ndcg_at_k(["a"], [], 10) is None


@pytest.mark.parametrize("fn", [acc_at_k, ndcg_at_k])
def test_k_must_be_positive(fn):
    with pytest.raises(ValueError, match="k must be"):
        fn(["a"], {"a"}, 0)


# ---------------------------------------------------------------------------------------------------------
# roll-up

MIXED = [
    ("pkg/mod.py", "mod.py", "module"),  # module span: file only, its symbol (the file name) ignored
    ("pkg/a.py", "Config", "class"),  # module a:Config, function a:Config
    ("pkg/a.py", "Config.parse", "method"),  # module repeats; function a:Config.parse
    ("pkg/b.py", "helper", "function"),  # top-level function: module b:helper (LocAgent), function b:helper
    ("pkg/a.py", "Config.__init__", "method"),  # constructor folds into the class: function a:Config repeats
    ("pkg/mod.py", "", "window"),  # file repeats
    ("docs/x.md", "Install", "section"),  # Markdown section: file only
    ("pkg/a.py", "Loader.Inner.run", "method"),  # module: outermost class; function: the full qualname
    ("pkg/b.py", "helper", "function"),  # exact duplicate
]
MIXED_FILES = ["pkg/mod.py", "pkg/a.py", "pkg/b.py", "docs/x.md"]
MIXED_MODULES = ["pkg/a.py:Config", "pkg/b.py:helper", "pkg/a.py:Loader"]
MIXED_FUNCTIONS = ["pkg/a.py:Config", "pkg/a.py:Config.parse", "pkg/b.py:helper", "pkg/a.py:Loader.Inner.run"]


def test_roll_up_mixed_list():
    got = roll_up(MIXED)
    assert got.files == MIXED_FILES
    assert got.modules == MIXED_MODULES
    assert got.functions == MIXED_FUNCTIONS


@dataclass
class _Hit:  # shaped like spyglass.engine.answers.SearchHit
    path: str
    symbol: str
    kind: str
    score: float = 0.0


@pytest.mark.parametrize(
    "convert",
    [
        lambda t: RetrievedSpan(*t),
        lambda t: {"path": t[0], "symbol": t[1], "kind": t[2]},
        lambda t: _Hit(*t),
        lambda t: SimpleNamespace(path=t[0], symbol=t[1], kind=t[2]),
    ],
    ids=["namedtuple", "mapping", "dataclass", "object"],
)
def test_roll_up_accepts_span_shapes(convert):
    assert roll_up([convert(t) for t in MIXED]) == roll_up(MIXED)


def test_roll_up_without_symbol_is_file_only():
    got = roll_up([("a.py", "", "function"), ("b.py",), {"path": "c.py"}])
    assert got.files == ["a.py", "b.py", "c.py"]
    assert got.modules == [] and got.functions == []


def test_gold_keys():
    gold = [
        GoldItem("a.py", "URLValidator.__call__"),
        GoldItem("a.py", "URLValidator.__init__"),  # same module; function key is the class
        GoldItem("b.py", None),  # file only
        GoldItem("a.py", "helper"),
        ("c.py", "Thing"),  # tuples work too
    ]
    keys = gold_keys(gold)
    assert keys.files == ["a.py", "b.py", "c.py"]
    assert keys.modules == ["a.py:URLValidator", "a.py:helper", "c.py:Thing"]
    assert keys.functions == ["a.py:URLValidator.__call__", "a.py:URLValidator", "a.py:helper", "c.py:Thing"]


# ---------------------------------------------------------------------------------------------------------
# one instance end to end


def test_score_instance_multi_gold():
    gold = [GoldItem("src/app.py", "App.run"), GoldItem("src/util.py", "slugify")]
    spans = [
        ("README.md", "Usage", "section"),
        ("src/app.py", "App", "class"),
        ("src/cli.py", "main", "function"),
        ("src/app.py", "App.run", "method"),
        ("src/app.py", "App.stop", "method"),
        ("src/app.py", "App.start", "method"),
        ("src/util.py", "slugify", "function"),
    ]
    # files:     README.md, src/app.py*, src/cli.py, src/util.py*          gold at ranks 2 and 4
    #   Acc@1 0, Acc@3 0 (need 2, have 1), Acc@5 1, Acc@10 1; MRR 1/2
    #   nDCG@10 = (gain2 + gain4) / (gain1 + gain2) = (.63093 + .43068) / 1.63093 = .65092
    # modules:   src/app.py:App*, src/cli.py:main, src/util.py:slugify*    Acc@5 1, Acc@10 1
    # functions: app:App, cli:main, app:App.run*, app:App.stop, app:App.start, util:slugify*
    #   gold at ranks 3 and 6: Acc@5 0, Acc@10 1
    s = score_instance("q1", gold, spans, tokens=1234)
    assert s.values == pytest.approx(
        {
            "file_acc@1": 0.0,
            "file_acc@3": 0.0,
            "file_acc@5": 1.0,
            "file_acc@10": 1.0,
            "module_acc@5": 1.0,
            "module_acc@10": 1.0,
            "function_acc@5": 0.0,
            "function_acc@10": 1.0,
            "file_mrr": 0.5,
            "file_ndcg@10": 0.6509209,
            "tokens": 1234.0,
            "cut_results": None,
            "cut_file_recall": None,
        }
    )
    assert s.file_rank == 2
    assert s.top_files == ["README.md", "src/app.py", "src/cli.py", "src/util.py"]


def test_score_instance_file_only_gold_has_no_module_or_function_score():
    s = score_instance("q", [GoldItem("a.py")], [("a.py", "f", "function")])
    assert s.values["file_acc@1"] == 1.0
    assert all(s.values[m] is None for m in ("module_acc@5", "module_acc@10", "function_acc@5", "function_acc@10"))
    assert s.values["tokens"] is None


def test_constructor_gold_matches_class_span_or_init_method():
    gold = [GoldItem("f.py", "Figure.__init__")]
    assert score_instance("q", gold, [("f.py", "Figure", "class")]).values["function_acc@5"] == 1.0
    assert score_instance("q", gold, [("f.py", "Figure.__init__", "method")]).values["function_acc@5"] == 1.0
    assert score_instance("q", gold, [("f.py", "Figure.draw", "method")]).values["function_acc@5"] == 0.0


def test_cut_answer_counts_results_and_whether_a_gold_file_survived():
    gold = [GoldItem("a.py", "f")]
    ranked = [("b.py", "g", "function"), ("a.py", "f", "function")]
    s = score_instance("q", gold, ranked, cut=ranked[:1])
    assert s.values["cut_results"] == 1.0 and s.values["cut_file_recall"] == 0.0
    s = score_instance("q", gold, ranked, cut=iter(ranked))
    assert s.values["cut_results"] == 2.0 and s.values["cut_file_recall"] == 1.0
    s = score_instance("q", gold, ranked, cut=[])
    assert s.values["cut_results"] == 0.0 and s.values["cut_file_recall"] == 0.0
    assert score_instance("q", gold, ranked).values["cut_results"] is None
    agg = aggregate([score_instance("q", gold, ranked, cut=c) for c in (ranked, ranked[:1], [])])
    assert agg["cut_results"] == 1.0 and agg["cut_file_recall"] == 33.33


def test_instance_score_dict_round_trip():
    s = score_instance("q1", [GoldItem("a.py", "f")], [("b.py", "g", "function"), ("a.py", "f", "function")])
    d = s.to_dict()
    assert set(d) == {*METRICS, "file_rank", "top_files"}
    assert InstanceScore.from_dict("q1", d) == s


# ---------------------------------------------------------------------------------------------------------
# averages


def test_aggregate():
    names = ["file_acc@1", "file_acc@3", "file_acc@5", "file_acc@10", "module_acc@5", "module_acc@10"]
    names += ["function_acc@5", "function_acc@10", "file_mrr", "file_ndcg@10", "tokens"]
    rows = {
        #       file@1 @3  @5  @10  mod@5 @10   fn@5  @10   mrr  ndcg      tokens
        "s1": (1, 1, 1, 1, 1, 1, None, None, 1.0, 1.0, 100),
        "s2": (0, 1, 1, 1, 0, 1, 0, 1, 0.5, 0.6309297, 300),
        "s3": (0, 0, 0, 0, None, None, 0, 0, 0.0, 0.0, None),
    }
    scores = [InstanceScore(iid, dict(zip(names, vals, strict=True))) for iid, vals in rows.items()]
    agg = aggregate(scores)
    # file Acc@1 = 1/3, Acc@3..10 = 2/3; module over s1, s2: @5 1/2, @10 2/2; function over s2, s3: @5 0/2,
    # @10 1/2; MRR (1 + .5 + 0)/3 = .5; nDCG (1 + .63093 + 0)/3 = .54364; tokens (100 + 300)/2 = 200
    assert agg == {
        "instances": 3,
        "file_acc@1": 33.33,
        "file_acc@3": 66.67,
        "file_acc@5": 66.67,
        "file_acc@10": 66.67,
        "module_acc@5": 50.0,
        "module_acc@10": 100.0,
        "function_acc@5": 0.0,
        "function_acc@10": 50.0,
        "file_mrr": 0.5,
        "file_ndcg@10": 0.5436,
        "tokens": 200.0,
        "cut_results": None,
        "cut_file_recall": None,
        "n": {
            m: (2 if m.startswith(("module", "function")) or m == "tokens" else 0 if m.startswith("cut") else 3)
            for m in METRICS
        },
    }


def test_aggregate_of_nothing():
    agg = aggregate([])
    assert agg["instances"] == 0
    assert all(agg[m] is None and agg["n"][m] == 0 for m in METRICS)
