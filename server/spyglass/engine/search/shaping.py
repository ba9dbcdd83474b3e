"""Shaping a ranking into an answer: the confidence cut, diversity across files, snippets and budgets.

Pure functions over already-scored results, so each rule can be tested with hand-made cases.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar, cast

from ..snippets import ELLIPSIS, LINE_CHARS, cut_line
from ..textnorm import words

__all__ = ["ELLIPSIS", "LINE_CHARS", "best_lines", "confident", "cost", "diverse", "fit_budget", "tokens_of"]

CHARS_PER_TOKEN = 4  # the usual rough figure for LLM tokenizers on code and English
HIT_OVERHEAD_CHARS = 60  # what a result costs besides path, symbol and snippet (id, lines, kind, score)

T = TypeVar("T")


def tokens_of(chars: int) -> int:
    return math.ceil(chars / CHARS_PER_TOKEN)


def confident(
    scored: Sequence[tuple[float, T]],
    *,
    min_score: float,
    relative_floor: float,
    gap: float | None = None,
) -> list[tuple[float, T]]:
    """The head of a best-first ranking worth showing: scores at or above an absolute floor and at or above
    ``relative_floor`` times the best score, stopping at the first drop of more than ``gap`` between
    neighbours (a clear group of answers, then noise). May be empty: no answer beats a wrong one."""
    if not scored:
        return []
    floor = max(min_score, scored[0][0] * relative_floor)
    out: list[tuple[float, T]] = []
    for item in scored:
        if item[0] < floor or (gap is not None and out and out[-1][0] - item[0] > gap):
            break
        out.append(item)
    return out


def diverse(items: Iterable[T], key: Callable[[T], str], per_key: int, limit: int) -> list[T]:
    """The first ``limit`` items, at most ``per_key`` of them sharing a key (a file)."""
    seen: dict[str, int] = {}
    out: list[T] = []
    for item in items:
        if len(out) >= limit:
            break
        k = key(item)
        if seen.get(k, 0) >= per_key:
            continue
        seen[k] = seen.get(k, 0) + 1
        out.append(item)
    return out


def best_lines(text: str, terms: set[str], max_lines: int) -> str:
    """The ``max_lines`` consecutive lines of ``text`` with the most query terms (the first such window),
    blank edges trimmed and overlong lines cut."""
    lines = text.splitlines()
    if len(lines) > max_lines:
        hits = [sum(1 for w in words(line) if w in terms) for line in lines]
        best, best_at = 0, 0
        window = sum(hits[:max_lines])
        best = window
        for i in range(1, len(lines) - max_lines + 1):
            window += hits[i + max_lines - 1] - hits[i - 1]
            if window > best:
                best, best_at = window, i
        lines = lines[best_at : best_at + max_lines]
    return "\n".join(cut_line(line) for line in lines).strip("\n")


class Sized(Protocol):
    path: str
    symbol: str
    snippet: str


S = TypeVar("S", bound=Sized)


def cost(hit: Sized) -> int:
    """Tokens a result costs an agent, estimated from its characters."""
    return tokens_of(len(hit.path) + len(hit.symbol) + len(hit.snippet) + HIT_OVERHEAD_CHARS)


def fit_budget(
    hits: Sequence[S], max_tokens: int, terms: set[str], shorten: Callable[[S, int], S] | None = None
) -> tuple[list[S], bool]:
    """As many results as fit in ``max_tokens``, best first; the last one's snippet is shortened to its most
    relevant lines (``shorten(hit, n)``: to n lines, ending in a line ``…``) if that lets it fit. Returns the
    results and whether anything was left out or cut. The budget is never exceeded."""
    out: list[S] = []
    used = 0
    for hit in hits:
        room = max_tokens - used
        if cost(hit) <= room:
            out.append(hit)
            used += cost(hit)
            continue
        lines = hit.snippet.splitlines()
        for n in range(len(lines) - 1, 0, -1):
            if shorten is not None:
                shorter = shorten(hit, n)
            else:
                snippet = best_lines(hit.snippet, terms, n) + "\n" + ELLIPSIS
                shorter = dataclasses.replace(cast(Any, hit), snippet=snippet)  # a dataclass with a snippet
            if cost(shorter) <= room:
                out.append(shorter)
                break
        return out, True
    return out, False
