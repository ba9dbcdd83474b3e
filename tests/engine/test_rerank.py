from pathlib import Path

import pytest

from spyglass.engine.search.rerank import rerank
from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}


class PrefersWord:
    """A stand-in for a cross-encoder model (none ships offline): relevance 1 when a word is in the text."""

    def __init__(self, word: str):
        self.word = word
        self.calls = 0

    def score(self, query, texts):
        self.calls += 1
        return [1.0 if self.word in t else 0.0 for t in texts]


def test_rerank_blends_scores_in_the_head_and_keeps_the_tail():
    scored = [(0.9, "a"), (0.8, "b has word"), (0.7, "c"), (0.1, "d has word")]
    out = rerank(scored, ["a", "b has word", "c"], "q", PrefersWord("word"), weight=0.5)
    assert [item for _, item in out] == ["b has word", "a", "c", "d has word"]
    assert out[0][0] == pytest.approx(0.9) and out[1][0] == pytest.approx(0.45)
    assert out[3] == (0.1, "d has word")


def test_workspace_search_uses_a_plugged_in_reranker(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def cart_total(cart):\n    return sum(cart)\n")
    (root / "b.py").write_text("def cart_total_legacy(cart):\n    # deprecated path\n    return 0\n")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        plain = [r.symbol for r in ws.search("cart total", cut=False, tier="deep").results]
        ws.searcher.reranker = PrefersWord("deprecated")
        deep = ws.search("cart total", cut=False, tier="deep")
        reranked = [r.symbol for r in deep.results]
        assert deep.tier == "deep"
        balanced = [r.symbol for r in ws.search("cart total", cut=False).results]  # only the deep tier re-ranks
    assert plain[0] == "cart_total" and reranked[0] == "cart_total_legacy"
    assert set(plain) == set(reranked) and balanced == plain


def test_a_reranker_that_cannot_load_leaves_results_and_says_why(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def cart_total(cart):\n    return sum(cart)\n")
    with Workspace.open(root, writer=True, overrides={**LEXICAL, "reranker": str(tmp_path / "no-model")}) as ws:
        ws.index()
        result = ws.search("cart total", tier="deep")
    assert result.results[0].symbol == "cart_total"
    assert "cannot load re-ranking model" in result.index.note
