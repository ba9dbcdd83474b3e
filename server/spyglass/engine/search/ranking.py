"""Ranking: the retrievers' signals fused into one score per candidate span, then priors, file context and
the order within each file.

Every signal is on a 0..1 scale before fusion (cosine similarity; BM25 relative to the query's best hit;
1 for an exact name match, 0.5 for a partial one; how sure a path mention is), and the fusion is a
weighted sum (``blend``): the score keeps its meaning across queries, so an absolute floor can drop noise.
(Reciprocal rank fusion was measured and was worse: docs/quality.md.)

Priors then scale the fused score by what a span is: tests and prose rank below the code, all else equal.
Code is code wherever it lives (Go keeps real code in package ``doc/``), and a definition whose name the
query gives keeps its score in a test file too (``gives_name``): a path prior never sinks a name match.
The settings (weights, priors, file context) are a :class:`~.config.RankingConfig`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..declarations import FUNCTION_KINDS, is_declaration
from ..filerules import is_example_path, is_test_path
from ..languages import is_code
from ..store import StoredSpan
from ..textnorm import split_identifier

if TYPE_CHECKING:
    from .config import RankingConfig
    from .filters import SearchFilters

Scored = list[tuple[float, StoredSpan]]


def blend(signals: Mapping[int, Mapping[str, float]], weights: Mapping[str, float]) -> dict[int, float]:
    """Weighted sum of each candidate's signals, capped at 1."""
    return {
        key: min(1.0, sum(weights.get(name, 0.0) * value for name, value in sig.items()))
        for key, sig in signals.items()
    }


MATCHED_SHARE = 0.1  # a signal counts as matched when it adds at least this share of the strongest one


def matched_signals(signals: Mapping[str, float], weights: Mapping[str, float]) -> list[str]:
    """The signals that made a candidate's score, strongest contribution (weight x value) first: those
    adding at least ``MATCHED_SHARE`` of the strongest one's. What a result says it matched on."""
    adds = {name: weights.get(name, 0.0) * value for name, value in signals.items()}
    top = max(adds.values(), default=0.0)
    if top <= 0:
        return []
    return [name for name, add in sorted(adds.items(), key=lambda kv: (-kv[1], kv[0])) if add >= MATCHED_SHARE * top]


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
    examples: float = 0.7  # spans of example, demo and sample folders
    declarations: float = 0.7  # functions without a body: interface, trait and abstract methods, overloads

    def factor(
        self,
        *,
        is_test: bool,
        is_code: bool,
        exact_name: bool,
        given_name: bool = False,
        test_prior: float | None = None,
        is_example: bool = False,
        is_declaration: bool = False,
    ) -> float:
        """The factor for one span; ``test_prior`` replaces ``tests`` for one query (see prior_for_tests).
        An exact name match is exempt from the test, example and declaration priors: where and how a
        definition is written never hides it. A name given in another case or convention (``given_name``,
        see gives_name) is exempt from the test and example priors: an overload's signature named so still
        ranks below its implementation."""
        tests = self.tests if test_prior is None else test_prior
        given_name = given_name or exact_name
        example = self.examples if is_example and not given_name else 1.0
        declaration = self.declarations if is_declaration and not exact_name else 1.0
        return example * declaration * prior(is_test and not given_name, is_code, tests, self.prose)


def gives_name(signal: float, name: str, case_only: float) -> bool:
    """Whether the query gives a definition's name (its ``name`` signal): as written, or, for a name of two
    words or more, in another case or naming convention ("new_null_logger" for ``NewNullLogger``). Go's
    ``Router`` and ``router`` are two names, but no two definitions are ``NewNullLogger`` and
    ``new_null_logger`` by chance."""
    return signal >= 1.0 or (signal >= case_only and len(split_identifier(name)) > 1)


NO_PRIORS = Priors(tests=1.0, prose=1.0, examples=1.0, declarations=1.0)


def prior(is_test: bool, is_code: bool, test_prior: float, prose_prior: float) -> float:
    """How much a span's file kind scales its score: tests and non-code text rank below code."""
    return (test_prior if is_test else 1.0) * (1.0 if is_code else prose_prior)


