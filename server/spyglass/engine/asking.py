"""``ask``: an answer in words from a local LLM, grounded in the spans search finds (opt-in; issue 22).

The question is searched like any query; the best spans (their redacted text, within a token budget) go
to the chat endpoint the user configured (``llm_url``: any OpenAI-compatible ``/v1/chat/completions``,
such as Ollama, llama.cpp's server or vLLM), with the instruction to answer from them only and to cite
each span it uses by its id. The answer comes back with the ids it cited (only ids it was given count)
and the spans it was given.

Nothing is sent unless ``llm_url`` is set, and nothing to a host that is not this machine (``localhost``
or a loopback address) unless ``allow_remote_llm`` is true: the prompt holds the workspace's code.
Secrets were taken out of the spans by search; the whole prompt is redacted once more before it leaves.
"""

from __future__ import annotations

import ipaddress
import os
import re
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx2

from .answers import SearchHit
from .errors import SpyglassError
from .redact import redact
from .search.shaping import tokens_of
from .settings import Settings

SYSTEM = (
    "You answer questions about a codebase using only the code excerpts given. Each excerpt starts with its "
    "id in square brackets. Cite every excerpt you rely on by writing its id in square brackets, e.g. "
    "[src/app.py:10-42#0123456789]. If the excerpts do not answer the question, say so. Be brief."
)
PER_SPAN_OVERHEAD = 12  # tokens of an excerpt's header and fences


class LlmUnavailable(SpyglassError):
    """The configured chat endpoint cannot be used: not configured, not allowed, down or answering wrong."""


@dataclass(frozen=True)
class AskAnswer:
    question: str
    answer: str
    cited: list[str]  # span ids the answer cites, in the order it cites them (only ids it was given)
    sources: list[SearchHit]  # the spans it was given, best first
    model: str  # as the endpoint named it
    elapsed_ms: float


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is this machine: ``localhost`` or a loopback address (no name is resolved)."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(settings: Settings) -> str:
    """The chat completions URL the settings name; raises :class:`LlmUnavailable` when there is none or
    it is not allowed."""
    url = settings.llm_url.strip()
    if not url:
        raise LlmUnavailable("no LLM is configured: set `llm_url` (e.g. 'http://127.0.0.1:11434/v1' for Ollama)")
    if urlsplit(url).scheme not in ("http", "https"):
        raise LlmUnavailable(f"llm_url {url!r} is not an http(s) URL")
    if not is_loopback(url) and not settings.allow_remote_llm:
        raise LlmUnavailable(
            f"llm_url {url!r} is not on this machine: the workspace's code would leave it. Use a local "
            "endpoint, or set `allow_remote_llm = true` to allow this one"
        )
    base = url.rstrip("/").removesuffix("/chat/completions").rstrip("/")
    return f"{base}/chat/completions"


def prompt(question: str, hits: list[SearchHit], budget: int) -> tuple[str, list[SearchHit]]:
    """The user message: the excerpts that fit ``budget`` tokens (the first always, cut if need be), then
    the question."""
    parts: list[str] = []
    given: list[SearchHit] = []
    left = budget
    for hit in hits:
        text = hit.snippet
        cost = tokens_of(len(text)) + PER_SPAN_OVERHEAD
        if cost > left:
            if given:
                break
            text = text[: max(0, (left - PER_SPAN_OVERHEAD) * 4)]
        parts.append(f"[{hit.id}] {hit.kind} {hit.symbol or ''} in {hit.path}\n```\n{text}\n```")
        given.append(hit)
        left -= cost
    return "\n\n".join(parts) + f"\n\nQuestion: {question}", given


def cited_ids(answer: str, given: list[SearchHit]) -> list[str]:
    """The ids of ``given`` that ``answer`` names, in order of first mention."""
    found = []
    for hit in given:
        at = answer.find(hit.id)
        if at >= 0:
            found.append((at, hit.id))
    return [span_id for _, span_id in sorted(found)]


def ask_llm(settings: Settings, question: str, hits: list[SearchHit]) -> AskAnswer:
    url = check_endpoint(settings)
    started = time.perf_counter()
    user, given = prompt(question, hits, settings.llm_context_tokens)
    body = {
        "model": settings.llm_model,
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": redact(user).text}],
        "max_tokens": settings.llm_answer_tokens,
        "temperature": 0,
        "stream": False,
    }
    headers = {"Content-Type": "application/json"}
    if settings.llm_api_key_env and os.environ.get(settings.llm_api_key_env):
        headers["Authorization"] = f"Bearer {os.environ[settings.llm_api_key_env]}"
    try:
        # no redirects: an allowed endpoint must not send the prompt on to another host
        response = httpx2.post(url, json=body, headers=headers, timeout=settings.llm_timeout, follow_redirects=False)
    except httpx2.TimeoutException:
        raise LlmUnavailable(f"the LLM at {url} did not answer within {settings.llm_timeout:g} s") from None
    except httpx2.HTTPError as e:
        raise LlmUnavailable(f"the LLM at {url} cannot be reached ({e}): start it, or fix `llm_url`") from None
    if response.status_code != 200:
        raise LlmUnavailable(f"the LLM at {url} answered HTTP {response.status_code}: {_short(response.text)}")
    try:
        data = response.json()
        text = str(data["choices"][0]["message"]["content"] or "").strip()
    except (ValueError, KeyError, IndexError, TypeError):
        raise LlmUnavailable(f"the LLM at {url} answered something that is not a chat completion: "
                             f"{_short(response.text)}") from None  # fmt: skip
    return AskAnswer(
        question=question,
        answer=redact(text).text,
        cited=cited_ids(text, given),
        sources=given,
        model=str(data.get("model") or settings.llm_model),
        elapsed_ms=round(1000 * (time.perf_counter() - started), 1),
    )


def _short(text: str) -> str:
    return re.sub(r"\s+", " ", text)[:200]
