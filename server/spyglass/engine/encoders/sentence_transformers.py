"""Any sentence-transformers model, run by torch: the ``spyglass[sentence-transformers]`` extra.

Loaded offline: a local folder, or a hub name already in the local Hugging Face cache (set
``SPYGLASS_ALLOW_DOWNLOAD=1`` to let it download).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import ModelLoadError

EXTRA = "pip install 'spyglass[sentence-transformers]'"


class SentenceTransformerEncoder:
    def __init__(self, source: str, name: str, threads: int, max_tokens: int):
        if os.environ.get("SPYGLASS_ALLOW_DOWNLOAD") != "1":
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            import torch
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging
        except ImportError as e:
            raise ModelLoadError(
                f"model {name!r} needs sentence-transformers and torch, which are not installed ({e}); "
                f"install them with `{EXTRA}`, or export the model once to ONNX "
                "(`spyglass export-model FOLDER OUT`) and set model to the exported folder"
            ) from e
        try:
            hf_logging.disable_progress_bar()
            torch.set_num_threads(threads)
            self.model = SentenceTransformer(source, device="cpu")
        except Exception as e:  # noqa: BLE001 - any failure to load is reported the same way
            hint = (
                "it is neither a local directory nor in the local Hugging Face cache "
                "(Spyglass runs offline; set SPYGLASS_ALLOW_DOWNLOAD=1 to allow a download)"
                if not Path(source).exists()
                else "check that the directory holds a complete sentence-transformers model"
            )
            raise ModelLoadError(f"cannot load embedding model {name!r}: {str(e).rstrip('.')}; {hint}") from e
        self.model.max_seq_length = min(max_tokens, self.model.max_seq_length or max_tokens)
        getter = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dims = int(getter() or 0)

    def encode(self, texts: list[str], max_tokens: int) -> np.ndarray:
        self.model.max_seq_length = max_tokens
        vectors = self.model.encode(
            texts, batch_size=len(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)

    def count_tokens(self, texts: list[str], max_tokens: int) -> int:
        lengths = self.model.tokenizer(texts, truncation=True, max_length=max_tokens)["input_ids"]
        return sum(len(x) for x in lengths)