def rank(
    signals: dict[int, dict[str, float]],
    spans: dict[int, StoredSpan],
    config: RankingConfig,
    *,
    with_vectors: bool,
    terms: list[str],
    short: bool,
    files: bool = False,
    words: bool = False,
    named: Set[int] = frozenset(),
    versions: Set[float] = frozenset(),
) -> Scored:
    """The candidates' signals fused into one score each, scaled by what they are (test, prose) and, for a
    query that is one name, by whether they are the definition it names (``named``), and by whether they are
    kept from an older version the query does not name (``versions``): long definitions counted once, file
    context blended in, each file's spans ordered by their own signals; best first."""
    fused = blend(signals, config.weights_for(with_vectors, files, words))
    test_prior = prior_for_tests(config.priors.tests, short=short, terms=terms)
    declarations = config.priors.declarations < 1.0  # else not worth reading the spans' text
    scored = []
    # declarations, even one named exactly, stay below the code beside them (an overload's signature)
    declared: dict[int, float] = {}
    for rowid, score in fused.items():
        span = spans[rowid]
        exact_name = signals[rowid].get("name", 0.0) >= 1.0
        declaration = declarations and is_declaration(span.language, span.kind, span.text)
        if declaration:
            declared[rowid] = config.priors.declarations
        score *= config.priors.factor(
            is_test=is_test_path(span.path),
            is_code=is_code(span.language),
            exact_name=exact_name,
            given_name=gives_name(signals[rowid].get("name", 0.0), span.name, config.case_only_name),
            test_prior=test_prior,
            is_example=is_example_path(span.path),
            is_declaration=declaration,
        )
        scored.append((score, span))
    if config.older_version < 1.0:
        scored = older_versions_below(scored, config.older_version, versions)
    scored = one_definition_once(scored)
    context = config.file_context_for(with_vectors, words)
    if context:
        scored = with_file_context(scored, context, config.file_context_spans)
    if named:  # after the file context, which stays the evidence of a file's spans as they are
        scored = [(score * beside(span, named, config.beside_the_named), span) for score, span in scored]
    scored.sort(key=lambda t: (-t[0], t[1].path, t[1].start_line))
    within = config.words_within_file if words and config.within_file else config.within_file
    if within:
        data = config.words_data if words else 1.0
        scored = order_within_files(scored, signals, within, named, config.containers_last, data, declared)
    if words and not files:
        data = config.words_data if config.words_code_first else 1.0
        named_here = {rowid for rowid, sig in signals.items() if sig.get("name", 0.0) >= config.case_only_name}
        scored = code_before_data(scored, data, config.words_short_code, named_here)
    return scored


def with_recency(scored: Scored, recency: Mapping[str, float], weight: float, fusion: str) -> Scored:
    """``scored`` (best first) with recently and often changed files (``recency``: path -> 0..1) raised:
    "weighted" scales each score by ``1 + weight * recency``; "rrf" re-orders by reciprocal-rank fusion of
    the ranking with the files' order by recency (the ranking's scores, best first, are given out again in
    the new order: the confidence cut still reads a descending list)."""
    if not recency or weight <= 0:
        return scored
    if fusion == "weighted":
        out = [(score * (1.0 + weight * recency.get(span.path, 0.0)), span) for score, span in scored]
        out.sort(key=lambda t: (-t[0], t[1].path, t[1].start_line))
        return out
    by_recency = sorted({span.path for _, span in scored if span.path in recency}, key=lambda p: -recency[p])
    file_rank = {path: i for i, path in enumerate(by_recency)}

    def fused(i: int, span: StoredSpan) -> float:
        extra = weight / (60 + file_rank[span.path]) if span.path in file_rank else 0.0
        return 1.0 / (60 + i) + extra

    order = sorted(range(len(scored)), key=lambda i: -fused(i, scored[i][1]))
    return [(scored[rank][0], scored[i][1]) for rank, i in enumerate(order)]


def beside(span: StoredSpan, named: Set[int], factor: float) -> float:
    """``factor`` for a candidate that is not a definition a name query names, or is one in a test file
    (below the others named); 1 for the rest."""
    return 1.0 if span.rowid in named and not is_test_path(span.path) else factor


VERSION_DIR_RE = re.compile(r"(?:^|/)v(\d+)/")


