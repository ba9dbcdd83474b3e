"""Hybrid search over the index: vectors + BM25 + exact names, fused on real scores, cut by confidence.

Each signal is put on a 0..1 scale (cosine similarity; BM25 relative to the best hit; 1 for an exact
name match) and blended with fixed weights, so a result's score means the same across queries and a
floor can drop noise: an empty answer is better than a wrong one.
"""

from __future__ import annotations

import fnmatch
import logging
from dataclasses import dataclass, field

import numpy as np

from .embedding import Embedder
from .errors import ModelLoadError
from .filerules import is_test_path
from .languages import is_code
from .query import ParsedQuery, parse_query
from .store import Store, StoredSpan
from .textnorm import words
from .vectors import VectorCache

log = logging.getLogger(__name__)

WEIGHTS = {"vector": 0.25, "lexical": 0.35, "file": 0.20, "name": 0.20}  # chosen by spyglass eval (docs/quality.md)
LEXICAL_ONLY_WEIGHTS = {"vector": 0.0, "lexical": 0.45, "file": 0.30, "name": 0.25}
FILE_HEADS = 20  # the best whole-file matches join the candidates through their module span
TEST_PRIOR = 0.7  # tests rank below the code they test, all else equal (path conventions, any language)
PROSE_PRIOR = 0.7  # docs, config and other text rank below code, all else equal
BM25_COLUMNS = (4.0, 2.0, 1.5, 1.0, 0.7)  # name, path, doc, body, terms
CANDIDATES = 100
MIN_SCORE = 0.20
RELATIVE_FLOOR = 0.45  # drop results scoring below this fraction of the best one
COMMON_TERM_FRACTION = 0.5  # BM25's IDF is <= 0 for a term in over half the documents
PER_FILE = 3
SNIPPET_LINES = 8


@dataclass
class SearchFilters:
    globs: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def accepts(self, span: StoredSpan) -> bool:
        if self.languages and span.language not in self.languages:
            return False
        if self.kinds and span.kind not in self.kinds:
            return False
        return not self.globs or any(fnmatch.fnmatch(span.path, g) for g in self.globs)

    @property
    def active(self) -> bool:
        return bool(self.globs or self.languages or self.kinds)


@dataclass
class SearchHit:
    id: str
    path: str
    start_line: int
    end_line: int
    kind: str
    symbol: str
    language: str
    score: float
    snippet: str
    why: dict


@dataclass
class SearchOutcome:
    hits: list[SearchHit]
    mode: str  # "hybrid" or "lexical"
    note: str | None = None  # why the search fell back to lexical, if it did


def _snippet(text: str, terms: set[str], max_lines: int = SNIPPET_LINES) -> str:
    """The ``max_lines`` consecutive lines with the most query terms, blank edges trimmed."""
    lines = text.splitlines()
    if len(lines) > max_lines:
        hits = [sum(1 for w in words(line) if w in terms) for line in lines]
        best, best_at = 0, 0
        window = sum(hits[:max_lines])
        for i in range(len(lines) - max_lines + 1):
            if i:
                window += hits[i + max_lines - 1] - hits[i - 1]
            if window > best:
                best, best_at = window, i
        lines = lines[best_at : best_at + max_lines]
    return "\n".join(lines).strip("\n")


