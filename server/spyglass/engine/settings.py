"""Typed settings and the one place that merges their sources.

Precedence, lowest to highest: built-in defaults, ``[tool.spyglass]`` in the root's ``pyproject.toml``,
``.spyglass.toml`` in the root, ``SPYGLASS_*`` environment variables, then explicit overrides (CLI flags,
LSP initialization options). A value that does not validate is reported as a warning and the default
(or the value from a lower source) is used: a typo in a config file never stops indexing.
"""

from __future__ import annotations

import json
import logging
import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

log = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2"
ENV_PREFIX = "SPYGLASS_"
DEFAULT_KEY_ENV = "SPYGLASS_EMBED_API_KEY"  # where encoder "openai" looks for the endpoint's key, by default


class PriorSettings(BaseModel):
    """``[search.priors]``: how much what a span is scales its score, all else equal (1: no effect).

    Code is code wherever it lives (a ``doc/`` folder too; an ``examples/`` folder's ranks a little lower), and
    a definition whose name the query gives exactly is never lowered by the test, example or declaration prior.
    ``[search] priors = false`` turns them all off."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = Field(True, description="False: no prior at all; spans rank by their signals alone.")
    tests: float = Field(
        0.3,
        ge=0,
        le=1,
        description="Spans of test files (by path conventions); lifted for a short query asking "
        "for tests ('tests for the parser') and for a definition the query names exactly.",
    )
    prose: float = Field(
        0.3, ge=0, le=1, description="Spans of languages that are not code: Markdown, reStructuredText, config, text."
    )
    examples: float = Field(
        0.7,
        ge=0,
        le=1,
        description="Code in example, demo and sample folders (examples/, Go's _examples/, demo/, samples/), which "
        "shows how the project is used; lifted for a definition the query names exactly.",
    )
    declarations: float = Field(
        0.7,
        ge=0,
        le=1,
        description="Functions that declare without implementing (an interface's or trait's method, an abstract "
        "method, an overload's signature, a C++ = default or pure virtual, a hook specification): the code that "
        "does the work ranks above them; lifted for a definition the query names exactly.",
    )


class SearchSettings(BaseModel):
    """``[search]``: how results are ranked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    priors: PriorSettings = Field(default_factory=PriorSettings, description="See PriorSettings.")
    tier: Literal["fast", "balanced", "deep"] = Field(
        "balanced",
        description="The search tier when a request names none: 'fast' (names and full text, no model), "
        "'balanced' (hybrid) or 'deep' (with a re-ranker configured: a wider pool, a second pass with the best "
        "results' names, and the re-ranker; without one, as 'balanced').",
    )

    recency: float = Field(
        0.0,
        ge=0,
        le=4,
        description="Raise recently and often changed files (from the git history the index holds) by this "
        "weight, fused by reciprocal rank; 0 (the default) is off: it lowered SWE-bench Lite's file Acc@1 by 10 "
        "points while helping on commit messages (docs/quality.md, Recency). 0.25 is the measured setting.",
    )

    @field_validator("priors", mode="before")
    @classmethod
    def _switch(cls, value: Any) -> Any:
        return {"enabled": value} if isinstance(value, bool) else value  # `priors = false`


