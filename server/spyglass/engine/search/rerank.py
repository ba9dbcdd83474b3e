"""The optional re-ranking stage: a cross-encoder reads (query, span) pairs and re-scores the head of the
ranking.

No cross-encoder ships inside a PyPI package today (the registry was searched in November 2026: the wheels
that carry weights carry bi-encoders; every re-ranker package downloads its model at run time;
docs/quality.md), and Spyglass never downloads a model at run time, so the stage is off by default.
Setting ``reranker`` to a local cross-encoder directory (or a hub name already in the local Hugging Face
cache) turns it on; any object with ``score(query, texts)`` can be plugged in.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from typing import Protocol, TypeVar

from ..errors import ModelLoadError

log = logging.getLogger(__name__)

T = TypeVar("T")


class Reranker(Protocol):
    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Relevance of each text to the query, in 0..1."""
        ...


class CrossEncoderReranker:
    """A sentence-transformers ``CrossEncoder`` loaded offline on first use."""

    def __init__(self, model: str, threads: int = 0):
        self.name = model
        self.threads = threads or os.cpu_count() or 1
        self._model = None
        self._error: ModelLoadError | None = None  # a failed load is reported on every call, not retried
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._error is not None:
                raise self._error
            if self._model is None:
                if os.environ.get("SPYGLASS_ALLOW_DOWNLOAD") != "1":
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                try:
                    import torch
                    from sentence_transformers import CrossEncoder

                    torch.set_num_threads(self.threads)
                    self._model = CrossEncoder(self.name, device="cpu")
                except ImportError as e:
                    self._error = ModelLoadError(
                        f"the re-ranking model {self.name!r} needs sentence-transformers and torch ({e}); "
                        "install them with `pip install 'spyglass[sentence-transformers]'`"
                    )
                    raise self._error from e
                except Exception as e:  # noqa: BLE001 - any failure to load is reported the same way
                    self._error = ModelLoadError(f"cannot load re-ranking model {self.name!r}: {e}")
                    raise self._error from e
            return self._model

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        import torch

        model = self._load()
        scores = model.predict([(query, t) for t in texts], activation_fn=torch.nn.Sigmoid(), convert_to_numpy=True)
        return [float(s) for s in scores]


def rerank(
    scored: list[tuple[float, T]],
    texts: Sequence[str],
    query: str,
    reranker: Reranker,
    *,
    weight: float,
) -> list[tuple[float, T]]:
    """Blend the re-ranker's score into the first ``len(texts)`` results and sort them again; the rest keep
    their order below. Scores stay in 0..1."""
    head = scored[: len(texts)]
    relevance = reranker.score(query, texts)
    blended = [((1 - weight) * score + weight * rel, item) for (score, item), rel in zip(head, relevance, strict=True)]
    blended.sort(key=lambda t: -t[0])
    return blended + list(scored[len(texts) :])
