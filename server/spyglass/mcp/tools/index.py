"""The index itself: ``index_status`` (coverage and freshness) and ``reindex`` (the one tool that writes)."""

from __future__ import annotations

from concurrent.futures import TimeoutError as FutureTimeout
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from ...engine import CHANGE_COUNTS, FOLLOWING, git_head
from .. import render
from ..models import ReindexOutput, StatusOutput
from ..session import Session
from ._common import READ_ONLY, answer

REINDEX_WAIT_SECONDS = 120
REINDEX_PATHS_LIMIT = 1000


def register(server: MCPServer, session: Session) -> None:
    @server.tool(
        name="index_status",
        description="How complete and fresh the code index is: files, spans, share embedded, pending changes, "
        "last update, git HEAD and branch, the history held (up to which commit) and the hot spots (files "
        "changed most often lately), model. Check it when results look stale or empty.",
        annotations=READ_ONLY,
    )
    def index_status() -> Annotated[CallToolResult, StatusOutput]:
        commit, branch = git_head(session.root)
        history, hot = session.call("index_status", lambda: (session.ws.history_state(), session.ws.hot_files()))
        out = StatusOutput.of(session.live.status(), commit, branch, history, hot)
        return answer(out, render.status(out))

    @server.tool(
        name="reindex",
        description="Re-index now: the given files (after you wrote them) or, with no paths, everything that "
        "changed on disk. Files are normally picked up within a second or two by themselves; use this to be "
        "sure before searching. Waits for the lexical index; vectors follow in the background.",
        annotations=ToolAnnotations(
            readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False
        ),
    )
    def reindex(
        paths: Annotated[
            list[str] | None,
            Field(max_length=REINDEX_PATHS_LIMIT, description="Files to re-index (relative to the workspace)."),
        ] = None,
    ) -> Annotated[CallToolResult, ReindexOutput]:
        rels = [session.rel(p) for p in paths or []]
        root = str(session.root)
        if session.live.role == "follower":
            out = ReindexOutput(
                root=root,
                done=False,
                message=FOLLOWING,
            )
            return answer(out, render.reindex(out))
        future = session.live.request_sync(rels or None)
        try:
            summary = future.result(timeout=REINDEX_WAIT_SECONDS)
        except FutureTimeout:
            raise ToolError(
                f"re-indexing is still running after {REINDEX_WAIT_SECONDS} s ({session.progress.text()}); "
                "it goes on in the background: check index_status"
            ) from None
        except Exception as e:
            raise ToolError(f"re-indexing failed: {e}") from None
        changes = {k: int(summary.get(k, 0)) for k in CHANGE_COUNTS if k in summary}
        what = f"{len(rels)} file(s)" if rels else "the workspace"
        out = ReindexOutput(root=root, done=True, message=f"re-indexed {what}", changes=changes)
        return answer(out, render.reindex(out))
