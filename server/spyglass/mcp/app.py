"""Build and run the MCP server: one workspace, kept fresh by a LiveIndex (owner) or read while another
process writes it (follower); see docs/mcp.md."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer

from .. import __version__
from ..engine import LiveIndex, SpyglassError, StopOnSignals, Workspace
from ..metrics import Metrics, figures_of
from .session import QUERY_LOG_NAME, Progress, Session
from .tools import GROUPS
from .wire import run_stdio

log = logging.getLogger(__name__)

INSTRUCTIONS = """Spyglass searches this workspace's code locally (an index kept fresh as files change).
Start with search_code (natural language, identifiers or error text); fetch more with get_span(id) or
get_context(path, line); find_symbol for names. Scores: >0.5 strong, <0.3 weak; empty means no confident match."""


class _Measured:
    """The server as the tool modules see it: each tool they register reports to the session's metrics."""

    def __init__(self, server: MCPServer, session: Session):
        self.server, self.session = server, session

    def tool(self, name: str, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        register = self.server.tool(name=name, **kwargs)
        return lambda fn: register(self.session.measured(name, fn))


def build_server(
    live: LiveIndex | None,
    *,
    query_log: Path | None = None,
    progress: Progress | None = None,
    error: str = "",
    metrics: Metrics | None = None,
) -> tuple[MCPServer, Session]:
    """An ``MCPServer`` with every tool over ``live``'s workspace (the caller starts and stops ``live``);
    without one, every tool answers with ``error`` (so the agent reads why instead of losing the server)."""
    session = Session(live, query_log=query_log, progress=progress or Progress(), error=error or None, metrics=metrics)
    server = MCPServer("spyglass", version=__version__, instructions=INSTRUCTIONS)
    for group in GROUPS:
        group.register(_Measured(server, session), session)
    return server, session


def run(
    root: Path, *, log_queries: bool = False, db: str | None = None, metrics_at: tuple[str, int] | None = None
) -> int:
    """Serve ``root`` on stdio until the client disconnects (``db``: an index file other than the default;
    ``metrics_at``: serve Prometheus metrics on this host and port)."""
    metrics = serve_metrics(metrics_at)
    try:
        ws = Workspace.open(root, db=db, writer=True, memory_vectors=True)
    except (SpyglassError, OSError) as e:
        message = f"cannot open the Spyglass index of {root}: {e}"
        log.error("%s", message)
        StopOnSignals(lambda: None, "spyglass mcp").install()
        run_stdio(build_server(None, error=message, metrics=metrics)[0])
        return 1
    for warning in ws.warnings:
        log.warning("%s", warning)
    progress = Progress()
    live = LiveIndex(ws, on_progress=progress.update, on_work=metrics.worked if metrics else None)
    if metrics:
        metrics.watch(id(live), lambda: figures_of(live))
    query_log = ws.db_path.parent / QUERY_LOG_NAME if log_queries else None
    server, session = build_server(live, query_log=query_log, progress=progress, metrics=metrics)
    StopOnSignals(live.stop, "spyglass mcp").install()
    live.start()
    try:
        run_stdio(server)
    finally:
        live.stop()
        log.info("spyglass mcp stopped (%d secret(s) redacted this session)", session.redactions)
    return 0


def serve_metrics(address: tuple[str, int] | None) -> Metrics | None:
    """The server's metrics, served on ``address``; None when not asked for, or (said on stderr) when the
    address cannot be served: the tools matter more than their metrics."""
    if address is None:
        return None
    metrics = Metrics("mcp")
    try:
        metrics.serve(*address)
    except OSError as e:
        log.error("cannot serve metrics on %s:%d (%s); serving the tools without them", *address, e.strerror or e)
        return None
    return metrics
