"""Hybrid search over the index: vectors + BM25 + exact names, fused on real scores, cut by confidence.

Each signal is put on a 0..1 scale (cosine similarity; BM25 relative to the best hit; 1 for an exact
name match) and blended with fixed weights, so a result's score means the same across queries and a
floor can drop noise: an empty answer is better than a wrong one.
"""

from __future__ import annotations

import fnmatch
import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from .answers import MatchLine, SearchHit, SearchOutcome, Why
from .embedding import Embedder
from .errors import ModelLoadError, UnknownValue
from .filerules import is_test_path
from .fusion import Priors, fuse, matched_signals, prior_for_tests, scale_similarities
from .languages import LANGUAGES, is_code, known_language
from .parsing import split_lines
from .query import ParsedQuery, parse_query, query_chunks
from .rerank import Reranker, rerank
from .shaping import confident, diverse, fit_budget
from .snippets import snippet_of
from .spans import KINDS, known_kind
from .store import Scope, Store, StoredSpan
from .textnorm import words
from .vectors import VectorCache, best_mean_by_key

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Profile:
    """How signals are weighed for one kind of query (weights chosen by spyglass eval, docs/quality.md)."""

    weights: dict[str, float]  # with vectors
    lexical_weights: dict[str, float]  # when there is no query vector (no model, nothing embedded yet)
    file_context: float  # share of a span's score that comes from its file's best candidates
    # which of a file's spans comes first: their own signals weighed by these (None: by the score itself)
    within_file: dict[str, float] | None = None


# one profile serves long and short queries: a separate profile for short ones (vectors weighed more,
# no file signal) was worse on issue titles at file and function level (docs/quality.md)
PROFILE = Profile(
    weights={
        "vector": 0.25,
        "lexical": 0.35,
        "file": 0.20,
        "name": 0.20,
        "path": 0.20,
        "title": 0.25,
        "file_vector": 0.2,
    },
    lexical_weights={"vector": 0.0, "lexical": 0.45, "file": 0.30, "name": 0.25, "path": 0.20, "title": 0.25},
    file_context=0.3,
    # within a file the words decide more than the vector: function Acc@5/10 up on every set, files unchanged
    within_file={"vector": 0.1, "lexical": 0.6, "name": 0.2, "title": 0.2},
)
SHORT_QUERY_TERMS = 12  # a query with at most this many content words is short
QUERY_VECTORS = "whole"  # "whole": embed the query as one text; "max"/"mean": pool over its chunks
MENTIONED_FILES = 20  # files named in the query (a traceback, a path) join the candidates
FILE_HEADS = 20  # the best whole-file matches join the candidates through their module span
# tests and prose rank below code, all else equal: the defaults of the ``[search.priors]`` setting
NO_FILES: dict[str, list[str] | None] = {}  # the files cache of a search that reads none
PRIORS = Priors()
NAME_SHARING = False  # a name defined n times gives each definition 1/sqrt(n)
EXTRA_PARTS = 0.0  # parts of a long definition after its best part: weight (0: dropped; docs/quality.md)
BM25_COLUMNS = (4.0, 2.0, 1.5, 1.0, 0.7)  # name, path, doc, body, terms
CANDIDATES = 100
# span BM25 hits read: the best CANDIDATES join the candidates, the rest only give their BM25 to candidates
# the other retrievers found (0: those get none, as if they shared no word with the query)
LEXICAL_DEPTH = 1000
MIN_SCORE = 0.20
RELATIVE_FLOOR = 0.45  # drop results scoring below this fraction of the best one
GAP_CUT = 0.15  # stop at a drop of more than this between neighbouring results
COMMON_TERM_FRACTION = 0.5  # BM25's IDF is <= 0 for a term in over half the documents
PER_FILE = 3
SNIPPET_LINES = 8
FILE_CONTEXT_SPANS = 3
FILE_VECTOR_SPANS = 3  # a file's vector signal: the mean of its this many best span similarities
RERANK_TOP = 30  # how many of the best results a configured re-ranker reads
RERANK_WEIGHT = 0.5
VECTOR_SCALE = "cosine"  # or "relative" (to the best) or "spread" (min-max over the candidates)
FUSION = "blend"  # or "rrf" (fusion.py; compared in docs/quality.md)


def checked_languages(names: Iterable[str]) -> list[str]:
    """``names`` as the registry spells them ("Python", "py" -> "python"); raises :class:`UnknownValue`
    listing the valid languages if one is unknown."""
    return _checked(names, known_language, "language", LANGUAGES, " (any case; aliases such as py, ts work too)")


