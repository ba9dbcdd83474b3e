"""Which lines of a span a result shows: the line that matched best, in context, numbered as in the file.

A span's indexed text is not always its file's lines one for one (a class's methods are elided to their
headers, a long symbol's later parts repeat its header), so the text is first placed in the file's
current lines; the snippet is then a run of consecutive file lines that starts at a whole line (the span's
first line, or past its signature, never inside it) and always holds the matching line. Pure functions:
the caller reads the file.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .textnorm import words

LINE_CHARS = 240  # a longer line (minified code, data) is cut with a marker
ELLIPSIS = "…"
CONTEXT_BEFORE = 2  # lines shown above a matching line deep in a span
MAX_SIGNATURE_LINES = 40  # a signature is looked for in this many first lines
_WORDS_ONLY = re.compile(r"\W+")


@dataclass(frozen=True, slots=True)
class Snippet:
    text: str  # consecutive lines of the file, overlong ones cut
    start_line: int  # 1-based line of the file where ``text`` starts
    match_line: int  # the line that matched best (inside the snippet)
    match_text: str  # its text (cut like the others)


def cut_line(line: str) -> str:
    return line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + ELLIPSIS


def _is_marker(line: str) -> bool:
    """An elided child's body (``    ...``) or a blank line: placed by its neighbours, never searched for."""
    return line.strip() in ("", "...")


def place_lines(
    text: str, start_line: int, end_line: int, file_lines: Sequence[str] | None
) -> tuple[list[tuple[int, str]], bool]:
    """The span's own lines (its indexed text without elision markers, repeated headers or blank lines it
    cannot place) with their 1-based numbers in ``file_lines``, the file's current lines, and whether they
    were placed there. Without the file, or when it no longer holds most of the text, the numbers come
    from the span's range: exact up to the first elided child, which is where the placing stops."""
    own = text.split("\n")
    placed: list[tuple[int, str]] = []
    if file_lines is not None:
        end = min(end_line, len(file_lines))
        at = start_line
        where: dict[str, list[int]] | None = None  # line text -> its numbers in the range, built when needed
        for line in own:
            if at <= end and file_lines[at - 1] == line:
                placed.append((at, line))
                at += 1
            elif not _is_marker(line):
                if where is None:
                    where = {}
                    for n in range(start_line, end + 1):
                        where.setdefault(file_lines[n - 1], []).append(n)
                numbers = where.get(line, [])
                i = bisect.bisect_left(numbers, at)
                if i < len(numbers):
                    placed.append((numbers[i], line))
                    at = numbers[i] + 1
        if 2 * sum(1 for _, line in placed if line.strip()) >= sum(1 for line in own if line.strip()):
            return placed, True
        placed = []
    if len(own) == end_line - start_line + 2:  # a later part of a long symbol: its header comes first
        own = own[1:]
    for i, line in enumerate(own):
        if line.strip() == "..." and len(own) != end_line - start_line + 1:
            break
        placed.append((start_line + i, line))
    return placed, False


def signature_end(placed: Sequence[tuple[int, str]], signature: str) -> int:
    """The line where the span's signature ends (its first line when there is none or it is not found).

    The stored signature is one line with its spacing and trailing punctuation normalised, so the lines
    are compared on their word characters; lines of closing punctuation after it (``):``) belong to it."""
    first = placed[0][0] if placed else 0
    wanted = _WORDS_ONLY.sub("", signature)
    seen = ""
    for i, (n, line) in enumerate(placed[:MAX_SIGNATURE_LINES]):
        seen += _WORDS_ONLY.sub("", line)
        if wanted and wanted in seen:
            for m, rest in placed[i + 1 :]:
                if not rest.strip() or _WORDS_ONLY.sub("", rest):
                    break
                n = m
            return n
    return first


def matching_line(placed: Sequence[tuple[int, str]], terms: set[str], name: str) -> tuple[int, str]:
    """The first line with the most query terms; with none, the first naming the span, else its first
    non-blank line (a match by meaning has no line of its own: the definition stands for it)."""
    best, best_hits = None, 0
    for n, line in placed:
        hits = len(terms.intersection(words(line)))
        if hits > best_hits:
            best, best_hits = (n, line), hits
    if best is not None:
        return best
    named = [(n, line) for n, line in placed if name and name in line]
    blank = [(n, line) for n, line in placed if line.strip()]
    return (named or blank or list(placed) or [(0, "")])[0]


def choose(
    placed: Sequence[tuple[int, str]],
    lines: dict[int, str],
    *,
    terms: set[str],
    name: str,
    signature: str,
    max_lines: int,
) -> Snippet:
    """At most ``max_lines`` consecutive ``lines`` (number -> text: the file's lines over the span, or the
    placed ones) holding the matching line: from the span's first line when the match is near it (a long
    signature is shown whole up to a match inside it), else from a little above the match, never inside
    the signature. Blank lines at either edge are dropped."""
    match, match_text = matching_line(placed, terms, name)
    if not placed:
        return Snippet("", match or 1, match or 1, "")
    first = placed[0][0]
    head_end = signature_end(placed, signature)
    if match - first < max_lines:
        start, end = first, first + max_lines - 1
    elif match <= head_end:
        start, end = first, match + 1
    else:  # near the span's end, more lines above the match fill the snippet
        start = max(head_end + 1, min(match - CONTEXT_BEFORE, max(lines) - max_lines + 1))
        end = start + max_lines - 1
    start, end = _contiguous(lines, start, end, match)
    while start < match and not lines[start].strip():
        start += 1
    while end > match and not lines[end].strip():
        end -= 1
    text = "\n".join(cut_line(lines[n]) for n in range(start, end + 1))
    return Snippet(text, start, match, cut_line(match_text))


def _contiguous(lines: dict[int, str], start: int, end: int, match: int) -> tuple[int, int]:
    """``start``..``end`` narrowed to lines present without a gap around ``match``."""
    lo = match
    while lo > start and lo - 1 in lines:
        lo -= 1
    hi = match
    while hi < end and hi + 1 in lines:
        hi += 1
    return lo, hi


def shorten(snippet: Snippet, max_lines: int) -> Snippet:
    """The snippet cut to ``max_lines`` lines that still hold the matching line, marked with a last
    line ``…`` (to fit a token budget)."""
    lines = snippet.text.split("\n")
    at = min(max(0, snippet.match_line - snippet.start_line), len(lines) - 1)
    skip = 0 if at < max_lines else at
    kept = lines[skip : skip + max_lines]
    return Snippet("\n".join([*kept, ELLIPSIS]), snippet.start_line + skip, snippet.match_line, snippet.match_text)


def snippet_of(
    text: str,
    start_line: int,
    end_line: int,
    file_lines: Sequence[str] | None,
    *,
    terms: set[str],
    name: str,
    signature: str,
    max_lines: int,
) -> Snippet:
    """The snippet of a span with indexed ``text`` over ``start_line``..``end_line`` (see :func:`choose`),
    numbered and filled in from ``file_lines`` when the file still holds the span's text."""
    placed, in_file = place_lines(text, start_line, end_line, file_lines)
    if in_file and file_lines is not None:
        lines = {n: file_lines[n - 1] for n in range(start_line, min(end_line, len(file_lines)) + 1)}
    else:
        lines = dict(placed)
    return choose(placed, lines, terms=terms, name=name, signature=signature, max_lines=max_lines)
