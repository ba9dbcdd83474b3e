"""What text is embedded for a span, and the cache key of that text.

The path is left out on purpose: a renamed or moved file then reuses its vectors, and paths are matched
lexically anyway. Bump ``RECIPE`` whenever the text changes, so old cache entries stop matching.
"""

from __future__ import annotations

from .spans import text_hash
from .textnorm import IDENT_RE

RECIPE = "v1"
PATH_NAMED_KINDS = frozenset({"module", "window"})
CHARS_PER_TOKEN = 5  # generous: code averages ~3-4 characters per MiniLM token; the tokenizer cuts the rest


RECIPES = ("code", "summary")
SUMMARY_NAMES = 40  # identifiers of the body a summary lists


def embed_text(
    kind: str, qualname: str, signature: str, doc: str, text: str, max_tokens: int, recipe: str = "code"
) -> str:
    """What the model reads for a span, cut to size.

    ``code``: ``<kind> <qualname>``, the doc if the code does not already hold it, then the code.
    ``summary``: ``<kind> <qualname>``, the signature, the doc, then the distinct identifiers of the body
    (a few dozen tokens instead of a few hundred: cheaper to embed, closer to prose).
    Module and window spans are named after their file, so they get no name here: renaming the file must
    not change what is embedded.
    """
    head = kind if kind in PATH_NAMED_KINDS else f"{kind} {qualname}".strip()
    parts = [head]
    if recipe == "summary":
        if signature and kind not in PATH_NAMED_KINDS:
            parts.append(signature)
        if doc:
            parts.append(doc)
        names = dict.fromkeys(i for i in IDENT_RE.findall(text) if len(i) > 2)
        parts.append(" ".join(list(names)[:SUMMARY_NAMES]))
    else:
        if doc and doc[:40] not in text:
            parts.append(doc)
        parts.append(text)
    return "\n".join(parts)[: max_tokens * CHARS_PER_TOKEN]


def embed_hash(text: str, max_tokens: int) -> str:
    return text_hash(f"{RECIPE}\0{max_tokens}\0{text}")