def checked_kinds(names: Iterable[str]) -> list[str]:
    """``names`` as span kinds in any case ("Function" -> "function"); raises :class:`UnknownValue` listing
    the valid kinds if one is unknown."""
    return _checked(names, known_kind, "kind", KINDS)


def _checked(names: Iterable[str], known, what: str, valid: Iterable[str], hint: str = "") -> list[str]:
    out = []
    for name in names:
        value = known(name)
        if value is None:
            raise UnknownValue(f"unknown {what} {name!r}; valid {what}s{hint}: {', '.join(sorted(valid))}")
        out.append(value)
    return list(dict.fromkeys(out))


@dataclass
class SearchFilters:
    """Which spans a search may return. Languages and kinds are checked and normalised on creation (an
    unknown one raises :class:`UnknownValue`), so a typo never silently matches nothing."""

    globs: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.languages = checked_languages(self.languages)
        self.kinds = checked_kinds(self.kinds)

    def accepts(self, span: StoredSpan) -> bool:
        if self.languages and span.language not in self.languages:
            return False
        if self.kinds and span.kind not in self.kinds:
            return False
        return self.accepts_path(span.path)

    def accepts_path(self, path: str) -> bool:
        return not self.globs or any(fnmatch.fnmatch(path, g) for g in self.globs)

    def scope(self, store: Store) -> Scope | None:
        """The index's spans these filters let through, for the retrievers to search within (None: all)."""
        if not self.active:
            return None
        files = None
        if self.globs:
            files = tuple(sorted(i for path, i in store.indexed_paths().items() if self.accepts_path(path)))
        return Scope(files, tuple(self.kinds), tuple(self.languages))

    @property
    def active(self) -> bool:
        return bool(self.globs or self.languages or self.kinds)


def _one_definition_once(scored: list[tuple[float, StoredSpan]], factor: float) -> list[tuple[float, StoredSpan]]:
    """The parts of one long definition (same file, name and kind) count once: the best part keeps its score,
    the others are scaled by ``factor`` (dropped at 0), so a large class matching the query by name does not
    fill the ranking with copies of its header."""
    best: dict[tuple[str, str, str], float] = {}
    for score, span in scored:
        key = (span.path, span.qualname, span.kind)
        best[key] = max(best.get(key, 0.0), score)
    out, seen = [], set()
    for score, span in sorted(scored, key=lambda t: -t[0]):
        key = (span.path, span.qualname, span.kind)
        if key in seen:
            if factor > 0:
                out.append((score * factor, span))
            continue
        seen.add(key)
        out.append((score, span))
    return out


def _with_file_context(scored: list[tuple[float, StoredSpan]], share: float) -> list[tuple[float, StoredSpan]]:
    """Blend each span's score with the mean of its file's best ``FILE_CONTEXT_SPANS`` scores: evidence
    spread over several spans of one file makes each of them more likely to matter."""
    by_file: dict[str, list[float]] = {}
    for score, span in scored:
        by_file.setdefault(span.path, []).append(score)
    context = {
        path: sum(sorted(v, reverse=True)[:FILE_CONTEXT_SPANS]) / FILE_CONTEXT_SPANS for path, v in by_file.items()
    }
    return [((1 - share) * score + share * context[span.path], span) for score, span in scored]


def rank(
    signals: dict[int, dict[str, float]],
    spans: dict[int, StoredSpan],
    profile: Profile,
    *,
    with_vectors: bool,
    terms: list[str],
    short: bool,
    priors: Priors | None = None,
) -> list[tuple[float, StoredSpan]]:
    """The candidates' signals fused into one score each, scaled by what they are (test, prose; ``priors``,
    else PRIORS), long definitions counted once, file context blended in; best first."""
    priors = priors or PRIORS
    fused = fuse(signals, profile.weights if with_vectors else profile.lexical_weights, FUSION)
    test_prior = prior_for_tests(priors.tests, short=short, terms=terms)
    scored = []
    for rowid, score in fused.items():
        span = spans[rowid]
        score *= priors.factor(
            is_test=is_test_path(span.path),
            is_code=is_code(span.language),
            exact_name=signals[rowid].get("name", 0.0) >= 1.0,
            test_prior=test_prior,
        )
        scored.append((score, span))
    if EXTRA_PARTS != 1.0:
        scored = _one_definition_once(scored, EXTRA_PARTS)
    if profile.file_context:
        scored = _with_file_context(scored, profile.file_context)
    scored.sort(key=lambda t: (-t[0], t[1].path, t[1].start_line))
    if profile.within_file:
        scored = _order_within_files(scored, signals, profile.within_file)
    return scored


