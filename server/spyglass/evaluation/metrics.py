"""Scoring a ranked list of retrieved spans against gold locations (pure functions, no I/O).

Conventions follow the code-localization literature so our numbers sit in the same table as published
systems: LocAgent (Chen et al. 2025, github.com/gersteinlab/LocAgent: ``evaluation/eval_metric.py``, named
``utils/eval_metric.py`` in older trees, and the gold builder ``util/benchmark/gen_oracle_locations.py``)
and SweRank (Reddy et al. 2025, whose ``src/refactored_eval_localization.py`` is a copy of LocAgent's
scoring plus the conversion of retrieved ``file.py/Class/method`` ids into these keys).

Roll-up
-------
A search returns spans; each is rolled up into three ranked lists without duplicates, keeping the rank of
first appearance (a later span that maps to a key already listed adds nothing):

- files: ``path``.
- modules: ``path:Outer`` where ``Outer`` is the first component of the span's qualname: the outermost
  class for a method or a class, the function itself for a top-level function
  (``a.py:Config`` for ``Config.parse``; ``a.py:helper`` for ``helper``). This is LocAgent's definition:
  its gold ``edited_modules`` are ``file:Class`` for an edited method and ``file:func`` for an edited
  top-level function, and a retrieved ``file.py/Class/method`` becomes ``file.py:Class``. It is *not* the
  bare file for top-level functions (the bench README's shorthand): a module-level span, a text window or
  a Markdown section therefore has no module key and counts at the file level only.
- functions: ``path:qualname`` for function and method spans, with a trailing ``.__init__`` removed, so a
  constructor is ``path:Class`` (LocAgent and SweRank both strip ``.__init__`` before matching). A class
  span (also interface, struct, enum, type) gives ``path:Class``: the key the reference conversion gives
  any retrieved class-level entry, and the key of the class's constructor, whose signature the class span
  shows. Module/window/section spans have no function key.

Gold items (``dataset.GoldItem``) become keys the same way: every gold path is a gold file; a gold symbol
gives the module key of its first component and the function key of the whole name (``.__init__``
stripped). A gold symbol's kind is not recorded, so a bare class name is also a function-level gold item
(``path:Class``), matched by a retrieved class span or ``Class.__init__``; LocAgent's oracle would leave
a class-body-only edit out of the function level. Nested definitions keep their full qualname.

Metrics (binary relevance, per instance)
----------------------------------------
- ``acc_at_k``: 1 when ``min(k, len(gold))`` gold keys are within the top ``k``: all gold items when
  there are at most ``k`` of them, else the top ``k`` must be all gold. This is LocAgent's ``acc_at_k``
  (the ideal vector has ``len(gold)`` ones, truncated to ``k``; hits in the top ``k`` must equal that).
- ``mrr``: reciprocal rank of the first gold key (0 when none is listed).
- ``ndcg_at_k``: DCG with gains ``1/log2(rank+1)`` over the top ``k``, divided by the ideal DCG of
  ``min(k, len(gold))`` hits (LocAgent's ``normalized_dcg``).

An instance with no gold at a level (e.g. gold files known but no symbol) returns ``None`` at that level
and is left out of that level's average, as LocAgent skips instances with an empty gold list; ``aggregate``
reports how many instances each number averages.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..engine.history.touched import FILE_ONLY_KINDS

CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "type"})

FILE_ACC_K = (1, 3, 5, 10)
MODULE_ACC_K = (5, 10)
FUNCTION_ACC_K = (5, 10)
NDCG_K = 10

ACC_METRICS = (
    *(f"file_acc@{k}" for k in FILE_ACC_K),
    *(f"module_acc@{k}" for k in MODULE_ACC_K),
    *(f"function_acc@{k}" for k in FUNCTION_ACC_K),
)
# every aggregate metric, in table order
# what the default (confidence-cut) answer holds: how many results, and whether a gold file is among them
CUT_METRICS = ("cut_results", "cut_file_recall")
METRICS = (*ACC_METRICS, "file_mrr", f"file_ndcg@{NDCG_K}", "tokens", *CUT_METRICS)


class RetrievedSpan(NamedTuple):
    """One retrieved span as the roll-up sees it."""

    path: str
    symbol: str = ""  # qualname; ignored for module/window/section spans
    kind: str = "function"


class RankedKeys(NamedTuple):
    """Ranked, duplicate-free keys at the three levels (or the gold keys, in gold order)."""

    files: list[str]
    modules: list[str]
    functions: list[str]


# a RetrievedSpan, a (path, symbol, kind) tuple, a mapping with those keys, or an object with those attributes
SpanLike = Any


def _span_fields(span: SpanLike) -> tuple[str, str, str]:
    if isinstance(span, Mapping):
        return str(span["path"]), str(span.get("symbol") or ""), str(span.get("kind") or "")
    if isinstance(span, tuple) and not hasattr(span, "path"):
        path, symbol, kind = (*span, "", "")[:3]
        return str(path), str(symbol or ""), str(kind or "")
    return str(span.path), str(getattr(span, "symbol", "") or ""), str(getattr(span, "kind", "") or "")


def module_key(path: str, symbol: str | None) -> str | None:
    """``path:Outer`` (first qualname component), or None when there is no symbol."""
    if not symbol:
        return None
    return f"{path}:{symbol.split('.', 1)[0]}"


def function_key(path: str, symbol: str | None) -> str | None:
    """``path:qualname`` with a trailing ``.__init__`` folded into its class, or None without a symbol."""
    if not symbol:
        return None
    if symbol.endswith(".__init__"):
        symbol = symbol[: -len(".__init__")]
    return f"{path}:{symbol}"


def span_keys(path: str, symbol: str, kind: str) -> tuple[str, str | None, str | None]:
    """(file key, module key or None, function key or None) for one retrieved span."""
    if kind in FILE_ONLY_KINDS or not symbol:
        return path, None, None
    return path, module_key(path, symbol), function_key(path, symbol)


def _append_new(out: list[str], seen: set[str], key: str | None) -> None:
    if key is not None and key not in seen:
        seen.add(key)
        out.append(key)


def roll_up(spans: Iterable[SpanLike]) -> RankedKeys:
    """Roll ranked spans up into ranked file, module and function lists (see the module docstring).

    A span is a ``RetrievedSpan``, a ``(path, symbol, kind)`` tuple, a mapping with those keys, or any
    object with ``path``, ``symbol`` and ``kind`` attributes (e.g. ``spyglass.engine.answers.SearchHit``).
    """
    files: list[str] = []
    modules: list[str] = []
    functions: list[str] = []
    seen: tuple[set[str], set[str], set[str]] = (set(), set(), set())
    for span in spans:
        keys = span_keys(*_span_fields(span))
        for out, s, key in zip((files, modules, functions), seen, keys, strict=True):
            _append_new(out, s, key)
    return RankedKeys(files, modules, functions)


def gold_keys(gold: Iterable[Any]) -> RankedKeys:
    """Gold keys from gold items (objects with ``path``/``symbol``, or ``(path, symbol)`` tuples)."""
    files: list[str] = []
    modules: list[str] = []
    functions: list[str] = []
    seen: tuple[set[str], set[str], set[str]] = (set(), set(), set())
    for item in gold:
        path, symbol = (item[0], item[1]) if isinstance(item, tuple) else (item.path, item.symbol)
        keys = (path, module_key(path, symbol), function_key(path, symbol))
        for out, s, key in zip((files, modules, functions), seen, keys, strict=True):
            _append_new(out, s, key)
    return RankedKeys(files, modules, functions)


# ---------------------------------------------------------------------------------------------------------
# per-instance metrics


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")


def acc_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float | None:
    """1.0 if ``min(k, len(gold))`` gold keys are in ``ranked[:k]``, else 0.0; None when gold is empty."""
    _check_k(k)
    gold_set = set(gold)
    if not gold_set:
        return None
    hits = len(gold_set.intersection(ranked[:k]))
    return 1.0 if hits >= min(k, len(gold_set)) else 0.0


def first_rank(ranked: Sequence[str], gold: Iterable[str]) -> int | None:
    """1-based rank of the first gold key in ``ranked``, or None if none is listed."""
    gold_set = set(gold)
    for i, key in enumerate(ranked, 1):
        if key in gold_set:
            return i
    return None


def mrr(ranked: Sequence[str], gold: Iterable[str]) -> float | None:
    """Reciprocal rank of the first gold key (0.0 if absent); None when gold is empty."""
    gold_set = set(gold)
    if not gold_set:
        return None
    rank = first_rank(ranked, gold_set)
    return 0.0 if rank is None else 1.0 / rank


def ndcg_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float | None:
    """nDCG@k with binary relevance; None when gold is empty."""
    _check_k(k)
    gold_set = set(gold)
    if not gold_set:
        return None
    dcg = sum(1.0 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in gold_set)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(gold_set))))
    return dcg / ideal


# ---------------------------------------------------------------------------------------------------------
# instances and averages


@dataclass(slots=True)
class InstanceScore:
    """Every per-instance number ``aggregate`` needs; None where the instance has no gold at a level."""

    id: str
    values: dict[str, float | None] = field(default_factory=dict)  # keyed by METRICS names
    file_rank: int | None = None  # rank of the first gold file, None if not retrieved (or no gold files)
    top_files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {**{m: self.values.get(m) for m in METRICS}, "file_rank": self.file_rank, "top_files": self.top_files}

    @classmethod
    def from_dict(cls, instance_id: str, data: Mapping[str, Any]) -> InstanceScore:
        return cls(
            instance_id,
            {m: data.get(m) for m in METRICS},
            data.get("file_rank"),
            list(data.get("top_files") or []),
        )


def score_instance(
    instance_id: str,
    gold: Iterable[Any],
    spans: Iterable[SpanLike],
    *,
    tokens: float | None = None,
    cut: Iterable[SpanLike] | None = None,
    keep_top_files: int = 10,
) -> InstanceScore:
    """Roll up ``spans`` (best first), score them against ``gold`` items and keep the top files.

    ``tokens`` is the caller's measure of what the top results would cost an agent to read; ``cut`` the
    results of the same search with its confidence cut on (what a user sees), if the caller ran it.
    """
    got = roll_up(spans)
    want = gold_keys(gold)
    values: dict[str, float | None] = {}
    for k in FILE_ACC_K:
        values[f"file_acc@{k}"] = acc_at_k(got.files, want.files, k)
    for k in MODULE_ACC_K:
        values[f"module_acc@{k}"] = acc_at_k(got.modules, want.modules, k)
    for k in FUNCTION_ACC_K:
        values[f"function_acc@{k}"] = acc_at_k(got.functions, want.functions, k)
    values["file_mrr"] = mrr(got.files, want.files)
    values[f"file_ndcg@{NDCG_K}"] = ndcg_at_k(got.files, want.files, NDCG_K)
    values["tokens"] = None if tokens is None else float(tokens)
    values.update(dict.fromkeys(CUT_METRICS))
    if cut is not None:
        cut = list(cut)
        kept = roll_up(cut).files
        values["cut_results"] = float(len(cut))
        values["cut_file_recall"] = float(any(f in want.files for f in kept)) if want.files else None
    return InstanceScore(instance_id, values, first_rank(got.files, want.files), got.files[:keep_top_files])


def aggregate(scores: Iterable[InstanceScore]) -> dict[str, Any]:
    """Averages over instances.

    Acc@k values are percentages (0-100, 2 decimals), MRR and nDCG fractions (0-1, 4 decimals), tokens a
    mean (1 decimal). A metric no instance has a value for is None. ``n`` holds, per metric, how many
    instances the average is over; ``instances`` is the number of instances given.
    """
    scores = list(scores)
    out: dict[str, Any] = {"instances": len(scores)}
    counts: dict[str, int] = {}
    for m in METRICS:
        vals = [v for s in scores if (v := s.values.get(m)) is not None]
        counts[m] = len(vals)
        if not vals:
            out[m] = None
            continue
        mean = sum(vals) / len(vals)
        if m in ACC_METRICS or m == "cut_file_recall":
            out[m] = round(100.0 * mean, 2)
        elif m in ("tokens", "cut_results"):
            out[m] = round(mean, 1)
        else:
            out[m] = round(mean, 4)
    out["n"] = counts
    return out
