"""Symbol search for type-as-you-go pickers: exact and fuzzy name matches first, then meaning.

An editor's symbol search (LSP ``workspace/symbol``) is asked on every keystroke with a fragment of a
name ("parse_con", "PCfg") or a few words ("where the config is parsed"). Names are matched in SQLite
(exact, prefix, substring), then by edit distance for a typo (``DigestAuht``: an optimal string alignment
distance, where two swapped neighbours are one edit), then the characters in order (``LIKE '%p%c%f%g%'``),
each kind of match scoring a fixed band so an exact name always beats a fuzzy one; semantic hits from :class:`Searcher`
follow below the name matches, deduplicated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .answers import MatchKind
from .filerules import is_test_path
from .search import Searcher, SearchFilters
from .store import StoredSpan

DEFINITION_KINDS = ("function", "method", "class", "interface", "struct", "enum", "type", "section")
NAME_CANDIDATES = 400  # rows read per kind of name match
BANDS = {"exact": 1.0, "prefix": 0.9, "word": 0.85, "substring": 0.8, "typo": 0.75, "fuzzy": 0.7}
TYPO_MIN_LENGTH = 4  # shorter names are one edit away from too many others
LONG_NAME = 8  # names this long may have two typos
SEMANTIC_CAP = 0.65  # semantic hits rank below every name match
FEW_NAME_MATCHES = 5  # a name-like query with fewer name matches than this also searches by meaning
_IDENT_QUERY_RE = re.compile(r"^[\w.:$]+$")


@dataclass(frozen=True)
class Candidate:
    span: StoredSpan
    score: float  # 0..1; the band of the match kind, or the capped search score
    match: MatchKind


def _like_escape(s: str) -> str:
    return re.sub(r"([%_\\])", r"\\\1", s)


def _name_part(query: str) -> str:
    """The part of a name query to match names with: ``Config.parse`` -> ``parse``, ``a::b`` -> ``b``."""
    return re.split(r"[.:]+", query.strip())[-1]


def _compactness(name: str, needle: str) -> float:
    """How tightly ``needle``'s characters sit in ``name`` (1 = contiguous), for ordering fuzzy matches."""
    lname, pos, first, last = name.lower(), -1, -1, -1
    for ch in needle.lower():
        pos = lname.find(ch, pos + 1)
        if pos < 0:
            return 0.0
        first = pos if first < 0 else first
        last = pos
    return len(needle) / (last - first + 1)


def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    neighbouring characters each cost one edit (Damerau-Levenshtein without editing a swapped pair again).
    With ``limit``, stops early and returns ``limit + 1`` once the distance must exceed it."""
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    before, row = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (ca != cb))
            if before is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        if limit is not None and min(current) > limit:
            return limit + 1
        before, row = row, current
    return row[-1]


def _typos(store, needle: str, k: int) -> list[tuple[StoredSpan, int]]:
    """Definitions whose name is a typo or two away from ``needle`` (compared case-insensitively), with the
    number of edits."""
    if len(needle) < TYPO_MIN_LENGTH:
        return []
    limit = 2 if len(needle) >= LONG_NAME else 1
    lowered = needle.lower()
    letters = set(lowered)
    close = {}
    for name in store.names_between(len(needle) - limit, len(needle) + limit):
        low = name.lower()
        # each letter one string has and the other lacks costs an edit: a cheap bound before the distance
        if len(letters.difference(low)) > limit or len(set(low) - letters) > limit:
            continue
        edits = edit_distance(low, lowered, limit)
        if 0 < edits <= limit or (edits == 0 and name != needle):
            close[name] = max(edits, 1)
    return [(span, close[span.name]) for span in store.spans_named_exactly(sorted(close), NAME_CANDIDATES)][: k * 4]


def _name_score(stage: str, name: str, needle: str) -> tuple[float, MatchKind]:
    if stage == "exact":
        return BANDS["exact"] - (0.0 if name == needle else 0.01), "exact"
    if stage == "prefix":
        return BANDS["prefix"] - min(0.05, 0.002 * (len(name) - len(needle))), "prefix"
    if stage == "substring":
        i = name.lower().find(needle.lower())
        at_word = i > 0 and (name[i - 1] in "_-" or name[i].isupper())
        return (BANDS["word"], "word") if at_word else (BANDS["substring"], "substring")
    return BANDS["fuzzy"] * (0.85 + 0.15 * _compactness(name, needle)), "fuzzy"


def _order_key(m: Candidate) -> tuple:
    """Best first; among equal scores code before tests and prose, top-level before nested, short first."""
    s = m.span
    return (-m.score, is_test_path(s.path), s.kind == "section", s.parent is not None, len(s.qualname), s.path)


def find_symbols(searcher: Searcher, query: str, k: int = 50, semantic: bool = True) -> list[Candidate]:
    """Definitions matching ``query`` by name (exact, prefix, word start, substring, fuzzy), then by
    meaning when ``semantic`` and the query reads as words; best first, at most ``k``."""
    query = query.strip()
    if not query:
        return []
    store = searcher.store
    found: dict[int, Candidate] = {}

    def add(span: StoredSpan, score: float, match: MatchKind) -> None:
        old = found.get(span.rowid)
        if span.kind in DEFINITION_KINDS and (old is None or old.score < score):
            found[span.rowid] = Candidate(span, round(score, 4), match)

    looks_like_name = bool(_IDENT_QUERY_RE.match(query))
    if looks_like_name:
        needle = _name_part(query)
        container = query[: len(query) - len(needle)].rstrip(".:").replace("::", ".").lower()
        escaped = _like_escape(needle)
        stages = [("exact", escaped), ("prefix", escaped + "%")]
        if len(needle) >= 2:
            fuzzy = "%" + "%".join(_like_escape(c) for c in needle) + "%"
            stages += [("substring", "%" + escaped + "%"), ("fuzzy", fuzzy)]
        for stage, pattern in stages:
            if len(found) >= k:  # every later stage scores below every match found so far
                break
            if stage == "fuzzy" and len(found) < k:  # a typo scores between a substring and letters in order
                for span, edits in _typos(store, needle, k):
                    if not container or container in span.qualname.lower():
                        add(span, BANDS["typo"] - 0.05 * (edits - 1), "typo")
            for span in store.spans_named_like(pattern, NAME_CANDIDATES):
                if container and container not in span.qualname.lower():
                    continue
                add(span, *_name_score(stage, span.name, needle))

    # a name fragment that already matches names is being typed: meaning adds little and costs a model call
    if semantic and len(query) >= 3 and (not looks_like_name or len(found) < FEW_NAME_MATCHES):
        filters = SearchFilters(kinds=list(DEFINITION_KINDS))
        outcome = searcher.search(query, k=k, filters=filters, per_file=k, read_files=False)
        by_id = {s.span_id: s for s in store.spans_by_span_id([h.id for h in outcome.hits])}
        for hit in outcome.hits:
            stored = by_id.get(hit.id)
            if stored is not None and stored.rowid not in found:
                add(stored, min(SEMANTIC_CAP, hit.score), "semantic")
    return sorted(found.values(), key=_order_key)[:k]
