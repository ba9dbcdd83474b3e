"""The MCP server's stdio wire, where every request is answered.

The SDK's stdio transport validates each line against its JSON-RPC models and drops a line that fails
without a word, so the client waits forever: a lone surrogate in any string (pydantic's JSON parser takes
none), params that are not an object, an id that is null or a fraction, nesting past 200 levels. Here each
line is validated the same way before the SDK reads it; a line that fails is answered with the error
``spyglass.jsonrpc.refusal`` gives (-32602 invalid params, with the request's id), sent through the SDK's
own writer so that frames never interleave, and the SDK never sees it.
"""

from __future__ import annotations

import io
import json
import logging
import os
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any, Protocol, cast

import anyio
import mcp_types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from ..jsonrpc import refusal

log = logging.getLogger(__name__)


class _Error(mcp_types.JSONRPCError):
    """An error answer whose id may also be a fraction: JSON-RPC echoes the number the request carried
    (MCP asks for integers, and the error says so)."""

    id: int | str | float | None  # type: ignore[assignment]


class _Sender(Protocol):
    async def send(self, item: SessionMessage, /) -> None: ...


class CheckedLines:
    """The client's lines, less those the SDK would drop unanswered; those are answered here instead,
    once :meth:`answer_with` has the transport's write stream."""

    def __init__(self, lines: AsyncIterable[str]):
        self._lines = lines
        self._ready = anyio.Event()
        self._write: _Sender | None = None
        self.refused = 0

    def answer_with(self, write: _Sender) -> None:
        self._write = write
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._checked()

    async def _checked(self) -> AsyncIterator[str]:
        await self._ready.wait()
        async for line in self._lines:
            if not line.strip():
                continue  # a blank line between messages
            try:
                message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except Exception:  # a ValidationError, or anything else: the reader must never end here
                await self._refuse(line)
                continue
            if isinstance(message, mcp_types.JSONRPCNotification) and _has_id(line):
                await self._refuse(line)  # a request whose id the SDK cannot take reads to it as a notification
                continue
            yield line

    async def _refuse(self, line: str) -> None:
        self.refused += 1
        try:
            answer = refusal(line, strict_ids=True, array_params=False)
        except Exception:  # never let one message end the reader
            log.exception("could not classify a message the SDK refused")
            return
        if answer is None:
            log.info("dropped a notification or response the SDK cannot read")
            return
        log.info("refused a request: %s", answer.message)
        error = mcp_types.ErrorData(code=answer.code, message=answer.message)
        assert self._write is not None
        try:
            await self._write.send(SessionMessage(_Error(jsonrpc="2.0", id=answer.id, error=error)))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):  # the server is stopping
            pass


def _has_id(line: str) -> bool:
    """Whether the JSON object ``line`` has an "id" member (the SDK's models ignore members they lack)."""
    if '"id"' not in line:
        return False
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return True  # the SDK read it, so it is JSON: let refusal() read it without recursion
    return isinstance(message, dict) and "id" in message


def _stdin_lines() -> tuple[anyio.AsyncFile[str], int]:
    """fd 0 read through a private duplicate, and that duplicate; fd 0 itself now reads the null device, so
    nothing the server runs can take the client's bytes (what the SDK does when it opens stdin itself)."""
    private = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    # closefd=False: a worker thread may still block reading it after the transport exits (as in the SDK)
    text = io.TextIOWrapper(os.fdopen(private, "rb", closefd=False), encoding="utf-8", errors="replace")
    return anyio.wrap_file(text), private


async def serve_stdio(server: MCPServer) -> None:
    """``server.run("stdio")``, with every line checked first (see the module's docstring)."""
    stdin, private = _stdin_lines()
    lines = CheckedLines(stdin)
    try:
        async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
            lines.answer_with(write_stream)
            lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async runs; it has no public name
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
    finally:
        os.dup2(private, 0)
        if lines.refused:
            log.info("%d message(s) refused this session", lines.refused)


def run_stdio(server: MCPServer) -> None:
    anyio.run(serve_stdio, server)
