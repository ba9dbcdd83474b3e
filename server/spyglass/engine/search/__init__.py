"""Search, as a pipeline: query understanding (query.py), one retriever per signal (retrievers.py over the
vectors of vectors.py), ranking and fusion (ranking.py, weighed by config.py), the optional re-ranker
(rerank.py) and shaping into an answer (shaping.py); searcher.py runs them end to end.

Change the ranking: config.py (weights, pools, floors, priors) and ranking.py (how they combine). Add a
signal: one function in retrievers.py and one weight in config.py.
"""

from .config import DEFAULT_RANKING, TIERS, RankingConfig, Tier
from .filters import SearchFilters, checked_kinds, checked_languages
from .ranking import NO_PRIORS, Priors
from .rerank import CrossEncoderReranker, Reranker
from .searcher import Searcher
from .shaping import CHARS_PER_TOKEN
from .vectors import StoreVectors, VectorCache, VectorIndex

__all__ = [
    "CHARS_PER_TOKEN",
    "DEFAULT_RANKING",
    "NO_PRIORS",
    "CrossEncoderReranker",
    "Priors",
    "RankingConfig",
    "Reranker",
    "SearchFilters",
    "Searcher",
    "StoreVectors",
    "TIERS",
    "Tier",
    "VectorCache",
    "VectorIndex",
    "checked_kinds",
    "checked_languages",
]
