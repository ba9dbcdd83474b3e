"""Which definitions a change touched, named as search names them: for the history index, the innermost
definitions each changed range overlaps (:func:`touched_symbols`); for the evaluation sets built from
bug-fix commits, the innermost definition holding each changed line (:func:`enclosing_symbols`, their gold)."""

from __future__ import annotations

from ..parsing import parse_spans

# spans that stand for a whole file or a piece of one, not a definition
FILE_ONLY_KINDS = frozenset({"module", "window", "section", "file"})


def enclosing_symbols(path: str, data: bytes, ranges: list[tuple[int, int]]) -> list[str | None]:
    """For each changed range, the qualified name of the innermost definition holding all of it (None:
    outside any definition), distinct and in order."""
    spans = [s for s in parse_spans(path, data).spans if s.kind not in FILE_ONLY_KINDS]
    found: list[str | None] = []
    for first, last in ranges:
        holding = [s for s in spans if s.start_line <= first and last <= s.end_line]
        inner = min(holding, key=lambda s: s.end_line - s.start_line).qualname if holding else None
        if inner not in found:
            found.append(inner)
    return found


def touched_symbols(path: str, data: bytes, ranges: list[tuple[int, int]]) -> list[str]:
    """The qualified names of the innermost definitions each changed range overlaps, distinct and in order:
    a change inside one method names that method; a new file or a long hunk names every definition in it
    (not the class or nothing around them all, as :func:`enclosing_symbols` would)."""
    spans = [s for s in parse_spans(path, data).spans if s.kind not in FILE_ONLY_KINDS]
    found: dict[str, None] = {}
    for first, last in ranges:
        overlapping = [s for s in spans if s.start_line <= last and first <= s.end_line]
        for s in overlapping:
            inner = not any(
                o is not s and s.start_line <= o.start_line and o.end_line <= s.end_line for o in overlapping
            )
            if inner:
                found.setdefault(s.qualname, None)
    return list(found)
