"""The span at a position, and the spans related to it: what uses it, what resembles it, what documents it.

For an editor's hover card and peek view (and an agent's context): a few links worth following, not a
ranking of the whole workspace. Three relations, each from a signal the index already has:
- ``uses``: code whose text names the symbol (an FTS5 phrase over span bodies), other files first; only
  real uses count (not the name in a comment or a string literal, :mod:`.uses`), and the line of the
  first one is kept for the preview;
- ``similar``: the nearest spans by embedding (the span's own vector; nothing while it is unembedded);
- ``documents``: prose (Markdown, reStructuredText, plain text) that names the symbol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import get_args

import numpy as np

from .answers import Relation
from .filerules import is_test_path
from .languages import is_code
from .search import Searcher
from .store import StoredSpan
from .uses import code_use_lines

FILE_KINDS = ("module", "window")
RELATIONS: tuple[Relation, ...] = get_args(Relation)
CANDIDATES = 30


@dataclass(frozen=True)
class RelatedSpan:
    span: StoredSpan
    relation: Relation
    score: float  # 0..1 within its relation (BM25 relative to the best, or cosine similarity)
    text_line: int | None = None  # ``uses``: the 0-based line of the span's text with the first use


def span_at(searcher: Searcher, path: str, line: int) -> StoredSpan | None:
    """The innermost indexed span of ``path`` covering 1-based ``line``: a definition if one covers it,
    else the module or window span; None when the file is not indexed or the line is past its end."""
    covering = [s for s in searcher.store.spans_of_file(path) if s.start_line <= line <= s.end_line]
    if not covering:
        return None
    return min(covering, key=lambda s: (s.kind in FILE_KINDS, s.end_line - s.start_line, -s.start_line))


def _phrase(name: str) -> str | None:
    """An FTS5 phrase matching ``name`` as the tokenizer splits it (``parse_config`` -> "parse config")."""
    tokens = re.findall(r"[^\W_]+", name.lower())
    return '"' + " ".join(tokens) + '"' if tokens and len(name) > 2 else None


def overlaps(a: StoredSpan, b: StoredSpan) -> bool:
    """The same file and overlapping lines: the span itself, what encloses it or what it encloses."""
    return a.path == b.path and a.start_line <= b.end_line and b.start_line <= a.end_line


def related_spans(searcher: Searcher, span: StoredSpan, k: int = 3) -> list[RelatedSpan]:
    """Up to ``k`` spans related to ``span``: the best of each relation first, then the next best."""
    store = searcher.store
    by_relation: dict[Relation, list[RelatedSpan]] = {r: [] for r in RELATIONS}
    phrase = _phrase(span.name) if span.kind not in FILE_KINDS else None
    if phrase:
        hits = store.fts(f"body : {phrase}", CANDIDATES * 2, weights={"body": 1.0})
        best = -hits[0][1] if hits and hits[0][1] < 0 else 1.0
        rows = store.spans_by_rowid([r for r, _ in hits])
        for rowid, bm25 in hits:
            other = rows.get(rowid)
            if other is None or overlaps(span, other) or other.name == span.name:
                continue
            score = min(1.0, max(0.0, -bm25 / best)) if best else 0.0
            relation: Relation = "uses" if is_code(other.language) else "documents"
            line = None
            if relation == "uses":
                lines = code_use_lines(other.text, other.language, span.name)
                if lines == []:  # named only in comments and strings (or as part of another word)
                    continue
                line = lines[0] if lines else None
            by_relation[relation].append(RelatedSpan(other, relation, round(score, 4), line))
        by_relation["uses"].sort(
            key=lambda r: (r.span.path == span.path, is_test_path(r.span.path), r.span.kind in FILE_KINDS, -r.score)
        )
    if span.embedded:
        _, mat = store.vectors([span.rowid])
        if len(mat):
            near = searcher.vectors.knn(np.asarray(mat[0]), CANDIDATES)
            rows = store.spans_by_rowid([r for r, _ in near])
            named = {r.span.rowid for rs in by_relation.values() for r in rs}  # text evidence says more
            for rowid, distance in near:
                other = rows.get(rowid)
                if other is None or rowid in named or overlaps(span, other) or other.kind in FILE_KINDS:
                    continue
                by_relation["similar"].append(RelatedSpan(other, "similar", round(1.0 - distance, 4)))
    picked: list[RelatedSpan] = []
    seen: set[int] = set()
    queues = [list(by_relation[r]) for r in RELATIONS]
    while len(picked) < k and any(queues):
        for q in queues:  # round-robin: one of each relation, then the next of each
            while q and q[0].span.rowid in seen:
                q.pop(0)
            if q and len(picked) < k:
                r = q.pop(0)
                picked.append(r)
                seen.add(r.span.rowid)
    return picked
