"""Ways to turn texts into vectors. Each encoder loads one model and encodes a batch of texts into float32 rows:

- ``onnx``: ONNX Runtime and the ``tokenizers`` library, no torch; the default (the bundled model ships as ONNX);
- ``sentence_transformers``: any sentence-transformers model, with torch (the ``sentence-transformers`` extra);
- ``openai``: any OpenAI-compatible ``/v1/embeddings`` endpoint.

``engine.embedding.Embedder`` picks one from the settings and adds batching, progress and locking.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class Encoder(Protocol):
    """A loaded model. ``encode`` returns one row per text, in order; ``max_tokens`` cuts each text first."""

    dims: int

    def encode(self, texts: list[str], max_tokens: int) -> np.ndarray: ...

    def count_tokens(self, texts: list[str], max_tokens: int) -> int: ...
