"""What the engine answers: the typed results its public API returns to the front ends.

The front ends turn these into their wire formats (CLI --json, LSP, MCP); nothing here knows a protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .snippets import Snippet, shorten


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
    snippet: str  # consecutive lines of the file holding the matching line (snippets.py)
    snippet_start_line: int  # the file line ``snippet`` starts at
    match_line: dict  # {"number": n, "text": ...}: the line that matched best
    why: dict  # "signals": each signal's value, "matched": the ones that made the score, "terms": words found
    file_matches: int = 1  # spans of this file that passed the confidence cut (>1: more to read there)

    def shortened(self, max_lines: int) -> SearchHit:
        """This hit with its snippet cut to ``max_lines`` lines that keep the matching line (for a budget)."""
        cut = shorten(
            Snippet(self.snippet, self.snippet_start_line, self.match_line["number"], self.match_line["text"]),
            max_lines,
        )
        return replace(self, snippet=cut.text, snippet_start_line=cut.start_line)


@dataclass
class SearchOutcome:
    hits: list[SearchHit]
    mode: str  # "hybrid" or "lexical"
    note: str | None = None  # why the search fell back to lexical, if it did
    truncated: bool = False  # results were left out or shortened to honour max_tokens
