"""What text is embedded for a span, and the cache key of that text.

A definition's path is left out on purpose: a renamed or moved file then reuses its vectors, and paths are
matched lexically anyway. A module span is named by its path's words instead (``module sinatra show
exceptions`` for ``lib/sinatra/show_exceptions.rb``): a file's name says what the file holds in every
language, and moving a file re-embeds that one span. Bump ``RECIPE`` whenever the text changes, so old cache
entries stop matching.
"""

from __future__ import annotations

from .spans import text_hash
from .textnorm import IDENT_RE, path_words

RECIPE = "v1"
PATH_NAMED_KINDS = frozenset({"module", "window"})
CHARS_PER_TOKEN = 5  # generous: code averages ~3-4 characters per MiniLM token; the tokenizer cuts the rest


RECIPES = ("code", "summary")
WHERE_FOLDERS = frozenset({"src", "lib"})  # folder names that say where code is, not what it is
SUMMARY_NAMES = 40  # identifiers of the body a summary lists


def module_words(path: str) -> str:
    """A module span's name as the model reads it: the words of its file's path without the extension and
    without ``src``/``lib`` (``axum/src/extract/mod.rs`` -> ``axum extract mod``)."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    return " ".join(w for w in path_words(stem).split() if w not in WHERE_FOLDERS)


def embed_text(
    kind: str,
    qualname: str,
    signature: str,
    doc: str,
    text: str,
    max_tokens: int,
    recipe: str = "code",
    path: str = "",
) -> str:
    """What the model reads for a span of the file at ``path``, cut to size.

    ``code``: ``<kind> <qualname>``, the doc if the code does not already hold it, then the code.
    ``summary``: ``<kind> <qualname>``, the signature, the doc, then the distinct identifiers of the body
    (a few dozen tokens instead of a few hundred: cheaper to embed, closer to prose).
    A module span is named by its path's words (``module_words``); a window span gets no name.
    """
    if kind == "module" and path:
        head = f"module {module_words(path)}".strip()
    else:
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
