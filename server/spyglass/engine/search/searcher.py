"""Hybrid search over the index, end to end: understand the query, gather the retrievers' signals, rank,
re-rank, shape.

Each signal is put on a 0..1 scale (cosine similarity; BM25 relative to the best hit; 1 for an exact
name match) and blended with fixed weights, so a result's score means the same across queries and a
floor can drop noise: an empty answer is better than a wrong one.
"""

from __future__ import annotations

import logging
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace

import numpy as np

from ..answers import MatchLine, SearchHit, SearchOutcome, Why
from ..embedding import Embedder
from ..errors import ModelLoadError
from ..parsing import split_lines
from ..snippets import snippet_of
from ..store import Store, StoredSpan
from ..textnorm import split_identifier, words
from . import retrievers
from .config import DEFAULT_RANKING, TIERS, RankingConfig, Tier
from .filters import SearchFilters
from .query import ParsedQuery, names_whole, other_forms, parse_query
from .ranking import matched_signals, priors_within, rank, with_recency
from .rerank import Reranker, rerank
from .shaping import confident, diverse, fit_budget
from .vectors import StoreVectors, VectorIndex

log = logging.getLogger(__name__)

NO_FILES: dict[str, list[str] | None] = {}  # the files cache of a search that reads none
SNIPPET_LINES = 8
# A search that comes while a server is still loading its model waits this long for it: the bundled ONNX model
# loads in ~0.2 s, so the first answer is hybrid; a sentence-transformers model (~5 s) answers lexically first.
MODEL_WAIT_SECONDS = 1.5
DEEP_NEEDS_RERANKER = "the deep tier needs a re-ranker (the `reranker` setting): this search ran balanced"