class Settings(BaseModel):
    """Everything a user can configure. Field names are the keys in config files."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    model: str = Field(
        DEFAULT_MODEL,
        description="Embedding model: the bundled 'all-MiniLM-L6-v2', a local model directory (an ONNX export "
        "with its tokenizer.json, or a sentence-transformers model), or a sentence-transformers hub name already "
        "in the local Hugging Face cache.",
    )
    encoder: Literal["auto", "onnx", "sentence-transformers", "openai"] = Field(
        "auto",
        description="What runs the model: 'onnx' (ONNX Runtime, no torch), 'sentence-transformers' (torch; the "
        "spyglass[sentence-transformers] extra), 'openai' (an OpenAI-compatible /v1/embeddings endpoint at "
        "embed_url; `model` is the name it serves), or 'auto': ONNX for the bundled model and for folders holding "
        "an .onnx file, sentence-transformers for the rest.",
    )
    embed_url: str = Field(
        "",
        description="With encoder 'openai': the endpoint's base URL, e.g. 'http://127.0.0.1:7997/v1' (requests go "
        "to <embed_url>/embeddings). The text of every span is sent there: use an endpoint you trust.",
    )
    embed_api_key_env: str = Field(
        DEFAULT_KEY_ENV,
        description="With encoder 'openai': the NAME of the environment variable holding the endpoint's key (sent "
        "as 'Authorization: Bearer', only when the variable is set). Never the key itself.",
    )
    embed_timeout: float = Field(
        60.0, gt=0, le=3600, description="With encoder 'openai': seconds to wait for one request before retrying."
    )
    llm_url: str = Field(
        "",
        description="Turns on `ask` (the MCP tool ask_codebase, `spyglass ask`): the base URL of an OpenAI-compatible "
        "chat endpoint, e.g. 'http://127.0.0.1:11434/v1' (Ollama) or 'http://127.0.0.1:8080/v1' (llama.cpp's "
        "server). The spans search finds for a question are sent there. Empty: no answers, the tool is not listed.",
    )
    llm_model: str = Field("default", description="The model name sent to the chat endpoint (Ollama needs one).")
    llm_api_key_env: str = Field(
        "",
        description="The NAME of the environment variable holding the chat endpoint's key (sent as 'Authorization: "
        "Bearer' when set). Never the key itself.",
    )
    allow_remote_llm: bool = Field(
        False,
        description="Allow `llm_url` to name a host that is not this machine (code leaves it). Off: only localhost "
        "and loopback addresses.",
    )
    llm_timeout: float = Field(120.0, gt=0, le=3600, description="Seconds to wait for the chat endpoint's answer.")
    llm_context_tokens: int = Field(
        3000, ge=200, le=100_000, description="Most tokens of code sent with a question (the best spans first)."
    )
    llm_answer_tokens: int = Field(400, ge=16, le=8000, description="Most tokens in the answer.")
    include: list[str] = Field(
        default_factory=list,
        description="If set, only files matching one of these gitignore-style globs are indexed.",
    )
    exclude: list[str] = Field(
        default_factory=list,
        description="Extra gitignore-style globs to leave out, on top of .gitignore and .spyglassignore.",
    )
    max_file_size: int = Field(1_000_000, ge=1, description="Files larger than this many bytes are skipped.")
    threads: int = Field(0, ge=0, description="Threads for the embedding model; 0 means one per CPU core.")
    batch_size: int = Field(32, ge=1, le=1024, description="Texts per model batch.")
    embed: bool = Field(True, description="Compute embeddings (False: lexical search only).")
    embed_max_tokens: int = Field(
        256, ge=16, le=8192, description="Texts are cut to this many model tokens before embedding."
    )
    embed_text: Literal["code", "summary"] = Field(
        "summary",
        description="What is embedded for a span: 'summary' (name, signature, doc and the body's identifiers: "
        "2.4x fewer tokens to embed, and better on our benchmark) or 'code' (name, doc and code). "
        "See docs/quality.md.",
    )
    reranker: str = Field(
        "",
        description="A local cross-encoder model (directory or cached hub name) that re-scores the best results; "
        "empty: off. None ships in a PyPI package, see docs/quality.md.",
    )
    window_lines: int = Field(60, ge=5, description="Lines per window for files no parser covers.")
    window_overlap: int = Field(10, ge=0, description="Lines shared by consecutive windows.")
    max_span_lines: int = Field(
        200, ge=20, description="Longer symbols are split into parts that each repeat the header."
    )
    history_commits: int = Field(
        1000,
        ge=0,
        le=100_000,
        description="Recent commits of the git repository kept in the index (messages, dates, the files and "
        "definitions each touched), for history search and hot spots; 0 turns history off.",
    )
    index_dir: str = Field(".spyglass", description="Where the index lives, relative to the root unless absolute.")
    search: SearchSettings = Field(
        default_factory=SearchSettings, description="Ranking: the ``[search]`` table (``[search.priors]``)."
    )


_FIELDS = set(Settings.model_fields)


def _read_toml(path: Path, table: tuple[str, ...] = ()) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            data: Any = tomllib.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as e:
        log.warning("ignoring %s: %s", path, e)
        return {}
    for key in table:
        data = data.get(key, {}) if isinstance(data, dict) else {}
    return dict(data) if isinstance(data, dict) else {}


def _normalise_keys(raw: dict[str, Any], source: str, warnings: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        k = key.replace("-", "_")
        k = "".join("_" + c.lower() if c.isupper() else c for c in k)  # camelCase from LSP clients
        if k in _FIELDS:
            out[k] = value
        else:
            warnings.append(f"{source}: unknown setting {key!r} ignored")
    return out


def _from_env(env: dict[str, str], warnings: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in env.items():
        if not name.startswith(ENV_PREFIX):
            continue
        key = name[len(ENV_PREFIX) :].lower()
        if key not in _FIELDS:
            continue  # SPYGLASS_ROOT, SPYGLASS_LOG and friends belong to the front ends
        annotation = Settings.model_fields[key].annotation
        if annotation == list[str]:
            out[key] = json.loads(value) if value.startswith("[") else [p for p in value.split(",") if p]
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            try:  # a table, as JSON: SPYGLASS_SEARCH='{"priors": false}'
                out[key] = json.loads(value)
            except json.JSONDecodeError as e:
                warnings.append(f"{name} is not JSON ({e}); ignored")
        else:
            out[key] = value
    return out


def _validated(merged: dict[str, Any], warnings: list[str]) -> Settings:
    data = dict(merged)
    for _ in range(len(data) + 1):
        try:
            return Settings(**data)
        except ValidationError as e:
            for err in e.errors():
                key = str(err["loc"][0]) if err["loc"] else ""
                if key in data:
                    warnings.append(f"setting {key}={data.pop(key)!r} is invalid ({err['msg']}); using default")
    return Settings()


def load_settings(
    root: Path,
    overrides: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[Settings, list[str]]:
    """Merge every source for the workspace at ``root``; return the settings and any warnings."""
    warnings: list[str] = []
    layers = [
        (
            "pyproject.toml [tool.spyglass]",
            _normalise_keys(_read_toml(root / "pyproject.toml", ("tool", "spyglass")), "pyproject.toml", warnings),
        ),
        (".spyglass.toml", _normalise_keys(_read_toml(root / ".spyglass.toml"), ".spyglass.toml", warnings)),
        ("environment", _from_env(dict(os.environ if env is None else env), warnings)),
        (
            "overrides",
            _normalise_keys({k: v for k, v in (overrides or {}).items() if v is not None}, "overrides", warnings),
        ),
    ]
    merged: dict[str, Any] = {}
    for source, layer in layers:
        # each value is checked on its own, so a bad one falls back to the layer below it
        for key, value in layer.items():
            problems: list[str] = []
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                value = _deep_merge(merged[key], value)  # a table adds to the one below, key by key
            _validated({**merged, key: value}, problems)
            if problems:
                warnings.extend(f"{source}: {p}" for p in problems)
            else:
                merged[key] = value
    return _validated(merged, warnings), warnings


def _deep_merge(low: dict[str, Any], high: dict[str, Any]) -> dict[str, Any]:
    out = dict(low)
    for key, value in high.items():
        out[key] = _deep_merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out
