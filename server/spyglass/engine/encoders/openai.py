"""Vectors from an OpenAI-compatible ``/v1/embeddings`` endpoint (text-embeddings-inference, Infinity, vLLM,
Ollama, llama.cpp's server, or OpenAI itself): for teams whose indexing outgrows one CPU.

The endpoint is named by the ``embed_url`` setting (its base URL, such as ``http://127.0.0.1:7997/v1``); the key, if
the endpoint wants one, comes from the environment variable that ``embed_api_key_env`` names, never from a config
file. Requests are bounded by ``embed_timeout`` and retried with backoff on connection errors, timeouts, 408, 409, 429
and 5xx (a query's once, a batch's four times). Every answer names the model that made it: another model than the
configured one is a ``ModelLoadError`` (its vectors would not compare with the index's), and so is a dimension that
changes. Vectors are normalised to unit length here: not every server does.
"""

from __future__ import annotations

import logging
import os
import random
import time
from typing import Any

import httpx2
import numpy as np

from ..errors import ModelLoadError
from ..redact import redact

log = logging.getLogger(__name__)
if logging.getLogger("httpx2").level == logging.NOTSET:
    logging.getLogger("httpx2").setLevel(logging.WARNING)  # not a line per request at info level

RETRIES = 4  # attempts after the first, for connection errors, 429 and 5xx: 0.5, 1, 2, 4 s apart (with jitter)
QUICK_TEXTS = 2  # a call with this few texts is a query (or the first check): one retry, so a search is not held up
BACKOFF_SECONDS = 0.5
CHARS_PER_TOKEN = 4  # for an estimate of tokens when the endpoint does not report them
# Texts are cut to max_tokens * this many characters before sending, only to bound a request's size: the server
# truncates to its own model's window. 4 would cut more than the model would on text with much whitespace or
# symbols (ASCII art drawn with box characters lost 0.3% cosine against the local model at 4).
CUT_CHARS_PER_TOKEN = 16
RETRYABLE = {408, 409, 429, 500, 502, 503, 504}
HINT = "start it, fix the `embed_url` setting, or set `encoder` back to 'auto' to use the bundled local model"


def endpoint_base(url: str) -> str:
    """The base URL requests are made under: trailing slashes and an ``/embeddings`` path are dropped, so both
    ``http://host:port/v1`` and ``http://host:port/v1/embeddings`` work."""
    base = url.strip().rstrip("/")
    return base.removesuffix("/embeddings").rstrip("/")


def same_model(configured: str, served: str) -> bool:
    """Whether the name the endpoint answered with is the configured model: equal but for case, an Ollama
    ``:latest`` tag, or an ``org/`` prefix (``BAAI/bge-small-en-v1.5`` is ``bge-small-en-v1.5``)."""

    def norm(name: str) -> str:
        return name.strip().lower().removesuffix(":latest")

    a, b = norm(configured), norm(served)
    return a == b or a.rsplit("/", 1)[-1] == b.rsplit("/", 1)[-1]