class Searcher:
    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        vectors: VectorIndex | None = None,
        reranker: Reranker | None = None,
        config: RankingConfig = DEFAULT_RANKING,
    ):
        self.store = store
        self.embedder = embedder
        # sqlite-vec's scan, or an in-memory VectorCache for warm processes
        self.vectors = vectors if vectors is not None else StoreVectors(store)
        self.reranker = reranker
        self.config = config
        # False: while the model is still loading, answer from the lexical signals after MODEL_WAIT_SECONDS
        self.wait_for_model = True
        # a file's current text by path (unsaved editor text included), to number snippets; None: the index's
        self.read_text: Callable[[str], str | None] | None = None
        self._recency_cache: tuple[tuple, dict[str, float]] | None = None

    def search(
        self,
        query: str,
        k: int = 10,
        filters: SearchFilters | None = None,
        min_score: float | None = None,
        cut: bool = True,
        max_tokens: int | None = None,
        per_file: int | None = None,
        read_files: bool = True,
        tier: Tier = "balanced",
    ) -> SearchOutcome:
        """Ranked spans, best first, at most ``k``, at most ``per_file`` from one file (1: a ranking of files,
        each by its best span) and at most ``max_tokens`` (estimated) in all; ``min_score`` and ``per_file``
        default to the config's.

        ``tier``: ``fast`` reads names and full text only (no model); ``balanced`` is the hybrid ranking;
        ``deep``, when a cross-encoder is configured, draws a wider pool of candidates, searches again with
        the names of its best results added to the query, and lets the cross-encoder re-score the best
        (without one it runs ``balanced``, and the outcome says so: its ``tier`` and ``note``).
        ``cut=False`` returns the whole ranking (no floor, no per-file limit): for evaluation.
        ``read_files=False`` places snippets by the index alone, reading no file (for callers that keep only
        ids and scores)."""
        started = time.perf_counter()
        if tier not in TIERS:
            raise ValueError(f"unknown search tier {tier!r}: use one of {', '.join(TIERS)}")
        # the deep tier's wider pool and second pass need a better judge than the ranking that drew them:
        # ranked by the same signals they lowered quality (docs/quality.md), so without a re-ranker deep
        # runs the balanced ranking
        deeper = tier == "deep" and self.reranker is not None
        ran: Tier = "balanced" if tier == "deep" and not deeper else tier
        config = self.config.for_tier(ran)
        filters = filters or SearchFilters()
        q = parse_query(query)
        files = per_file == 1  # a ranking of files: file-level signals weigh in (config.file_weights)
        vectors, note = ({}, None) if tier == "fast" else self.query_vectors(q)
        if ran != tier:
            note = f"{note}; {DEEP_NEEDS_RERANKER}" if note else DEEP_NEEDS_RERANKER
        words = self._words(q, config)  # before ranking, which keeps only the terms that tell (q.terms)
        scored, signals = self._ranked(q, vectors, filters, config, files, words)
        if deeper and scored:
            scored, signals = self._with_their_names(query, scored, signals, vectors, filters, config, files)
        if deeper and scored and self.reranker is not None:
            try:
                texts = [f"{span.qualname}\n{span.text}" for _, span in scored[: config.rerank_top]]
                scored = rerank(scored, texts, query, self.reranker, weight=config.rerank_weight)
            except ModelLoadError as e:
                note = f"{note}; {e}" if note else str(e)
        if cut:
            floor = config.floor_for(bool(vectors), words, files) if min_score is None else min_score
            scored = confident(scored, min_score=floor, relative_floor=config.relative_floor, gap=config.gap_cut)
        matches = Counter(span.path for _, span in scored)
        if cut:
            per_key = config.per_file if per_file is None else per_file
            scored = diverse(scored, key=lambda t: t[1].path, per_key=per_key, limit=k)
        terms = set(q.terms)
        weights = config.weights_for(bool(vectors), files, words)
        lines: dict[str, list[str] | None] = {} if read_files else NO_FILES
        hits = [
            self._hit(span, score, signals[span.rowid], weights, terms, matches[span.path], lines)
            for score, span in scored[:k]
        ]
        truncated = False
        if max_tokens is not None:
            hits, truncated = fit_budget(hits, max_tokens, terms, shorten=SearchHit.shortened)
        return SearchOutcome(
            hits=hits,
            mode="hybrid" if vectors else "lexical",
            note=note,
            truncated=truncated,
            tier=ran,
            elapsed_ms=round(1000 * (time.perf_counter() - started), 1),
        )

    @staticmethod
    def _words(q: ParsedQuery, config: RankingConfig) -> bool:
        """A description in words: a short query that names nothing (no identifier, no path)."""
        return len(q.terms) <= config.short_query_terms and not q.identifiers and not q.paths

    def _ranked(
        self,
        q: ParsedQuery,
        vectors: dict[str, np.ndarray],
        filters: SearchFilters,
        config: RankingConfig,
        files: bool,
        words: bool,
    ) -> tuple[list[tuple[float, StoredSpan]], dict[int, dict[str, float]]]:
        """Every candidate of ``q``, ranked (best first), and each one's signals; ``words``: ``q`` is a description
        in words (``_words``, read before ranking keeps only the telling terms)."""
        short = len(q.terms) <= config.short_query_terms
        signals, spans = self.gather(q, vectors, filters, files=files, config=config)
        signals = {rowid: sig for rowid, sig in signals.items() if rowid in spans and filters.accepts(spans[rowid])}
        scoped = replace(config, priors=priors_within(config.priors, filters, (spans[rowid] for rowid in signals)))
        named = self.named(q, signals, spans)
        scored = rank(
            signals,
            spans,
            scoped,
            with_vectors=bool(vectors),
            terms=q.terms,
            short=short,
            files=files,
            words=words,
            named=named,
            versions=q.versions,
        )
        exact = config.recency_spares_names and any(sig.get("name", 0.0) >= 1.0 for sig in signals.values())
        if config.recency > 0 and not exact and (words or not config.recency_words_only):
            scored = with_recency(
                scored, self._recency(config.recency_half_life), config.recency, config.recency_fusion
            )
        return scored, signals

    def _recency(self, half_life: float) -> dict[str, float]:
        """The files' recency from the held history, read again only when the history changed."""
        key = (self.store.history_version(), half_life)
        if self._recency_cache is None or self._recency_cache[0] != key:
            self._recency_cache = (key, self.store.file_recency(half_life))
        return self._recency_cache[1]

    def _with_their_names(
        self,
        query: str,
        scored: list[tuple[float, StoredSpan]],
        signals: dict[int, dict[str, float]],
        vectors: dict[str, np.ndarray],
        filters: SearchFilters,
        config: RankingConfig,
        files: bool,
    ) -> tuple[list[tuple[float, StoredSpan]], dict[int, dict[str, float]]]:
        """The deep tier's second pass: the query with the names of its best results added (what a reader
        would search next), ranked again; a span keeps the better of its first score and its second
        (scaled by ``config.rewrite_weight``), so the first pass's best stay first unless the second agrees."""
        said = {w.lower() for w in words(query)}
        names: list[str] = []
        for _, span in scored:
            if len(names) >= config.rewrite_names:
                break
            if (
                len(span.name) > 2
                and span.kind != "module"
                and span.name.lower() not in said
                and span.name not in names
            ):
                names.append(span.name)
        if not names:
            return scored, signals
        wider = parse_query(f"{query} {' '.join(names)}")
        second, more = self._ranked(wider, vectors, filters, config, files, self._words(wider, config))
        best = {span.rowid: (score, span) for score, span in scored}
        for score, span in second:
            score *= config.rewrite_weight
            if span.rowid not in best or score > best[span.rowid][0]:
                best[span.rowid] = (score, span)
                signals.setdefault(span.rowid, more[span.rowid])
        return sorted(best.values(), key=lambda t: -t[0]), signals

    @staticmethod
    def named(q: ParsedQuery, signals: dict[int, dict[str, float]], spans: dict[int, StoredSpan]) -> set[int]:
        """The candidates that are the definition a query made of one name asks for: that name exactly (a
        file named after it too) and, for a qualified name, inside what it qualifies."""
        if not q.whole_name:
            return set()
        return {
            rowid
            for rowid, sig in signals.items()
            if sig.get("name", 0.0) >= 1.0 and names_whole(spans[rowid].name, spans[rowid].qualname, q.whole_name)
        }

    def query_vectors(self, q: ParsedQuery) -> tuple[dict[str, np.ndarray], str | None]:
        """The query's vectors by signal: ``vector`` for the whole query and, if the config weighs it,
        ``title_vector`` for its first line; empty and why when there are none."""
        if self.embedder is None:
            return {}, "embeddings are off"
        index_model = self.store.get_meta("model_id")  # read once: every search passes here
        if not self.store.has_vectors() or index_model is None:
            why = self.store.get_meta("model_error")
            return {}, f"no span is embedded yet ({why})" if why else "no span is embedded yet"
        if index_model != self.embedder.model_id:
            return {}, f"the index was embedded with {index_model}, not {self.embedder.model_id}"
        if not self.wait_for_model and not self.embedder.wait_loaded(MODEL_WAIT_SECONDS):
            return {}, "the embedding model is still loading"
        with_title = bool(q.title and self.config.weights.get("title_vector"))
        try:
            self.embedder.check_index(index_model, self.store.get_meta("model_dims"))
            encoded = self.embedder.encode([q.text, q.title] if with_title else [q.text])
        except ModelLoadError as e:
            return {}, str(e)
        vectors = {"vector": encoded[:1]}
        if with_title:
            vectors["title_vector"] = encoded[-1]
        return vectors, None

    def _telling_terms(self, terms: list[str], n: int, config: RankingConfig) -> tuple[list[str], dict[str, float]]:
        """Drop terms found in most of the ``n`` spans ("def", "self"): BM25 gives them no weight, yet they
        cost the most time, since FTS5 walks every span that has them. With each kept term's IDF (BM25's)."""
        if not terms:
            return terms, {}
        counts = self.store.term_counts(terms)
        most = config.common_term_fraction * n
        if config.max_term_spans is not None:
            most = min(most, config.max_term_spans)
        kept = [t for t in terms if counts.get(t, 0) <= most] or terms
        return kept, {t: math.log(1 + (n - counts.get(t, 0) + 0.5) / (counts.get(t, 0) + 0.5)) for t in kept}

    def gather(
        self,
        q: ParsedQuery,
        vectors: dict[str, np.ndarray],
        filters: SearchFilters,
        every_signal: bool = False,
        files: bool = False,
        config: RankingConfig | None = None,
    ) -> tuple[dict[int, dict[str, float]], dict[int, StoredSpan]]:
        """Candidate spans (by rowid) with each retriever's signal on a 0..1 scale, and the spans themselves;
        ``every_signal`` also computes the signals the config gives no weight (for bench/rerank.py).

        Every retriever searches only the spans the ``filters`` let through (scope first, then rank): a
        scoped search's signals are relative to the best match in scope, not in the whole index."""
        config = config or self.config
        pool = config.candidates
        scope = filters.scope(self.store)
        weights = config.weights_for(bool(vectors), files)
        signals: dict[int, dict[str, float]] = {}

        def join(name: str, found: dict[int, float]) -> None:
            for rowid, value in found.items():
                signals.setdefault(rowid, {})[name] = value

        for name, vector in vectors.items():
            join(name, retrievers.vector(self.vectors, vector, pool, scope))
        n = max(1, self.store.counts()["spans"])
        all_terms = q.terms  # all of them: a word in most spans still says what a file is named after (JsonReader)
        q.terms, idf = self._telling_terms(q.terms, n, config)
        # short once the terms too common to tell spans apart are gone (search()'s test prior and word weights
        # count them all; reading both the same way moved one behaviour query by a rank: measured, not taken)
        short = len(q.terms) <= config.short_query_terms
        if config.word_forms and short:  # a pasted issue has words enough; their forms only add noise
            most = config.common_term_fraction * n
            named = {part for i in q.identifiers for part in [i.lower(), *split_identifier(i)]}  # names are exact
            q.forms = {
                t: forms
                for t in q.terms
                if t not in named and (forms := other_forms(t, self.store.terms_starting, int(most)))
            }
        acronyms = []  # the query's acronyms the code spells out beside their words: forms of those words
        if config.acronyms and short:
            held = self.store.term_counts(list(q.acronyms))  # one lookup for all; most are no word of the index
            acronyms = [a for a, run in q.acronyms.items() if a in held and self.store.written_beside(a, run)]
            for acronym in acronyms:
                for word in (w for w in q.acronyms[acronym] if w in q.terms):
                    q.forms.setdefault(word, []).append(acronym)
        file_scores: dict[str, float] = {}
        lexical: dict[int, float] = {}  # also deeper than the pool (lexical_depth)
        if q.terms:
            lexical = retrievers.lexical(self.store, q.fts_match, max(pool, config.lexical_depth), scope)
            # a short query's words should mostly be in its answer; a pasted issue's cannot all be in one place
            covered = config.lexical_coverage and short
            if lexical and covered:
                lexical = retrievers.scaled(lexical, self.store.terms_of(q.term_forms, span=next(iter(lexical))), idf)
            join("lexical", dict(list(lexical.items())[:pool]))
            if q.title_terms and (every_signal or weights.get("title")):
                join("title", retrievers.title(self.store, q.fts_title_match, pool, scope))
            file_scores = retrievers.file(self.store, q.fts_match, pool, scope)
            if file_scores and covered:
                best = next(iter(file_scores))
                file_scores = retrievers.scaled(file_scores, self.store.terms_of(q.term_forms, path=best), idf)
        spelled = [*(q.spelled if config.spelled_names else []), *(q.capitalised if config.capitalised_names else [])]
        conventions = q.conventions if config.other_conventions and short else {}
        members = q.members if config.type_members else []
        if q.identifiers or spelled or conventions or members:
            frames = q.frame_weights if config.frame_weights else None
            found = retrievers.name(
                self.store,
                q.identifiers,
                pool,
                scope,
                config.case_only_name,
                frames,
                spelled,
                conventions,
                members,
            )
            join("name", found)
        mentioned = retrievers.path(self.store, q.path_weights) if q.paths else {}
        stems: dict[str, float] = {}
        if short and (every_signal or weights.get("stem")):
            stems = retrievers.stem(self.store, [*all_terms, *acronyms], [*q.terms, *acronyms])

        # the best files of the file-level signals join the candidates through their first span
        best_mentioned = sorted(mentioned, key=lambda p: -mentioned[p])[: config.mentioned_files]
        heads = list(dict.fromkeys([*list(file_scores)[: config.file_heads], *best_mentioned, *stems]))
        for head in self.store.file_heads(heads, scope):
            signals.setdefault(head.rowid, {})
        candidates = self.store.spans_by_rowid(list(signals))
        for rowid in candidates:  # found by another retriever: its BM25 too, not a 0 for missing the pool
            if rowid in lexical:
                signals[rowid].setdefault("lexical", lexical[rowid])
        if short and not q.identifiers and config.names_holding_the_query:
            for rowid, share in retrievers.names_holding(candidates.values(), all_terms).items():
                signals[rowid]["name"] = max(signals[rowid].get("name", 0.0), share * config.case_only_name)
        file_vector = {}
        if vectors and (every_signal or weights.get("file_vector")):
            paths = {span.path for span in candidates.values()}
            file_vector = retrievers.file_vector(self.vectors, vectors["vector"], paths, config.file_vector_spans)
        for rowid, span in candidates.items():
            if span.path in file_scores:
                signals[rowid]["file"] = file_scores[span.path]
            if span.path in mentioned:
                signals[rowid]["path"] = mentioned[span.path]
            if span.path in stems:
                signals[rowid]["stem"] = stems[span.path]
            if span.path in file_vector:
                signals[rowid]["file_vector"] = file_vector[span.path]
        return signals, candidates

    def _file_lines(self, path: str, files: dict[str, list[str] | None]) -> list[str] | None:
        if files is NO_FILES:
            return None
        if path not in files:
            text = self.read_text(path) if self.read_text is not None else None
            files[path] = split_lines(text) if text is not None else None
        return files[path]

    def _hit(
        self,
        span: StoredSpan,
        score: float,
        sig: dict[str, float],
        weights: Mapping[str, float],
        terms: set[str],
        file_matches: int,
        files: dict[str, list[str] | None],
    ) -> SearchHit:
        matched = sorted({w for w in words(span.text + " " + span.qualname) if w in terms})[:12]
        snippet = snippet_of(
            span.text,
            span.start_line,
            span.end_line,
            self._file_lines(span.path, files),
            terms=terms,
            name=span.name,
            signature=span.signature,
            max_lines=SNIPPET_LINES,
        )
        return SearchHit(
            id=span.span_id,
            path=span.path,
            start_line=span.start_line,
            end_line=span.end_line,
            kind=span.kind,
            symbol=span.qualname,
            language=span.language,
            score=round(score, 4),
            snippet=snippet.text,
            snippet_start_line=snippet.start_line,
            match_line=MatchLine(snippet.match_line, snippet.match_text),
            why=Why({name: round(v, 4) for name, v in sig.items()}, matched_signals(sig, weights), matched),
            file_matches=file_matches,
        )