def _version(path: str) -> tuple[str, float]:
    """Where a path's version folder is (``packages/zod/src/`` of ``packages/zod/src/v3/types.ts``) and its
    number; ("", inf) for a path in none: the current code, beside any older copy kept in a ``v1/``."""
    m = VERSION_DIR_RE.search(path)
    return (path[: m.start() + 1 if m.start() else 0], float(m.group(1))) if m else ("", math.inf)


def older_versions_below(scored: Scored, factor: float, asked: Set[float] = frozenset()) -> Scored:
    """Candidates kept from an older version of the same code scaled by ``factor``: a library that keeps its
    last major version for migration means the current one unless asked otherwise. A candidate is older when
    it lies in a ``vN/`` folder and a newer version's folder beside it holds a candidate too (zod's
    ``src/v3/`` beside ``src/v4/``: the whole folder, not only the definitions named alike in both), or when
    it lies in a ``v1/`` (or ``v0/``) and the current code around it holds a candidate of the same file or the
    same definition (``pydantic/v1/main.py`` beside ``pydantic/main.py``; a ``v2/`` beside unversioned code
    is the newer one, as in Go's major-version folders). A version the query names (``asked``) stays."""
    versions = [_version(span.path) for _, span in scored]
    newest: dict[str, float] = {}
    for root, n in versions:
        if n != math.inf:
            newest[root] = max(newest.get(root, n), n)
    if not newest:  # most code keeps no version folders
        return scored
    paths = {span.path for _, span in scored}
    current: dict[str, list[str]] = {}  # the current code's candidates: their paths by definition name
    for (_, span), (_, n) in zip(scored, versions, strict=True):
        if n == math.inf:
            current.setdefault(span.qualname, []).append(span.path)

    def copied(span: StoredSpan, root: str) -> bool:  # the same file or definition in the current code
        same_file = root + span.path[len(root) :].split("/", 1)[-1]
        return same_file in paths or any(path.startswith(root) for path in current.get(span.qualname, ()))

    out = []
    for (score, span), (root, n) in zip(scored, versions, strict=True):
        older = n != math.inf and n not in asked and (newest[root] > n or (n <= 1 and copied(span, root)))
        out.append((score * factor if older else score, span))
    return out


def definition_key(span: StoredSpan) -> tuple[str, str, str, str]:
    """What the parts of one long definition share (file, name, kind, signature); an overload (TypeScript's,
    Python's ``@overload``) has a signature of its own, so it is a definition of its own."""
    return (span.path, span.qualname, span.kind, span.signature)


def one_definition_once(scored: Scored) -> Scored:
    """The parts of one long definition (``definition_key``) count once: the best part stands for it and
    the others leave the ranking, so a large class matching the query by name does not fill the ranking
    with copies of its header (keeping them, whole or halved, was worse: docs/quality.md)."""
    out, seen = [], set()
    for score, span in sorted(scored, key=lambda t: -t[0]):
        key = definition_key(span)
        if key not in seen:
            seen.add(key)
            out.append((score, span))
    return out


def with_file_context(scored: Scored, share: float, spans: int) -> Scored:
    """Blend each span's score with the mean of its file's best ``spans`` scores: evidence spread over
    several spans of one file makes each of them more likely to matter."""
    by_file: dict[str, list[float]] = {}
    for score, span in scored:
        by_file.setdefault(span.path, []).append(score)
    context = {path: sum(sorted(v, reverse=True)[:spans]) / spans for path, v in by_file.items()}
    return [((1 - share) * score + share * context[span.path], span) for score, span in scored]


def holds(outer: StoredSpan, inner: StoredSpan) -> bool:
    """Whether ``outer`` is a container (a module, class, struct...; not a function: a closure inside a
    function is part of what that function does) whose lines hold ``inner``'s, a span of the same file."""
    return (
        outer.kind not in FUNCTION_KINDS
        and outer.start_line <= inner.start_line
        and inner.end_line <= outer.end_line
        and (outer.start_line, outer.end_line) != (inner.start_line, inner.end_line)
    )


DATA_KINDS = frozenset({"type", "interface"})  # what data looks like, not code that does anything
# what holds or declares code rather than being code that runs: a file's module span, a class, a struct
NOT_RUN_KINDS = DATA_KINDS | {"class", "struct", "enum", "module"}


