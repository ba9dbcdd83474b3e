"""Real `spyglass mcp` processes over stdio (the SDK's stdio client): one answers; three on one workspace
share one index with a single writer; when the owner exits another takes over without losing the index."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from spyglass.engine.migrations import SCHEMA_VERSION
from spyglass.engine.store import Store

pytestmark = pytest.mark.slow


def params(root: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "spyglass", "mcp", str(root)])


async def tool(client: Client, tool_name: str, /, **args) -> dict:
    result = await client.call_tool(tool_name, args)
    assert not result.is_error, result.content
    return result.structured_content


async def until(check, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.2)


async def test_a_subprocess_over_stdio_answers(shop):
    async with Client(params(shop), read_timeout_seconds=120) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert "search_code" in names
        await until(lambda: _idle(client))
        hits = await tool(client, "search_code", query="the discount a coupon code gives")
        assert hits["results"][0]["symbol"] == "compute_discount"


async def _idle(client: Client) -> dict | None:
    status = await tool(client, "index_status")
    return status if status["state"] in ("idle", "following") and status["files"] else None


class Process:
    """A `spyglass mcp` process whose client lives in a task of its own, so that one can be closed while the
    others stay open (an MCP client must be closed by the task that opened it)."""

    def __init__(self, root: Path):
        self.root = root
        self.client: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            async with Client(params(self.root), read_timeout_seconds=120) as client:
                self.client.set_result(client)
                await self._stop.wait()
        except BaseException as e:
            if not self.client.done():
                self.client.set_exception(e)
            raise

    async def close(self) -> None:
        self._stop.set()
        await self._task


async def test_three_processes_share_one_index_and_one_writer(shop):
    procs = [Process(shop)]
    try:
        first = await procs[0].client
        await until(lambda: _idle(first))
        procs += [Process(shop), Process(shop)]
        others = [await p.client for p in procs[1:]]
        clients = [first, *others]
        roles = [(await until(lambda c=c: _idle(c)))["role"] for c in clients]
        assert roles == ["owner", "follower", "follower"]

        (shop / "shop" / "returns.py").write_text(
            'def approve_return(order_id: int) -> bool:\n    """Accept a returned parcel."""\n    return True\n',
            encoding="utf-8",
        )

        async def found(c: Client) -> bool:
            hits = (await tool(c, "find_symbol", name="approve_return"))["results"]
            return bool(hits) and hits[0]["path"] == "shop/returns.py"

        for c in clients:  # the owner's watcher indexes it; the followers read the same database
            await until(lambda c=c: found(c), timeout=30)
        assert (await tool(others[0], "reindex"))["done"] is False  # a follower never writes

        await procs.pop(0).close()  # the owner exits: one of the others takes over

        async def someone_owns() -> bool:
            return any([(await tool(c, "index_status"))["role"] == "owner" for c in others])

        await until(someone_owns, timeout=30)
        for c in others:
            assert await found(c)  # nothing was lost or rebuilt
    finally:
        for p in procs:
            await p.close()


async def test_an_unusable_index_is_explained_by_every_tool_not_a_dead_server(shop):
    store = Store(shop / ".spyglass" / "index.db")
    store.con.execute("INSERT INTO schema_migrations VALUES(?, 0)", (SCHEMA_VERSION + 1,))
    store.close()
    async with Client(params(shop), read_timeout_seconds=60) as client:
        for name, args in (("search_code", {"query": "discount"}), ("index_status", {})):
            result = await client.call_tool(name, args)
            assert result.is_error and "cannot open the Spyglass index" in result.content[0].text
            assert "newer" in result.content[0].text