def _order_within_files(
    scored: list[tuple[float, StoredSpan]], signals: dict[int, dict[str, float]], weights: dict[str, float]
) -> list[tuple[float, StoredSpan]]:
    """Each file keeps the places (and scores) its spans hold in the ranking, so files rank as before, but
    which of its spans takes which place is decided by the spans' own signals under ``weights``: the file's
    n-th best score goes to its n-th span in that order."""
    places: dict[str, list[int]] = {}
    for i, (_, span) in enumerate(scored):
        places.setdefault(span.path, []).append(i)
    out = list(scored)
    for at in places.values():
        own = {i: sum(weights.get(n, 0.0) * v for n, v in signals[scored[i][1].rowid].items()) for i in at}
        for i, j in zip(at, sorted(at, key=lambda j: (-own[j], j)), strict=True):
            out[i] = (scored[i][0], scored[j][1])
    return out


def priors_within(priors: Priors, filters: SearchFilters) -> Priors:
    """The priors for a scoped search: a scope of only tests (every glob a test path) or only prose (no code
    language) lifts that prior, which would lower every candidate alike and sink them under the floor."""
    if filters.globs and all(is_test_path(g) for g in filters.globs):
        priors = replace(priors, tests=1.0)
    if filters.languages and not any(is_code(language) for language in filters.languages):
        priors = replace(priors, prose=1.0)
    return priors


