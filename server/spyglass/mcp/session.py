"""What every MCP tool shares: the live index of one workspace, its limits, path confinement, secret
redaction and the optional query log. Engine calls run on worker threads (the tools are plain functions,
which the SDK runs off the event loop)."""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from ..engine import LiveIndex, OutsideWorkspace, Phase, SpyglassError, Workspace, redact_secrets
from ..metrics import Metrics

log = logging.getLogger(__name__)
_MARKER = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")

QUERY_LOG_NAME = "mcp-queries.jsonl"
PHASE_LABELS: dict[Phase, str] = {
    "scan": "scanning files",
    "parse": "indexing files",
    "embed": "embedding",
    "model": "loading model",
}


def _kind(error: ToolError, cause: Exception) -> ToolError:
    """``error`` marked with the kind of engine error it reports: ``IndexUnusable`` -> index_unusable."""
    error.kind = re.sub(r"(?<!^)(?=[A-Z])", "_", type(cause).__name__).lower()  # type: ignore[attr-defined]
    return error


@dataclass
class Progress:
    """The index writer's last progress report, for messages like "indexing files 40% (812/2074)"."""

    last: tuple[Phase, int, int] | None = None  # (phase, done, total)

    def update(self, phase: Phase, done: int, total: int) -> None:
        self.last = (phase, done, total)

    def text(self) -> str:
        if self.last is None:
            return "starting"
        phase, done, total = self.last
        name = PHASE_LABELS.get(phase, phase)
        return f"{name} {100 * done // total}% ({done}/{total})" if total else name


@dataclass
class Session:
    index: LiveIndex | None  # None when the index could not be opened: every tool then says why
    query_log: Path | None = None
    redactions: int = 0  # secrets replaced in answers since start (also logged per call)
    progress: Progress = field(default_factory=lambda: Progress())
    _lock: threading.Lock = field(default_factory=threading.Lock)

    error: str | None = None  # why there is no index
    metrics: Metrics | None = None  # opt-in (``--metrics``)

    @property
    def live(self) -> LiveIndex:
        if self.index is None:
            raise ToolError(self.error or "the index is not available")
        return self.index

    @property
    def ws(self) -> Workspace:
        return self.live.ws

    @property
    def root(self) -> Path:
        return self.live.ws.root

    # -- guards ----------------------------------------------------------------------------------
    def rel(self, path: str) -> str:
        """``path`` (relative to the root, or absolute inside it) as the index names it; anything that
        resolves outside the workspace (``..``, other absolute paths, symlinks that leave it) is refused."""
        if not path or "\x00" in path:
            raise ToolError("path is empty or not a path")
        try:
            return self.ws.relpath(path)
        except OutsideWorkspace:
            raise ToolError(f"{path!r} is outside the workspace {self.root}; give a path relative to it") from None

    def require_index(self) -> None:
        """Fail with what to do when nothing is searchable yet."""
        status = self.live.status()
        if status.files:
            return
        if status.state in ("starting", "indexing") or status.pending.full_sync:
            raise ToolError(
                f"the index of {self.root} is being built ({self.progress.text()}); try again in a few seconds, "
                "or run `spyglass index` in the workspace"
            )
        if status.state == "error":
            raise ToolError(f"the index of {self.root} is unusable: {status.error}")
        raise ToolError(f"nothing is indexed in {self.root} (no source files found, or all are ignored)")

    def call(self, tool: str, fn, *args, **kwargs):
        """Run an engine call, turning engine errors into tool errors an agent can act on (each naming the
        kind of error it was, for the metrics)."""
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except OutsideWorkspace as e:
            raise _kind(ToolError(str(e)), e) from None
        except (SpyglassError, ValueError) as e:
            raise _kind(ToolError(f"{tool}: {e}"), e) from None

    # -- metrics ---------------------------------------------------------------------------------
    def measured(self, tool: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` (a tool) reporting each call to the metrics: its time, its error's kind, and for a search
        how many results it returned."""
        metrics = self.metrics
        if metrics is None:
            return fn

        @functools.wraps(fn)
        def tool_call(*args, **kwargs):
            started = time.perf_counter()
            error = None
            try:
                result = fn(*args, **kwargs)
            except ToolError as e:
                error = getattr(e, "kind", "refused")
                raise
            except Exception:
                error = "internal"
                raise
            finally:
                metrics.answered(tool, time.perf_counter() - started, error)
            found = (result.structured_content or {}) if isinstance(result, CallToolResult) else {}
            if isinstance(results := found.get("results", found.get("commits")), list):  # search_history: commits
                tier = found.get("tier") or "default"
                metrics.searched(tool, tier, time.perf_counter() - started, len(results))
            return result

        return tool_call

    # -- secrets ---------------------------------------------------------------------------------
    def clean(self, text: str | None) -> str | None:
        """``text`` with secrets replaced by markers, counted. The engine's answers come redacted already
        (with the whole file's findings); this pass is a second net, and counts the markers for the log."""
        if not text:
            return text
        out = redact_secrets(text)
        kinds = _MARKER.findall(out.text)
        if kinds:
            with self._lock:
                self.redactions += len(kinds)
            log.info("redacted %d secret(s) (%s)", len(kinds), ", ".join(sorted(set(kinds))))
        return out.text

    # -- the query log ---------------------------------------------------------------------------
    def log_query(self, record: dict[str, Any]) -> None:
        if self.query_log is None:
            return
        record = {"time": round(time.time(), 3), **record}
        try:
            with self._lock, self.query_log.open("a", encoding="utf-8") as f:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        except OSError as e:
            log.warning("cannot write the query log %s: %s", self.query_log, e)
            self.query_log = None
