"""Query understanding: what in a query is a word, an identifier, a file path.

Queries range from three words to a pasted issue with a traceback; the pieces found here drive the
full-text query, the exact-name lookup and the path boost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .textnorm import IDENT_RE, split_identifier, words

# English filler that costs BM25 time and adds nothing; short so code words ("type", "list") survive
STOPWORDS = frozenset(
    """a an and are as at be but by can could did do does for from had has have how i if in into is it its
    me my no not of on or our should so than that the their them then there these this those to too was we
    were what when where which while who why will with would you your""".split()
)
PATH_RE = re.compile(
    r"(?:[\w.-]+/)+[\w.-]+\.\w+|\b[\w-]+\.(?:py|js|jsx|ts|tsx|go|rs|java|c|h|cc|cpp|hpp|cs|rb|php|sh|md)\b"
)
DOTTED_RE = re.compile(r"\b[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+\b")
MAX_TERMS = 48


@dataclass
class ParsedQuery:
    text: str
    terms: list[str] = field(default_factory=list)  # lower-case full-text terms, most telling first
    identifiers: list[str] = field(default_factory=list)  # names worth an exact symbol lookup
    paths: list[str] = field(default_factory=list)  # file paths or file names mentioned

    @property
    def fts_match(self) -> str:
        """An FTS5 expression: any term may match; BM25 rewards documents that match more of them."""
        return " OR ".join(f'"{t}"' for t in self.terms)


def parse_query(text: str) -> ParsedQuery:
    q = ParsedQuery(text=text)
    q.paths = list(dict.fromkeys(m.group(0) for m in PATH_RE.finditer(text)))
    idents: dict[str, None] = {}
    for m in DOTTED_RE.finditer(text):
        if any(m.group(0) in p for p in q.paths):
            continue
        for part in re.split(r"\.|::", m.group(0)):
            idents.setdefault(part, None)
        idents.setdefault(m.group(0).replace("::", "."), None)
    for ident in IDENT_RE.findall(text):
        if len(split_identifier(ident)) > 1 or (ident[:1].isupper() and not ident.isupper() and len(ident) > 2):
            idents.setdefault(ident, None)
        elif f"{ident}(" in text:
            idents.setdefault(ident, None)
    q.identifiers = [i for i in idents if len(i) > 2 and i.lower() not in STOPWORDS][:MAX_TERMS]

    counts: dict[str, int] = {}
    for w in words(text):
        if len(w) < 2 or w in STOPWORDS or w.isdigit():
            continue
        counts[w] = counts.get(w, 0) + 1
    # identifiers and their parts first, then the rest by frequency in the query
    ranked: dict[str, None] = {}
    for ident in q.identifiers:
        for part in [ident.lower().replace(".", "_"), *split_identifier(ident)]:
            if part in counts:
                ranked.setdefault(part, None)
    for w, _ in sorted(counts.items(), key=lambda kv: -kv[1]):
        ranked.setdefault(w, None)
    q.terms = [t.replace('"', "") for t in ranked if t][:MAX_TERMS]
    return q