class Searcher:
    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        vectors: VectorCache | None = None,
        reranker: Reranker | None = None,
        priors: Priors | None = None,
    ):
        self.store = store
        self.priors = priors  # None: the built-in PRIORS
        self.embedder = embedder
        self.vectors = vectors  # an in-memory copy for warm processes; None: sqlite-vec's scan
        self.reranker = reranker
        # False: while the model is still loading, answer from the lexical signals instead of waiting
        self.wait_for_model = True
        # a file's current text by path (unsaved editor text included), to number snippets; None: the index's
        self.read_text: Callable[[str], str | None] | None = None

    def _query_vectors(self, q: ParsedQuery, profile: Profile) -> tuple[dict[str, np.ndarray], str | None]:
        """The query's vectors by signal: ``vector`` (one row, or one per chunk of a long query) and, if the
        profile weighs it, ``title_vector`` for the first line; empty and why when there are none."""
        if self.embedder is None:
            return {}, "embeddings are off"
        if not self.store.has_vectors() or self.store.get_meta("model_id") is None:
            why = self.store.get_meta("model_error")
            return {}, f"no span is embedded yet ({why})" if why else "no span is embedded yet"
        if self.store.get_meta("model_id") != self.embedder.model_id:
            return {}, f"the index was embedded with {self.store.get_meta('model_id')}, not {self.embedder.model_id}"
        if not self.wait_for_model and not self.embedder.loaded:
            return {}, "the embedding model is still loading"
        texts = [q.text] if QUERY_VECTORS == "whole" else query_chunks(q.text)
        with_title = bool(q.title and profile.weights.get("title_vector"))
        try:
            encoded = self.embedder.encode([*texts, q.title] if with_title else texts)
        except ModelLoadError as e:
            return {}, str(e)
        vectors = {"vector": encoded[: len(texts)]}
        if QUERY_VECTORS == "mean" and len(texts) > 1:
            mean = vectors["vector"].mean(axis=0)
            vectors["vector"] = mean / (np.linalg.norm(mean) or 1.0)
        if with_title:
            vectors["title_vector"] = encoded[-1]
        return vectors, None

    def _mentioned_files(self, paths: dict[str, float]) -> dict[str, float]:
        """Indexed files the query names, scored by how sure the match is (times the mention's weight).

        A mention matches a file when their last components agree (a traceback's
        ``/usr/lib/python3/site-packages/pkg/mod.py`` is the workspace's ``src/pkg/mod.py``); the file
        name alone is a weaker match, and a match shared by several files is split between them.
        """
        mentions = [([c for c in p.split("/") if c not in ("", ".", "..")], w) for p, w in paths.items()]
        mentions = [(m, w) for m, w in mentions if m]
        found = self.store.files_named([m[-1] for m, _ in mentions])
        scores: dict[str, float] = {}
        for mention, weight in mentions:
            agree = {}
            for path in found:
                parts = path.split("/")
                n = 0
                while n < min(len(parts), len(mention)) and parts[-1 - n] == mention[-1 - n]:
                    n += 1
                if n:
                    agree[path] = n
            if not agree:
                continue
            best = max(agree.values())
            winners = [p for p, n in agree.items() if n == best]
            score = weight * (1.0 if best >= 2 else 0.5) / len(winners)
            for path in winners:
                scores[path] = max(score, scores.get(path, 0.0))
        return scores

    def _telling_terms(self, terms: list[str]) -> list[str]:
        """Drop terms found in most spans ("def", "self"): BM25 gives them no weight, yet they cost the
        most time, since FTS5 walks every span that has them."""
        if not terms:
            return terms
        counts = self.store.term_counts(terms)
        limit = COMMON_TERM_FRACTION * max(1, self.store.counts()["spans"])
        kept = [t for t in terms if counts.get(t, 0) <= limit]
        return kept or terms

    def search(
        self,
        query: str,
        k: int = 10,
        filters: SearchFilters | None = None,
        min_score: float = MIN_SCORE,
        cut: bool = True,
        max_tokens: int | None = None,
        per_file: int = PER_FILE,
        read_files: bool = True,
    ) -> SearchOutcome:
        """Ranked spans, best first, at most ``k``, at most ``per_file`` from one file (1: a ranking of files,
        each by its best span) and at most ``max_tokens`` (estimated) in all.

        ``cut=False`` returns the whole ranking (no floor, no per-file limit): for evaluation.
        ``read_files=False`` places snippets by the index alone, reading no file (for callers that keep only
        ids and scores)."""
        filters = filters or SearchFilters()
        q = parse_query(query)
        profile = PROFILE
        short = len(q.terms) <= SHORT_QUERY_TERMS
        vectors, note = self._query_vectors(q, profile)
        signals, spans = self._gather(q, vectors, filters, profile)
        signals = {rowid: sig for rowid, sig in signals.items() if rowid in spans and filters.accepts(spans[rowid])}
        priors = priors_within(self.priors or PRIORS, filters)
        scored = rank(signals, spans, profile, with_vectors=bool(vectors), terms=q.terms, short=short, priors=priors)
        if self.reranker is not None and scored:
            try:
                texts = [f"{span.qualname}\n{span.text}" for _, span in scored[:RERANK_TOP]]
                scored = rerank(scored, texts, query, self.reranker, weight=RERANK_WEIGHT)
            except ModelLoadError as e:
                note = f"{note}; {e}" if note else str(e)
        if cut:
            scored = confident(scored, min_score=min_score, relative_floor=RELATIVE_FLOOR, gap=GAP_CUT)
        matches = Counter(span.path for _, span in scored)
        if cut:
            scored = diverse(scored, key=lambda t: t[1].path, per_key=per_file, limit=k)
        terms = set(q.terms)
        weights = profile.weights if vectors else profile.lexical_weights
        files: dict[str, list[str] | None] = {} if read_files else NO_FILES
        hits = [
            self._hit(span, score, signals[span.rowid], weights, terms, matches[span.path], files)
            for score, span in scored[:k]
        ]
        truncated = False
        if max_tokens is not None:
            hits, truncated = fit_budget(hits, max_tokens, terms, shorten=SearchHit.shortened)
        return SearchOutcome(hits=hits, mode="hybrid" if vectors else "lexical", note=note, truncated=truncated)

    def _gather(
        self,
        q: ParsedQuery,
        vectors: dict[str, np.ndarray],
        filters: SearchFilters,
        profile: Profile,
        every_signal: bool = False,
    ) -> tuple[dict[int, dict[str, float]], dict[int, StoredSpan]]:
        """Candidate spans (by rowid) with each retriever's signal on a 0..1 scale, and the spans themselves;
        ``every_signal`` also computes the signals the profile gives no weight (for bench/rerank.py).

        Every retriever searches only the spans the ``filters`` let through (scope first, then rank): a
        scoped search's signals are relative to the best match in scope, not in the whole index."""
        pool = CANDIDATES
        scope = filters.scope(self.store)
        weights = profile.weights if vectors else profile.lexical_weights
        signals: dict[int, dict[str, float]] = {}
        within = self.store.span_ids_in(scope) if vectors and scope is not None and self.vectors is not None else None
        for name, vector in vectors.items():
            if self.vectors is not None:
                nearest = self.vectors.knn(vector, pool, within)
            else:
                nearest = self.store.knn(vector, pool, scope)
            sims = [max(0.0, 1.0 - float(distance)) for _, distance in nearest]
            for (rowid, _), value in zip(nearest, scale_similarities(sims, VECTOR_SCALE), strict=True):
                signals.setdefault(rowid, {})[name] = value
        q.terms = self._telling_terms(q.terms)
        file_scores: dict[str, float] = {}
        lexical: dict[int, float] = {}  # also deeper than the pool (LEXICAL_DEPTH)
        if q.terms:
            hits = self.store.fts(q.fts_match, max(pool, LEXICAL_DEPTH), BM25_COLUMNS, scope)
            best = min((r for _, r in hits), default=0.0)
            if best < 0:
                lexical = {rowid: float(rank) / best for rowid, rank in hits}
                for rowid, _ in hits[:pool]:
                    signals.setdefault(rowid, {})["lexical"] = lexical[rowid]
            if q.title_terms and (every_signal or weights.get("title")):
                hits = self.store.fts(q.fts_title_match, pool, BM25_COLUMNS, scope)
                best = min((r for _, r in hits), default=0.0)
                if best < 0:
                    for rowid, rank in hits:
                        signals.setdefault(rowid, {})["title"] = float(rank) / best
            files = self.store.file_fts(q.fts_match, pool, scope)
            best = min((r for _, r in files), default=0.0)
            if best < 0:
                file_scores = {path: float(rank) / best for path, rank in files}
        if q.identifiers:
            wanted = {i.lower() for i in q.identifiers}
            named = self.store.spans_by_name(q.identifiers, limit=pool, scope=scope)
            sharing = Counter(span.name.lower() for span in named)
            for span in named:
                if "." in span.qualname and span.qualname.lower() in wanted:
                    value = 1.0  # a qualified name (Class.method) names one definition
                elif span.name.lower() in wanted or span.qualname.lower() in wanted:
                    # a bare name several definitions share is weaker evidence for each
                    value = 1.0 / sharing[span.name.lower()] ** 0.5 if NAME_SHARING else 1.0
                else:
                    value = 0.5
                signals.setdefault(span.rowid, {})["name"] = value
        mentioned = self._mentioned_files(q.path_weights) if q.paths else {}

        # the best files of the file-level signals join the candidates through their first span
        best_mentioned = sorted(mentioned, key=lambda p: -mentioned[p])[:MENTIONED_FILES]
        heads = list(dict.fromkeys([*list(file_scores)[:FILE_HEADS], *best_mentioned]))
        for head in self.store.file_heads(heads, scope):
            signals.setdefault(head.rowid, {})
        candidates = self.store.spans_by_rowid(list(signals))
        for rowid in candidates:  # found by another retriever: its BM25 too, not a 0 for missing the pool
            if rowid in lexical:
                signals[rowid].setdefault("lexical", lexical[rowid])
        file_vector = {}
        if vectors and (every_signal or weights.get("file_vector")):
            file_vector = self._file_similarity(vectors["vector"], {span.path for span in candidates.values()})
        for rowid, span in candidates.items():
            if span.path in file_scores:
                signals[rowid]["file"] = file_scores[span.path]
            if span.path in mentioned:
                signals[rowid]["path"] = mentioned[span.path]
            if span.path in file_vector:
                signals[rowid]["file_vector"] = file_vector[span.path]
        return signals, candidates

    def _file_similarity(self, vector: np.ndarray, paths: set[str]) -> dict[str, float]:
        """How close each file is to the query as a whole: the mean of its ``FILE_VECTOR_SPANS`` best span
        similarities, over all of its embedded spans (not only the candidates)."""
        if self.vectors is not None:  # the kNN's similarities to every span, already computed
            by_id = {file_id: path for path, file_id in self.store.file_ids(sorted(paths)).items()}
            scores = self.vectors.file_similarity(vector, list(by_id), FILE_VECTOR_SPANS)
            return {by_id[file_id]: score for file_id, score in scores.items()}
        owners = dict(self.store.embedded_spans_of(sorted(paths)))
        ids, mat = self.store.vectors(list(owners))
        sims = (mat @ np.atleast_2d(np.asarray(vector, dtype=np.float32)).T).max(axis=1) if len(ids) else []
        return best_mean_by_key([owners[int(i)] for i in ids], sims, FILE_VECTOR_SPANS)

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
        weights: dict[str, float],
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
