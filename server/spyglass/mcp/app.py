"""Build and run the MCP server: one workspace, kept fresh by a LiveIndex (owner) or read while another
process writes it (follower); see docs/mcp.md."""

from __future__ import annotations

import logging
from pathlib import Path

from mcp.server.mcpserver import MCPServer

from .. import __version__
from ..engine import LiveIndex, SpyglassError, StopOnSignals, Workspace
from .session import QUERY_LOG_NAME, Progress, Session
from .tools import GROUPS
from .wire import run_stdio

log = logging.getLogger(__name__)

INSTRUCTIONS = """Spyglass searches this workspace's code locally (an index kept fresh as files change).
Start with search_code (natural language, identifiers or error text); fetch more with get_span(id) or
get_context(path, line); find_symbol for names. Scores: >0.5 strong, <0.3 weak; empty means no confident match."""


def build_server(
    live: LiveIndex | None, *, query_log: Path | None = None, progress: Progress | None = None, error: str = ""
) -> tuple[MCPServer, Session]:
    """An ``MCPServer`` with every tool over ``live``'s workspace (the caller starts and stops ``live``);
    without one, every tool answers with ``error`` (so the agent reads why instead of losing the server)."""
    session = Session(live, query_log=query_log, progress=progress or Progress(), error=error or None)
    server = MCPServer("spyglass", version=__version__, instructions=INSTRUCTIONS)
    for group in GROUPS:
        group.register(server, session)
    return server, session


def run(root: Path, *, log_queries: bool = False, db: str | None = None) -> int:
    """Serve ``root`` on stdio until the client disconnects (``db``: an index file other than the default)."""
    try:
        ws = Workspace.open(root, db=db, writer=True, memory_vectors=True)
    except (SpyglassError, OSError) as e:
        message = f"cannot open the Spyglass index of {root}: {e}"
        log.error("%s", message)
        StopOnSignals(lambda: None, "spyglass mcp").install()
        run_stdio(build_server(None, error=message)[0])
        return 1
    for warning in ws.warnings:
        log.warning("%s", warning)
    progress = Progress()
    live = LiveIndex(ws, on_progress=progress.update)
    query_log = ws.db_path.parent / QUERY_LOG_NAME if log_queries else None
    server, session = build_server(live, query_log=query_log, progress=progress)
    StopOnSignals(live.stop, "spyglass mcp").install()
    live.start()
    try:
        run_stdio(server)
    finally:
        live.stop()
        log.info("spyglass mcp stopped (%d secret(s) redacted this session)", session.redactions)
    return 0