def code_before_data(
    scored: Scored, data: float, short: tuple[int, float] = (0, 0.0), named: Set[int] = frozenset()
) -> Scored:
    """``scored`` (best first) re-ordered as if every span that is not code that runs (``NOT_RUN_KINDS``)
    scored ``data`` times its score: a description in words asks what code does, and when spans are ranked
    the function that does it is the answer, not the type it uses or the class or file around it (a window
    of a file no grammar reads may hold code, so it keeps its place). With ``short`` = (lines, power), a
    function or method of fewer lines scores (its lines / lines) ** power times its score as well: a
    description says what code does, and a few lines do little (an accessor, a one-line forwarder, a
    constructor); both signals favour them, BM25 by its length normalisation and the vector because a short
    text has little to dilute the words it shares. A definition the query names (``named``, row ids: its
    words spell the name) keeps its place. The scores are given out again in the new order, as
    ``order_within_files`` does: the order changes, not how sure the ranking is, so the confidence cut keeps
    as many results as before."""
    lines, power = short

    def factor(span: StoredSpan) -> float:
        if span.kind in NOT_RUN_KINDS:
            return data
        if lines and span.kind in FUNCTION_KINDS and span.rowid not in named:
            return min(1.0, (span.end_line - span.start_line + 1) / lines) ** power
        return 1.0

    order = sorted(scored, key=lambda t: -t[0] * factor(t[1]))  # stable
    return [(score, span) for (score, _), (_, span) in zip(scored, order, strict=True)]


def order_within_files(
    scored: Scored,
    signals: dict[int, dict[str, float]],
    weights: Mapping[str, float],
    named: Set[int] = frozenset(),
    containers_last: bool = True,
    data: float = 1.0,
    declared: Mapping[int, float] | None = None,
) -> Scored:
    """Each file keeps the places (and scores) its spans hold in the ranking, so files rank as before, but
    which of its spans takes which place is decided by the spans' own signals under ``weights``, the
    definitions a name query names (``named``) first: the file's n-th best score goes to its n-th span in
    that order. With ``containers_last``, a class or module that holds other candidates of its file comes
    no earlier than the best of them: its text holds its members' words, so it matches whatever they
    match, and the member is the more precise answer (a name query's definition is still first). A type
    alias's or interface's own score is scaled by ``data`` (below 1 for a description in words: such a span
    says what data looks like, and a question in words asks what code does). A declaration's own score is
    scaled by its prior (``declared``: rowid -> factor), so an overload's signature stays below the
    implementation beside it."""
    declared = declared or {}
    places: dict[str, list[int]] = {}
    for i, (_, span) in enumerate(scored):
        places.setdefault(span.path, []).append(i)
    out = list(scored)
    for at in places.values():
        own = {
            i: sum(weights.get(n, 0.0) * v for n, v in signals[scored[i][1].rowid].items())
            * (data if scored[i][1].kind in DATA_KINDS else 1.0)
            * declared.get(scored[i][1].rowid, 1.0)
            for i in at
        }
        holders = set()
        if containers_last and len(at) > 1:
            containers = [i for i in at if scored[i][1].kind not in FUNCTION_KINDS]
            for i in sorted(containers, key=lambda k: scored[k][1].end_line - scored[k][1].start_line):  # inner first
                if members := [j for j in at if holds(scored[i][1], scored[j][1])]:
                    holders.add(i)
                    own[i] = min(own[i], max(own[j] for j in members))
        order = sorted(at, key=lambda j: (scored[j][1].rowid not in named, -own[j], j in holders, j))
        for i, j in zip(at, order, strict=True):
            out[i] = (scored[i][0], scored[j][1])
    return out


def priors_within(priors: Priors, filters: SearchFilters, in_scope: Iterable[StoredSpan] = ()) -> Priors:
    """The priors for a scoped search: a scope of only tests (every glob a test path), only examples or only
    prose (no code language, or globs whose candidates (``in_scope``) hold no code: ``docs/``) lifts that
    prior, which would lower every candidate alike and sink them under the floor."""
    if filters.globs and all(is_test_path(g) for g in filters.globs):
        priors = replace(priors, tests=1.0)
    if filters.globs and all(is_example_path(g) for g in filters.globs):
        priors = replace(priors, examples=1.0)
    prose_languages = filters.languages and not any(is_code(language) for language in filters.languages)
    if prose_languages or (filters.globs and not any(is_code(span.language) for span in in_scope)):
        priors = replace(priors, prose=1.0)
    return priors
