"""Fusing the retrievers' signals into one score per candidate span.

Every signal is on a 0..1 scale before fusion (cosine similarity; BM25 relative to the query's best hit;
1 for an exact name match, 0.5 for a partial one; how sure a path mention is). Two fusions are kept so
the evaluation can compare them (docs/quality.md):

- ``blend``: a weighted sum of the signals. The score keeps its meaning across queries, so an absolute
  floor can drop noise; this is the default.
- ``rrf``: reciprocal rank fusion, ``sum(w / (RRF_K + rank))`` over the signals, scaled so a candidate
  first in every signal scores 1. It ignores how far apart the scores are, only their order.

Priors then scale the fused score by what a span is: tests and prose rank below the code, all else equal.
Code is code wherever it lives (Go keeps real code in package ``doc/``), and a definition whose name the
query gives exactly keeps its score in a test file too: a path prior never sinks an exact name match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

RRF_K = 60


def blend(signals: Mapping[int, Mapping[str, float]], weights: Mapping[str, float]) -> dict[int, float]:
    """Weighted sum of each candidate's signals, capped at 1."""
    return {
        key: min(1.0, sum(weights.get(name, 0.0) * value for name, value in sig.items()))
        for key, sig in signals.items()
    }


def rrf(signals: Mapping[int, Mapping[str, float]], weights: Mapping[str, float], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal rank fusion of each signal's ranking (ties share the better rank), scaled to 0..1."""
    used = {name for sig in signals.values() for name in sig if weights.get(name, 0.0) > 0}
    scores = dict.fromkeys(signals, 0.0)
    for name in used:
        ranked = sorted(((sig[name], key) for key, sig in signals.items() if name in sig), reverse=True)
        rank, previous = 0, None
        for i, (value, key) in enumerate(ranked, start=1):
            if value != previous:
                rank, previous = i, value
            scores[key] += weights[name] / (k + rank)
    best = sum(weights[name] for name in used) / (k + 1)
    return {key: (score / best if best else 0.0) for key, score in scores.items()}


def fuse(
    signals: Mapping[int, Mapping[str, float]], weights: Mapping[str, float], method: str = "blend"
) -> dict[int, float]:
    if method == "blend":
        return blend(signals, weights)
    if method == "rrf":
        return rrf(signals, weights)
    raise ValueError(f"unknown fusion method {method!r} (use 'blend' or 'rrf')")


MATCHED_SHARE = 0.1  # a signal counts as matched when it adds at least this share of the strongest one


def matched_signals(signals: Mapping[str, float], weights: Mapping[str, float]) -> list[str]:
    """The signals that made a candidate's score, strongest contribution (weight x value) first: those
    adding at least ``MATCHED_SHARE`` of the strongest one's. What a result says it matched on."""
    adds = {name: weights.get(name, 0.0) * value for name, value in signals.items()}
    top = max(adds.values(), default=0.0)
    if top <= 0:
        return []
    return [name for name, add in sorted(adds.items(), key=lambda kv: (-kv[1], kv[0])) if add >= MATCHED_SHARE * top]


def scale_similarities(sims: Sequence[float], how: str = "cosine") -> list[float]:
    """The vector signal of the nearest spans (cosine similarities, best first): ``cosine`` as they are,
    ``relative`` to the best, or ``spread`` between the worst candidate (0) and the best (1). The cosine
    stays the default: rescaling did not help over both evaluation sets (docs/quality.md)."""
    if how == "cosine" or not sims:
        return list(sims)
    best, worst = sims[0], sims[-1]
    if how == "relative":
        return [v / best if best > 0 else 0.0 for v in sims]
    if how == "spread":
        return [(v - worst) / (best - worst) if best > worst else 1.0 for v in sims]
    raise ValueError(f"unknown similarity scale {how!r} (use 'cosine', 'relative' or 'spread')")


TEST_WORDS = frozenset({"test", "tests", "testing", "spec", "specs", "fixture", "fixtures"})


def prior_for_tests(base: float, *, short: bool, terms: Iterable[str]) -> float:
    """The test prior for one query: none for a short query that asks for tests ("tests for the parser"),
    ``base`` otherwise (a long issue mentions tests whatever it is about)."""
    return 1.0 if short and not TEST_WORDS.isdisjoint(terms) else base


@dataclass(frozen=True)
class Priors:
    """How much what a span is scales its score (1: no effect). Set by ``[search.priors]`` (settings.py)."""

    tests: float = 0.3  # spans of test files (path conventions of many languages)
    prose: float = 0.3  # spans of languages that are not code: docs, config, other text

    def factor(self, *, is_test: bool, is_code: bool, exact_name: bool, test_prior: float | None = None) -> float:
        """The factor for one span; ``test_prior`` replaces ``tests`` for one query (see prior_for_tests).
        An exact name match is exempt from the test prior: where a definition lives never hides it."""
        tests = self.tests if test_prior is None else test_prior
        return prior(is_test and not exact_name, is_code, tests, self.prose)


NO_PRIORS = Priors(tests=1.0, prose=1.0)


def prior(is_test: bool, is_code: bool, test_prior: float, prose_prior: float) -> float:
    """How much a span's file kind scales its score: tests and non-code text rank below code."""
    return (test_prior if is_test else 1.0) * (1.0 if is_code else prose_prior)
