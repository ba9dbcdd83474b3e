"""The retrievers: one function per signal, each on a 0..1 scale, each searching only the spans in ``scope``.

Span signals map a span's rowid to its value, in the retriever's order (best first); file signals map a
path. A new signal is one function here and one weight in :class:`~.config.RankingConfig`; the searcher
(searcher.py) gathers them and ranking.py weighs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ..store import Scope, Store, StoredSpan
from ..textnorm import split_identifier
from .query import STOPWORDS, word_keys
from .ranking import definition_key
from .vectors import VectorIndex


def vector(index: VectorIndex, query: np.ndarray, pool: int, scope: Scope | None) -> dict[int, float]:
    """``vector`` (and ``title_vector``): the cosine similarity of the ``pool`` nearest spans."""
    return {rowid: max(0.0, 1.0 - float(distance)) for rowid, distance in index.knn(query, pool, scope)}


def _relative_bm25(hits: Sequence[tuple[object, float]]) -> dict:
    """BM25 (negative, lower is better) relative to the best hit: 1 for the best; nothing when no hit has
    a useful score."""
    best = min((r for _, r in hits), default=0.0)
    if best >= 0:
        return {}
    return {key: float(rank) / best for key, rank in hits}


def scaled(scores: dict, matched: set[str], idf: Mapping[str, float]) -> dict:
    """BM25 relative to the best hit says nothing of how much of the query that hit holds: scale the
    signal by the best hit's share of the query's terms (weighted by IDF), so one rare word in common
    ("merge" of "recursively merge nested dictionaries") does not count as a full match."""
    total = sum(idf.values())
    share = sum(idf.get(t, 0.0) for t in matched) / total if total else 1.0
    return {key: value * share for key, value in scores.items()}


def lexical(store: Store, match: str, depth: int, scope: Scope | None) -> dict[int, float]:
    """``lexical``: span BM25 over every full-text column, for the ``depth`` best spans."""
    return _relative_bm25(store.fts(match, depth, scope))


def title(store: Store, match: str, pool: int, scope: Scope | None) -> dict[int, float]:
    """``title``: the same BM25 for the query's first line alone (an issue's gist)."""
    return _relative_bm25(store.fts(match, pool, scope))


def file(store: Store, match: str, pool: int, scope: Scope | None) -> dict[str, float]:
    """``file``: whole-file BM25 (a long query spreads its words over a file, not one span), by path."""
    return _relative_bm25(store.file_fts(match, pool, scope))


PART_ONLY = 0.7  # a name that is one part of a qualified name the query gives, in another place


def _names_file(span: StoredSpan) -> bool:
    """A file's own span (its module), whose name is the file's: files are named after what they hold in
    lower case as often as not (``query.ex`` holds ``Ecto.Query``), so here case never matters."""
    return span.kind == "module" and span.start_line == 1 and span.path.rsplit("/", 1)[-1].startswith(span.name)


def name(
    store: Store,
    identifiers: list[str],
    pool: int,
    scope: Scope | None,
    case_only: float,
    frames: Mapping[str, float] | None = None,
    spelled: Sequence[str] = (),
    conventions: Mapping[str, Sequence[str]] | None = None,
    members: Sequence[tuple[str, str]] = (),
) -> dict[int, float]:
    """``name``: definitions the query names: 1 for the name or qualified name as written (or a file of
    that name), ``case_only`` when only the case differs (Go's exported ``Router`` and unexported ``router``
    are different names); times its frame's weight for a function of a stack trace (``frames``). Names the
    query may spell as words (``spelled``: ``normalize_params``) are looked up too, and weigh ``case_only``;
    so do a name's forms in another naming convention (``conventions``: ``request_capability`` ->
    ``requestcapability``), when nothing has the name as written in any case: a name that is defined was
    meant as written (``belongs_to`` is not a request for ``BelongsTo``). A type and a member written apart
    (``members``: "QueryParams merge", "Map bindToEnviron") name that type's member, 1 in any case or
    convention: the type says which definition is meant, and it holds one member of a name.

    A definition split into parts is named once, by its first part, where the name is declared: the parts
    after it are its body, and a match there would pick an arbitrary part to stand for the definition."""
    exact = set(identifiers)
    qualified = [i for i in identifiers if "." in i]
    parts = {part for i in qualified for part in i.split(".")}  # ``Helpers`` of ``Sinatra.Helpers``
    looked_up = [*identifiers, *spelled]
    found = store.spans_by_name(looked_up, limit=pool, scope=scope)
    defined = {span.name.lower() for span in found}
    respelled = [form for ident, forms in (conventions or {}).items() if ident.lower() not in defined for form in forms]
    if respelled:
        seen = {span.rowid for span in found}
        found += [span for span in store.spans_by_name(respelled, limit=pool, scope=scope) if span.rowid not in seen]
    owned: set[int] = set()
    if members:
        seen = {span.rowid for span in found}
        by_type = store.members_named(members, limit=pool, scope=scope)
        owned = {span.rowid for span in by_type}
        found += [span for span in by_type if span.rowid not in seen]
    found = sorted(found, key=lambda s: (s.path, s.start_line))
    scores: dict[int, float] = {}
    for before, span in zip([None, *found], found, strict=False):
        if before is not None and _continues(before, span):
            continue  # a later part of a split definition: its first part carries the name
        value = case_only
        if span.name in exact or span.qualname in exact or span.rowid in owned or _names_file(span):
            value = 1.0
        if span.name in parts and not any(span.qualname.endswith(i) for i in qualified):
            value *= PART_ONLY  # the query names a ``Helpers`` inside ``Sinatra``; this one is elsewhere
        if frames and span.name in frames:
            value *= frames[span.name]  # an outer frame of a stack trace: less likely where the error is
        scores[span.rowid] = value
    return dict(sorted(scores.items(), key=lambda kv: -kv[1]))


def names_holding(spans: Iterable[StoredSpan], terms: Sequence[str]) -> dict[int, float]:
    """The definitions whose qualified name holds every word of a short query of two words or more, in any
    form ("proxy request headers": ``getProxyRequestHeaders``; "Handler with group": ``Handler.WithGroup``),
    each with the share of its own name's words (stop words aside) the query gives (3 of 4; 1 of 1): the
    query names them in words, though no run of its words is the whole name, and the more of the name it
    gives the surer."""
    if len(terms) < 2:
        return {}
    wanted = [word_keys(t) for t in terms]
    out = {}
    for span in spans:
        if span.kind == "module":
            continue
        own = [word_keys(w) for w in split_identifier(span.name) if w not in STOPWORDS]
        keys = set().union(*(word_keys(w) for w in split_identifier(span.qualname)))  # the name's words too
        if own and all(not keys.isdisjoint(key) for key in wanted):
            out[span.rowid] = sum(any(not w.isdisjoint(key) for key in wanted) for w in own) / len(own)
    return out


def _continues(before: StoredSpan, span: StoredSpan) -> bool:
    """Whether ``span`` is the next part of the definition ``before`` was split from."""
    return definition_key(before) == definition_key(span) and span.start_line == before.end_line + 1


def path(store: Store, mentions: dict[str, float]) -> dict[str, float]:
    """``path``: indexed files the query names, scored by how sure the match is (times the mention's weight).

    A mention matches a file when their last components agree (a traceback's
    ``/usr/lib/python3/site-packages/pkg/mod.py`` is the workspace's ``src/pkg/mod.py``); the file
    name alone is a weaker match, and a match shared by several files is split between them.
    """
    parsed = [([c for c in p.split("/") if c not in ("", ".", "..")], w) for p, w in mentions.items()]
    parsed = [(m, w) for m, w in parsed if m]
    if not parsed:
        return {}
    found = store.files_named([m[-1] for m, _ in parsed])
    scores: dict[str, float] = {}
    for mention, weight in parsed:
        agree = {}
        for candidate in found:
            parts = candidate.split("/")
            n = 0
            while n < min(len(parts), len(mention)) and parts[-1 - n] == mention[-1 - n]:
                n += 1
            if n:
                agree[candidate] = n
        if not agree:
            continue
        best = max(agree.values())
        winners = [p for p, n in agree.items() if n == best]
        score = weight * (1.0 if best >= 2 else 0.5) / len(winners)
        for winner in winners:
            scores[winner] = max(score, scores.get(winner, 0.0))
    return scores


STRUCTURAL_STEMS = frozenset({"mod", "index", "init", "main", "lib", "core", "base", "internal"})
# Words that say what sort of file it is, not what it is about: ``BooleanUtils.java`` is about booleans.
ROLE_WORDS = frozenset({"util", "utils", "utility", "utilities", "helper", "helpers", "impl"})


def stem_words(path: str) -> list[str]:
    """The words of a file's name without its extension: ``root_model.py`` -> root, model;
    ``JsonElement.java`` -> json, element; ``colors.bash`` -> colors; ``BooleanUtils.java`` -> boolean: a
    word for the sort of file is not its topic, unless it is the whole name (``utils.py`` -> utils)."""
    name = path.rsplit("/", 1)[-1]
    name = name.split(".", 1)[0] if not name.startswith(".") else name
    words = [w for w in split_identifier(name) if len(w) > 2]
    return [w for w in words if w not in ROLE_WORDS] or words


def stem(store: Store, terms: Iterable[str], telling: Iterable[str]) -> dict[str, float]:
    """``stem``: files named after what the query is about: every word of the file's name (``root_model``,
    ``JsonElement``, ``colors``) is one of the query's ``terms`` and one at least is ``telling`` (not in most
    spans: in a JSON library ``json.hpp`` is named after what every file is about), compared by Snowball
    stem. Names that say where, not what (``mod.rs``, ``index.ts``, ``__init__.py``) never match."""
    wanted = frozenset().union(*map(word_keys, terms))
    rare = frozenset().union(*map(word_keys, telling))
    if not wanted or not rare:
        return {}
    found = {}
    for path in store.files_whose_name_has([r[:4] for r in rare]):
        named = stem_words(path)
        keys = [word_keys(w) for w in named]
        if named and not STRUCTURAL_STEMS.intersection(named) and all(wanted & k for k in keys):
            if any(rare & k for k in keys):
                found[path] = 1.0
    return found


def file_vector(index: VectorIndex, query: np.ndarray, paths: Iterable[str], n: int) -> dict[str, float]:
    """``file_vector``: how close each file is to the query as a whole, the mean of its ``n`` best span
    similarities over all of its embedded spans (not only the candidates)."""
    return index.file_similarity(query, paths, n)
