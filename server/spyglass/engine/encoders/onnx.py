"""An embedding model run by ONNX Runtime, tokenized by the ``tokenizers`` library: no torch, ~0.3 s to load.

A model folder holds a ``tokenizer.json`` and an ``.onnx`` graph taking ``input_ids`` and ``attention_mask`` (and
``token_type_ids`` if it asks for them). The graph returns either pooled vectors ``[batch, dims]`` (the bundled
export pools and normalises inside) or token states ``[batch, tokens, dims]``, which are mean-pooled here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import ModelLoadError

# Calls with this many texts or more (indexing, not queries) use a second, prepacked session
BATCH_TEXTS = 8


def onnx_file(folder: Path) -> Path | None:
    """The graph to load from a model folder: ``model.onnx``, else the only ``.onnx`` file (also in ``onnx/``)."""
    for candidate in (folder / "model.onnx", folder / "onnx" / "model.onnx"):
        if candidate.is_file():
            return candidate
    found = sorted(folder.glob("*.onnx")) or sorted(folder.glob("onnx/*.onnx"))
    return found[0] if len(found) == 1 else None


def _pad_token(folder: Path, tokenizer) -> tuple[int, str]:
    """The padding token: tokenizer_config.json's pad_token if set, else [PAD] or <pad>, else id 0."""
    names = []
    config = folder / "tokenizer_config.json"
    if config.is_file():
        pad = json.loads(config.read_text(encoding="utf-8")).get("pad_token")
        names.append(pad.get("content") if isinstance(pad, dict) else pad)
    for name in [*names, "[PAD]", "<pad>"]:
        if isinstance(name, str) and (token_id := tokenizer.token_to_id(name)) is not None:
            return token_id, name
    return 0, tokenizer.id_to_token(0) or ""


MADV_POPULATE_READ = 22  # Linux 5.14+: map every page of a range now (Python's mmap module does not name it)


def _fault_in(folder: Path) -> None:
    """Map in now every page of the model files ONNX Runtime memory-mapped from ``folder`` (its weights),
    rather than page by page as new tokens first reach the embedding table: a server's resident memory is
    then what it will stay (a 60-minute soak grew 50 MB this way). The pages are the file's, shared by every
    process that maps it. Best effort: elsewhere than Linux, or on an older kernel, nothing happens."""
    try:
        import ctypes

        maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return
    try:  # as /proc names them: a hub cache's files are links into its blobs folder
        files = {str(p.resolve()) for p in folder.iterdir()}
    except OSError:
        return
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5] in files:
            start, end = (int(x, 16) for x in fields[0].split("-"))
            madvise(ctypes.c_void_p(start), ctypes.c_size_t(end - start), MADV_POPULATE_READ)


class OnnxEncoder:
    """ONNX Runtime on the CPU, ``threads`` threads inside each call: a lean session for queries, and a second,
    faster one made the first time a batch comes (so only a process that indexes pays for it)."""

    def __init__(self, folder: Path, graph: Path, threads: int):
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as e:
            raise ModelLoadError(f"cannot load {graph}: {e}; reinstall spyglass") from e
        tokenizer_file = folder / "tokenizer.json"
        if not tokenizer_file.is_file():
            raise ModelLoadError(f"model folder {folder} has an ONNX graph but no tokenizer.json beside it")
        try:
            self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        except Exception as e:  # noqa: BLE001 - tokenizers raises a bare Exception for a bad file
            raise ModelLoadError(f"cannot load the tokenizer {tokenizer_file}: {e}") from e
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.pad_id, _ = _pad_token(folder, self.tokenizer)
        self.graph = graph
        self.threads = threads
        self.session = self._session(prepacked=False)
        _fault_in(graph.parent)
        self._batch_session: ort.InferenceSession | None = None
        self.inputs = {i.name for i in self.session.get_inputs()}
        missing = {"input_ids", "attention_mask"} - self.inputs
        if missing:
            raise ModelLoadError(f"the ONNX model {graph} lacks the inputs {sorted(missing)}")
        output = self.session.get_outputs()[0]
        self.output = output.name
        self.pooled = len(output.shape) == 2
        dims = output.shape[-1]
        self.dims = int(dims) if isinstance(dims, int) else int(self.encode(["x"], 8).shape[1])

    def _session(self, *, prepacked: bool):
        """A session on the CPU. Unprepacked, it computes from the weights file itself, which ONNX Runtime
        memory-maps, so every process that loads the model shares one copy (~3 ms a query). Prepacked, it
        copies the MatMul weights into a faster layout (~40 MB private to this process), for batches."""
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        # no arena: a batch of long texts needs ~0.5 GB of activations, which an arena would keep for good
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 3  # errors only: its warnings would go to stderr on every load
        if not prepacked:
            options.add_session_config_entry("session.disable_prepacking", "1")
        try:
            return ort.InferenceSession(str(self.graph), options, providers=["CPUExecutionProvider"])
        except Exception as e:  # noqa: BLE001 - ONNX Runtime raises its own types for a bad or unreadable file
            raise ModelLoadError(f"cannot load the ONNX model {self.graph}: {e}") from e

    def _tokenize(self, texts: list[str], max_tokens: int) -> list[list[int]]:
        self.tokenizer.enable_truncation(max_length=max_tokens)
        try:
            encoded = self.tokenizer.encode_batch(texts)
        except TypeError:  # a lone surrogate (from a client's JSON or a badly decoded file) is no valid text
            encoded = self.tokenizer.encode_batch([t.encode("utf-8", "replace").decode("utf-8") for t in texts])
        return [e.ids for e in encoded]

    def count_tokens(self, texts: list[str], max_tokens: int) -> int:
        return sum(len(ids) for ids in self._tokenize(texts, max_tokens))

    def encode(self, texts: list[str], max_tokens: int) -> np.ndarray:
        """One batch: padded to its longest text; unit-length rows."""
        encoded = self._tokenize(texts, max_tokens)
        width = max(len(ids) for ids in encoded)
        ids = np.full((len(encoded), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for row, tokens in enumerate(encoded):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        session = self.session
        if len(texts) >= BATCH_TEXTS:  # indexing: 1.5x faster with prepacked weights
            if self._batch_session is None:
                self._batch_session = self._session(prepacked=True)
            session = self._batch_session
        out = session.run([self.output], feed)[0].astype(np.float32, copy=False)
        if not self.pooled:  # token states: mean over the real tokens
            weights = mask[:, :, None].astype(np.float32)
            out = (out * weights).sum(1) / np.maximum(weights.sum(1), 1e-9)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)
