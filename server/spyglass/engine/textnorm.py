"""Code-aware text normalisation shared by indexing and querying.

SQLite's unicode61 tokenizer already splits ``parse_config`` into ``parse`` and ``config`` (``_`` and ``.``
are separators) but keeps ``parseConfig`` whole. The helpers here add the camelCase sub-words, so a query
for "parse config" finds ``parseConfig`` and a query for ``parseConfig`` finds ``parse_config``.
"""

from __future__ import annotations

import re

IDENT_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+")
_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)


def split_identifier(ident: str) -> list[str]:
    """``parseHTTPConfig_v2`` -> ``["parse", "http", "config", "v2"]`` (lower case, in order)."""
    parts: list[str] = []
    for chunk in re.split(r"[_$\W]+", ident):
        parts.extend(p.lower() for p in _CAMEL_RE.findall(chunk))
    return parts


def subword_terms(text: str, limit: int = 4000) -> str:
    """The camelCase sub-words of ``text``'s identifiers that unicode61 would not find on its own.

    Returned as one space-separated string (deduplicated, first-seen order) for a separate FTS column.
    """
    seen: dict[str, None] = {}
    for ident in IDENT_RE.findall(text):
        if ident.islower() or ident.isupper():
            continue  # unicode61 already splits snake_case and keeps ALLCAPS whole
        for part in split_identifier(ident):
            if len(part) > 1:
                seen.setdefault(part, None)
        if len(seen) >= limit:
            break
    return " ".join(seen)


def words(text: str) -> list[str]:
    """Lower-case word tokens the way FTS5 unicode61 sees them, plus camelCase sub-words."""
    out: list[str] = []
    for w in _WORD_RE.findall(text):
        lw = w.lower()
        out.append(lw)
        if not (w.islower() or w.isupper() or w.isdigit()):
            subs = split_identifier(w)
            if len(subs) > 1:
                out.extend(subs)
    return out


def path_words(path: str) -> str:
    """``src/httpClient/retry_policy.py`` -> ``src http client httpclient retry policy py``."""
    return " ".join(dict.fromkeys(words(path)))