class Searcher:
    def __init__(self, store: Store, embedder: Embedder | None, vectors: VectorCache | None = None):
        self.store = store
        self.embedder = embedder
        self.vectors = vectors  # an in-memory copy for warm processes; None: sqlite-vec's scan

    def _query_vector(self, q: ParsedQuery) -> tuple[np.ndarray | None, str | None]:
        if self.embedder is None:
            return None, "embeddings are off"
        if not self.store.has_vectors() or self.store.get_meta("model_id") is None:
            why = self.store.get_meta("model_error")
            return None, f"no span is embedded yet ({why})" if why else "no span is embedded yet"
        if self.store.get_meta("model_id") != self.embedder.model_id:
            return None, f"the index was embedded with {self.store.get_meta('model_id')}, not {self.embedder.model_id}"
        try:
            return self.embedder.encode([q.text])[0], None
        except ModelLoadError as e:
            return None, str(e)

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
    ) -> SearchOutcome:
        """Ranked spans. ``cut=False`` returns the whole ranking (no floor, no per-file limit): for evaluation."""
        filters = filters or SearchFilters()
        q = parse_query(query)
        pool = CANDIDATES * (5 if filters.active else 1)
        signals: dict[int, dict[str, float]] = {}

        vector, note = self._query_vector(q)
        if vector is not None:
            nearest = self.vectors.knn(vector, pool) if self.vectors is not None else self.store.knn(vector, pool)
            for rowid, distance in nearest:
                signals.setdefault(rowid, {})["vector"] = max(0.0, 1.0 - float(distance))
        q.terms = self._telling_terms(q.terms)
        if q.terms:
            hits = self.store.fts(q.fts_match, pool, BM25_COLUMNS)
            best = min((r for _, r in hits), default=0.0)
            if best < 0:
                for rowid, rank in hits:
                    signals.setdefault(rowid, {})["lexical"] = float(rank) / best
        file_scores: dict[str, float] = {}
        if q.terms:
            files = self.store.file_fts(q.fts_match, pool)
            best = min((r for _, r in files), default=0.0)
            if best < 0:
                file_scores = {path: float(rank) / best for path, rank in files}
        named = self.store.spans_by_name(q.identifiers, limit=pool) if q.identifiers else []
        wanted = {i.lower() for i in q.identifiers}
        for span in named:
            exact = span.qualname.lower() in wanted or span.name.lower() in wanted
            signals.setdefault(span.rowid, {})["name"] = 1.0 if exact else 0.5

        for head in self.store.file_heads(list(file_scores)[:FILE_HEADS]):
            signals.setdefault(head.rowid, {})

        weights = WEIGHTS if vector is not None else LEXICAL_ONLY_WEIGHTS
        spans = self.store.spans_by_rowid(list(signals))
        scored: list[tuple[float, StoredSpan, dict[str, float]]] = []
        for rowid, sig in signals.items():
            span = spans.get(rowid)
            if span is None or not filters.accepts(span):
                continue
            if span.path in file_scores:
                sig["file"] = file_scores[span.path]
            score = sum(weights[name] * value for name, value in sig.items())
            if is_test_path(span.path):
                score *= TEST_PRIOR
            if not is_code(span.language):
                score *= PROSE_PRIOR
            if q.paths and any(span.path.endswith(p) for p in q.paths):
                score = min(1.0, score + 0.1)
                sig["path"] = 1.0
            scored.append((score, span, sig))
        scored.sort(key=lambda t: (-t[0], t[1].path, t[1].start_line))

        terms = set(q.terms)
        top = scored[0][0] if scored else 0.0
        per_file: dict[str, int] = {}
        out: list[SearchHit] = []
        for score, span, sig in scored:
            if len(out) >= k or (cut and (score < min_score or score < top * RELATIVE_FLOOR)):
                break
            if cut and per_file.get(span.path, 0) >= PER_FILE:
                continue
            per_file[span.path] = per_file.get(span.path, 0) + 1
            matched = sorted({w for w in words(span.text + " " + span.qualname) if w in terms})[:12]
            why = {"signals": {k_: round(v, 4) for k_, v in sig.items()}, "terms": matched}
            out.append(
                SearchHit(
                    id=span.span_id,
                    path=span.path,
                    start_line=span.start_line,
                    end_line=span.end_line,
                    kind=span.kind,
                    symbol=span.qualname,
                    language=span.language,
                    score=round(score, 4),
                    snippet=_snippet(span.text, terms),
                    why=why,
                )
            )
        return SearchOutcome(hits=out, mode="hybrid" if vector is not None else "lexical", note=note)
