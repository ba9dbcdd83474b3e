"""The ranking's settings as one frozen value: weights, pool sizes, depths, floors and priors.

The searcher reads nothing else, so an experiment (bench/ablation.py, a test) changes the ranking by
passing another value, ``dataclasses.replace(DEFAULT_RANKING, candidates=50)``, never by patching globals.
The figures were chosen with ``spyglass eval`` (docs/quality.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from .ranking import Priors

# how much a search may cost: names and full text only / the hybrid ranking / a wider, second-pass search
Tier = Literal["fast", "balanced", "deep"]
TIERS: tuple[Tier, ...] = get_args(Tier)


# the signals a candidate span can have whatever the query is (name, path, title and stem need a query that
# names, mentions a path, has a title or names a file's topic)
EVERY_CANDIDATE_SIGNALS = ("vector", "lexical", "file", "file_vector")


@dataclass(frozen=True)
class RankingConfig:
    # how the signals (retrievers.py) are weighed with a query vector; one set serves long and short queries:
    # a separate one for short queries (vectors weighed more, no file signal) was worse on issue titles
    weights: Mapping[str, float] = field(
        default_factory=lambda: {
            "vector": 0.25,
            "lexical": 0.35,
            "file": 0.20,
            "name": 0.20,
            "path": 0.20,
            "title": 0.25,
            "file_vector": 0.2,
        }
    )
    # ... and without one (no model, nothing embedded yet)
    lexical_weights: Mapping[str, float] = field(
        default_factory=lambda: {
            "vector": 0.0,
            "lexical": 0.45,
            "file": 0.30,
            "name": 0.25,
            "path": 0.20,
            "title": 0.25,
        }
    )
    file_context: float = 0.3  # share of a span's score that comes from its file's best candidates
    file_context_spans: int = 3  # a file's context: the mean of its this many best scores
    # which of a file's spans comes first: their own signals weighed by these (None: by the score itself);
    # within a file the words decide more than the vector: function Acc@5/10 up on every set, files unchanged
    within_file: Mapping[str, float] | None = field(
        default_factory=lambda: {"vector": 0.1, "lexical": 0.6, "name": 0.2, "title": 0.2}
    )
    # within a file, a class or module that holds other candidates comes no earlier than the best of them:
    # the member is the precise answer (behaviour set tune top 1 72.6 -> 74.5; files unchanged)
    containers_last: bool = True
    priors: Priors = Priors()  # tests and prose rank below code: the defaults of ``[search.priors]``
    short_query_terms: int = 12  # a query with at most this many content words is short
    candidates: int = 100  # how many each retriever adds to the candidates
    # span BM25 hits read: the best ``candidates`` join the candidates, the rest only give their BM25 to
    # candidates the other retrievers found (0: those get none, as if they shared no word with the query)
    lexical_depth: int = 1000
    lexical_coverage: bool = True  # scale the BM25 signals by the best hit's share of the query's terms
    word_forms: bool = True  # a query word also finds its other forms in the index (retry: retries)
    # the name signal of a definition whose name matches only when case is ignored (``helpers`` asked as
    # ``Helpers``); 0.4 was 0.001 better on the semble suite and one SWE-bench Lite instance worse
    case_only_name: float = 0.7
    # a query that is one name ("Deserialize", "Sinatra::Helpers") asks for that definition, as go-to-symbol
    # does: where one has exactly that name, every other candidate's score is scaled by this
    beside_the_named: float = 0.6
    # a candidate kept from an older version of the same code (zod's ``src/v3/`` beside ``src/v4/``, a
    # ``v1/`` beside the current code) is scaled, unless the query names that version (ranking.older_versions_below)
    older_version: float = 0.8
    frame_weights: bool = True  # a stack trace's outer frames name their functions less surely (innermost 1)
    spelled_names: bool = True  # "normalize params" also looks up ``normalizeParams``, ``normalize_params``
    # a short query's capitalised words are looked up as names too, weighed as spelled ones ("Mutex and Semaphore
    # for coroutine synchronization": semble tune 0.8632 -> 0.8648, test 0.8364 -> 0.8393)
    capitalised_names: bool = True
    # a short query's compound names are looked up in the other naming convention too, weighed as spelled ones
    # ("request_capability" finds Go's ``RequestCapability``, "parseAccept" Python's ``parse_accept``)
    other_conventions: bool = True
    # a definition whose name holds every word of a short query that gives no name (two words or more) is named
    # by it, weighed as a name spelled as words times the share of its name's words the query gives ("proxy
    # request headers": ``getProxyRequestHeaders`` 3/4)
    names_holding_the_query: bool = True
    # the initials of three or four words of a short query are a form of each of them where some span of the
    # index writes the acronym beside them ("server-sent events": ``SSE``, which ktor's ``SSE.kt`` documents)
    acronyms: bool = True
    # a short query's type and member written apart ("QueryParams merge", "Map bindToEnviron") name that member
    type_members: bool = True
    # within a file, for a description in words, a type alias's or interface's own score (order_within_files) is
    # scaled by this: it says what data looks like, and the question is what code does (bench/behaviour_unseen)
    words_data: float = 0.7
    # ... and when spans are ranked, across files too: a class, struct, type or a file's module span takes the
    # place it would hold at ``words_data`` times its score (ranking.code_before_data), so the function that does
    # what is described comes first. Five function-level sets, top 1 / top 5: tune halves 333 / 424 -> 343 / 433
    # of 517, test halves 168 / 217 -> 172 / 219 of 259; files (the semble suite's NDCG) unchanged
    words_code_first: bool = True
    # ... and a function or method shorter than ``words_short_code[0]`` lines takes the place it would hold at
    # (its lines / that) ** ``words_short_code[1]`` times its score (ranking.code_before_data): a description
    # says what code does, and an accessor or a one-line forwarder does little; (0, 0): off. Five function-level
    # sets, top 1 / top 5: tune halves 343 / 433 -> 358 / 447 of 517, test halves 172 / 219 -> 175 / 222 of 259
    words_short_code: tuple[int, float] = (20, 0.2)
    mentioned_files: int = 20  # files named in the query (a traceback, a path) join the candidates
    file_heads: int = 20  # the best whole-file matches join the candidates through their module span
    file_vector_spans: int = 3  # a file's vector signal: the mean of its this many best span similarities
    common_term_fraction: float = 0.5  # BM25's IDF is <= 0 for a term in over half the documents
    max_term_spans: int | None = None  # and terms in more spans than this (the fast tier sets it)
    min_score: float = 0.20  # the confidence floor (shaping.confident), for the usual weights: floor_for
    relative_floor: float = 0.45  # drop results scoring below this fraction of the best one
    gap_cut: float | None = 0.15  # stop at a drop of more than this between neighbouring results
    per_file: int = 3  # results from one file
    rerank_top: int = 30  # how many of the best results a configured re-ranker reads
    rerank_weight: float = 0.5

    # added when the search ranks files (``per_file=1``, ``search --files``): a file named after what the
    # query is about (``stem``) is likelier the file asked for; ranking spans, the code that does what the
    # query says matters more than the name of its file (function-level ranks fell with it: docs/quality.md)
    file_weights: Mapping[str, float] = field(default_factory=lambda: {"stem": 0.1})

    # replace weights for a short query that names nothing ("how are routes registered"): a description in
    # words leans on meaning more than on shared words (semble tune +0.005, behaviour tune top 1 +1 query),
    # and less on the words of a whole file, and on its other spans: a long file holds every word of a short
    # description somewhere (sinatra's 2,000-line base.rb against show_exceptions.rb for "exception
    # rendering and stack traces"), so they tell less than the span's own match (semble tune 0.8648 -> 0.8678,
    # test 0.8393 -> 0.8491; function-level MRR tune 0.835 -> 0.835, test 0.796 -> 0.802)
    words_weights: Mapping[str, float] = field(default_factory=lambda: {"vector": 0.35, "lexical": 0.25, "file": 0.1})
    words_file_context: float = 0.2  # file_context for such a query
    # ... and when spans are ranked (not files), the file's mean similarity gives its weight to the span's own:
    # every span of a file shares it, so it tells which file, not which span, and a file of many small
    # look-alike spans (bubbletea's mouse.go) outranked the one function that does it. Behaviour set MRR tune
    # 0.835 -> 0.843, test 0.802 -> 0.801; bench/behaviour_unseen tune 0.751 -> 0.771, test 0.807 -> 0.845
    words_span_weights: Mapping[str, float] = field(default_factory=lambda: {"vector": 0.5, "file_vector": 0.0})
    # ... and without a model (the fast tier), the whole file's words halved as well, the file context as for
    # other queries (fast tier semble tune 0.8154 -> 0.8234, test 0.8022 -> 0.8095; behaviour set top 1 / top 5
    # tune 67.5 / 89.2 -> 70.1 / 88.5, test 57.0 / 81.0 -> 62.0 / 84.8). The confidence floor follows the
    # lower scores (floor_for)
    lexical_words_weights: Mapping[str, float] = field(default_factory=lambda: {"file": 0.15})
    # ... and which of a file's spans comes first for such a query: meaning counts as much as the words (the
    # within_file weights above let a pasted issue's words decide). Behaviour set top 1 / top 5, tune 74.5 /
    # 92.4 -> 76.4 / 93.0, test 69.6 / 88.6 -> 70.9 / 92.4; the semble suite's files unchanged (docs/quality.md)
    words_within_file: Mapping[str, float] = field(
        default_factory=lambda: {"vector": 0.6, "lexical": 0.6, "name": 0.2, "title": 0.2}
    )

    # recently and often changed files (the history, engine/history; Store.file_recency), 0: off. "weighted"
    # scales a span's score by 1 + recency * r(file); "rrf" re-orders by 1/(60 + rank) + recency/(60 + the
    # file's rank by r); recency_words_only: only for a description in words (no name, no path asked)
    recency: float = 0.0
    recency_fusion: Literal["weighted", "rrf"] = "weighted"
    recency_words_only: bool = False
    # an exact name never sinks: no recency when a candidate is a definition the query names exactly
    recency_spares_names: bool = False
    recency_half_life: float = 100.0  # commits

    # the deep tier: retrievers draw this many times more candidates; the query is searched again with the
    # names of its best ``rewrite_names`` results added, whose scores count ``rewrite_weight`` of their own
    deep_pool: int = 3
    rewrite_names: int = 3
    rewrite_weight: float = 0.8

    # the fast tier leaves out terms found in more than this many spans: FTS5 scores every span holding a
    # query term, so in a large index common words ("values", "function") cost the most time while BM25
    # weighs them least. A count, not a share: in a small repository a word in 5% of the spans still tells
    # (a share of 5% cost the semble suite 0.13)
    fast_max_term_spans: int = 5000

    def for_tier(self, tier: Tier) -> RankingConfig:
        """The config a search of ``tier`` ranks with (``deep`` draws a wider pool, ``fast`` reads fewer
        common terms)."""
        if tier == "fast":
            return replace(self, max_term_spans=self.fast_max_term_spans)
        if tier != "deep":
            return self
        return replace(
            self,
            candidates=self.candidates * self.deep_pool,
            lexical_depth=self.lexical_depth * self.deep_pool,
            file_heads=self.file_heads * self.deep_pool,
        )

    def weights_for(self, with_vectors: bool, files: bool = False, words: bool = False) -> Mapping[str, float]:
        """The signal weights of a search with a query vector, or without one; ``files``: of a ranking of files;
        ``words``: of a short query that names nothing."""
        weights = self.weights if with_vectors else self.lexical_weights
        if words:
            weights = {**weights, **(self.words_weights if with_vectors else self.lexical_words_weights)}
            if with_vectors and not files:
                weights = {**weights, **self.words_span_weights}
        return {**weights, **self.file_weights} if files else weights

    def file_context_for(self, with_vectors: bool, words: bool = False) -> float:
        """The share of a span's score that comes from its file's best candidates, as ``weights_for`` picks the
        weights: ``words_file_context`` for a short query that names nothing, searched with a query vector."""
        return self.words_file_context if words and with_vectors else self.file_context

    def floor_for(self, with_vectors: bool, words: bool = False, files: bool = False) -> float:
        """The confidence floor: ``min_score`` scaled by how much of the usual weight the search's weights give
        the signals any candidate can have. A description in words moves weight off a whole file's words, so
        its scores are lower for the same evidence; the floor moves with them and keeps its meaning."""
        if not words:
            return self.min_score
        usual = sum(self.weights_for(with_vectors).get(s, 0.0) for s in EVERY_CANDIDATE_SIGNALS)
        these = sum(self.weights_for(with_vectors, files, words=True).get(s, 0.0) for s in EVERY_CANDIDATE_SIGNALS)
        return self.min_score * these / usual if usual else self.min_score


DEFAULT_RANKING = RankingConfig()