class OpenAIEncoder:
    """One endpoint and one model; thread-safe for one caller at a time (``Embedder`` serialises calls)."""

    def __init__(
        self,
        url: str,
        model: str,
        *,
        api_key_env: str = "",
        timeout: float = 60.0,
        max_batch: int = 256,
        retries: int = RETRIES,
    ):
        if not url.strip():
            raise ModelLoadError(
                "encoder 'openai' needs the endpoint's base URL in the `embed_url` setting "
                "(e.g. embed_url = 'http://127.0.0.1:7997/v1')"
            )
        self.base = endpoint_base(url)
        self.url = f"{self.base}/embeddings"
        self.model = model
        self.max_batch = max(1, max_batch)
        self.retries = retries
        self.timeout = timeout
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(api_key_env, "") if api_key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self.key_env = api_key_env
        self.client = httpx2.Client(timeout=httpx2.Timeout(timeout, connect=min(timeout, 10.0)), headers=headers)
        log.warning("embedding vectors come from %s (model %r): the code being indexed is sent there", self.url, model)
        try:
            rows, _ = self._request(["model check"], first=True)
        except ModelLoadError:
            self.client.close()
            raise
        self.dims = int(rows.shape[1])

    def close(self) -> None:
        self.client.close()

    # -- the Encoder protocol ---------------------------------------------------------------------------
    def encode(self, texts: list[str], max_tokens: int) -> np.ndarray:
        """Unit-length float32 rows, one per text, in order; requests of at most ``max_batch`` texts."""
        cut = [self._cut(t, max_tokens) for t in texts]
        parts = [self._request(cut[i : i + self.max_batch])[0] for i in range(0, len(cut), self.max_batch)]
        return np.concatenate(parts) if parts else np.zeros((0, self.dims), dtype=np.float32)

    def count_tokens(self, texts: list[str], max_tokens: int) -> int:
        """The tokens the endpoint says it read (``usage.prompt_tokens``), or an estimate (characters / 4) if it
        does not say. Costs a request per batch: it is for throughput figures, not for indexing."""
        cut = [self._cut(t, max_tokens) for t in texts]
        total = 0
        for i in range(0, len(cut), self.max_batch):
            batch = cut[i : i + self.max_batch]
            _, tokens = self._request(batch)
            total += tokens if tokens is not None else sum(-(-len(t) // CHARS_PER_TOKEN) for t in batch)
        return total

    # -- one request ------------------------------------------------------------------------------------
    @staticmethod
    def _cut(text: str, max_tokens: int) -> str:
        # secrets in the code never leave for the endpoint (a marker embeds as well as the value would);
        # the server truncates to its model's window; this keeps requests a sane size. Some servers refuse an
        # empty input, so it is sent as one space.
        return redact(text).text[: max_tokens * CUT_CHARS_PER_TOKEN] or " "

    def _request(self, texts: list[str], *, first: bool = False) -> tuple[np.ndarray, int | None]:
        payload = {"model": self.model, "input": texts, "encoding_format": "float"}
        quick = first or len(texts) <= QUICK_TEXTS
        body = self._post(payload, retries=min(self.retries, 1) if quick else self.retries)
        served = body.get("model")
        if isinstance(served, str) and served and not same_model(self.model, served):
            raise ModelLoadError(
                f"the embedding endpoint {self.base} serves model {served!r}, not the configured {self.model!r}: "
                "set `model` to the name it serves, or point `embed_url` at an endpoint serving the configured model"
            )
        rows = self._rows(body, len(texts))
        if not first and rows.shape[1] != self.dims:
            raise ModelLoadError(
                f"the embedding endpoint {self.base} now answers {rows.shape[1]}-dimensional vectors for "
                f"{self.model!r}, not {self.dims}: the model behind it changed; restart Spyglass, and re-index with "
                "`spyglass index --rebuild`"
            )
        usage = body.get("usage")
        tokens = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / np.maximum(norms, 1e-12), tokens if isinstance(tokens, int) else None

    def _rows(self, body: dict[str, Any], n: int) -> np.ndarray:
        data = body.get("data")
        if not isinstance(data, list) or len(data) != n:
            got = len(data) if isinstance(data, list) else "no"
            raise ModelLoadError(f"the embedding endpoint {self.url} answered {got} vectors for {n} texts")
        try:
            ordered = sorted(data, key=lambda item: int(item.get("index", 0)))
            rows = np.asarray([item["embedding"] for item in ordered], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as e:
            raise ModelLoadError(
                f"the embedding endpoint {self.url} answered vectors in a form Spyglass cannot read ({e!r}); "
                "it must answer like OpenAI's /v1/embeddings with float vectors"
            ) from e
        if rows.ndim != 2 or rows.shape[1] == 0:
            raise ModelLoadError(f"the embedding endpoint {self.url} answered vectors of shape {rows.shape}")
        return rows

    def _post(self, payload: dict[str, Any], retries: int) -> dict[str, Any]:
        """POST with up to ``retries`` retries; a ModelLoadError that says what happened and what to do."""
        problem = ""
        for attempt in range(retries + 1):
            if attempt:
                delay = BACKOFF_SECONDS * 2 ** (attempt - 1) * (1 + random.random() / 4)
                log.info("embedding endpoint %s: %s; retrying in %.1f s", self.url, problem, delay)
                time.sleep(delay)
            try:
                response = self.client.post(self.url, json=payload)
            except httpx2.TimeoutException:
                problem = f"no answer within {self.timeout:g} s (the `embed_timeout` setting)"
                continue
            except httpx2.TransportError as e:
                problem = f"cannot connect ({e or type(e).__name__})"
                continue
            if response.status_code in RETRYABLE:
                problem = f"HTTP {response.status_code}: {_detail(response)}"
                continue
            if response.status_code in (401, 403):
                where = f"the environment variable {self.key_env}" if self.key_env else "no environment variable"
                raise ModelLoadError(
                    f"the embedding endpoint {self.url} refused the request (HTTP {response.status_code}: "
                    f"{_detail(response)}); its key is read from {where} (the `embed_api_key_env` setting)"
                )
            if response.status_code >= 400:
                raise ModelLoadError(
                    f"the embedding endpoint {self.url} refused model {self.model!r} (HTTP {response.status_code}: "
                    f"{_detail(response)}){self._served_hint()}"
                )
            try:
                body = response.json()
            except ValueError as e:
                raise ModelLoadError(f"the embedding endpoint {self.url} answered something other than JSON") from e
            if not isinstance(body, dict):
                raise ModelLoadError(f"the embedding endpoint {self.url} answered JSON that is not an object")
            return body
        raise ModelLoadError(
            f"the embedding endpoint {self.url} failed after {retries + 1} attempts: {problem}; {HINT}"
        )

    def _served_hint(self) -> str:
        """``; it serves: a, b`` from the endpoint's ``/models``, when it lists them."""
        try:
            response = self.client.get(f"{self.base}/models", timeout=min(self.timeout, 5.0))
            listed = [m.get("id") for m in response.json().get("data", []) if isinstance(m, dict)]
        except (httpx2.HTTPError, ValueError, AttributeError):
            return ""
        names = [n for n in listed if isinstance(n, str)]
        return f"; it serves: {', '.join(names)} (set `model` to one of them)" if names else ""


def _detail(response: httpx2.Response) -> str:
    """The server's own words about an error, shortened: OpenAI's ``error.message``, else ``detail``, else text."""
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:300] or response.reason_phrase
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
        for key in ("detail", "message", "error"):
            if body.get(key):
                return str(body[key])[:300]
    return str(body)[:300]
