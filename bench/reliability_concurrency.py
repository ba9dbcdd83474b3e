"""Concurrency under load (issue 21, class 5; a benchmark, not a test; docs/reliability.md).

    python bench/reliability_concurrency.py [--edits 50] [--kill-after 40] [--out report.json]

Real processes on one workspace (a copy of tests/fixtures/shop): three ``spyglass mcp`` servers (the SDK's
stdio client), one ``spyglass lsp`` server (pygls's client) and ``spyglass search`` / ``spyglass status``
runs, while files are created, rewritten and deleted one at a time. After each edit every server is asked
until it shows the new state (MCP ``find_symbol``, LSP ``workspace/symbol``): how long that takes is its
staleness. Counted: error answers (any, and "database is locked" among them), how many processes called
themselves the owner at once (must be 1), and, after ``--kill-after`` edits, the seconds until another
process owns the index once the owner is killed with SIGKILL, and whether later edits are still found.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from mcp import Client, StdioServerParameters
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "shop"
STALE_LIMIT = 10.0  # seconds a server may take to show an edit before it counts as stale for good


class McpProcess:
    """A ``spyglass mcp`` process whose client lives in a task of its own (an MCP client must be closed by
    the task that opened it), so one can die while the others go on."""

    def __init__(self, root: Path):
        params = StdioServerParameters(command=sys.executable, args=["-m", "spyglass", "mcp", str(root)])
        self.client: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run(params))
        self.dead = False

    async def _run(self, params: StdioServerParameters) -> None:
        try:
            async with Client(params, read_timeout_seconds=60) as client:
                self.client.set_result(client)
                await self._stop.wait()
        except BaseException as e:  # noqa: BLE001 - a killed server ends its client with any error
            self.dead = True
            if not self.client.done():
                self.client.set_exception(e)

    async def close(self) -> None:
        self._stop.set()
        try:
            await asyncio.wait_for(self._task, 10)
        except Exception:  # noqa: BLE001 - a timeout too
            pass


class Tally:
    def __init__(self) -> None:
        self.errors: list[str] = []
        self.locked = 0
        self.max_owners = 0
        self.staleness: dict[str, list[float]] = {}
        self.stale_for_good: list[str] = []

    def error(self, who: str, text: str) -> None:
        self.errors.append(f"{who}: {text[:200]}")
        self.locked += "database is locked" in text


async def mcp_names(client: Client, name: str, tally: Tally, who: str) -> set[str] | None:
    try:
        result = await asyncio.wait_for(client.call_tool("find_symbol", {"name": name}), 30)
    except Exception as e:  # noqa: BLE001
        tally.error(who, repr(e))
        return None
    if result.is_error:
        tally.error(who, " ".join(c.text for c in result.content if c.type == "text"))
        return None
    return {r["path"] for r in result.structured_content["results"] if r["symbol"].rsplit(".", 1)[-1] == name}


async def lsp_names(client: LanguageClient, name: str, tally: Tally) -> set[str] | None:
    try:
        found = await asyncio.wait_for(client.workspace_symbol_async(types.WorkspaceSymbolParams(query=name)), 30)
    except Exception as e:  # noqa: BLE001
        tally.error("lsp", repr(e))
        return None
    return {Path(s.location.uri.removeprefix("file://")).name for s in found or [] if s.name == name}


async def answers(client: Client) -> bool:
    try:
        await asyncio.wait_for(client.call_tool("index_status", {}), 5)
    except Exception:  # noqa: BLE001 - a closed connection, a timeout
        return False
    return True


async def owners(clients: dict[str, Client], tally: Tally) -> list[str]:
    roles = []
    for who, c in clients.items():
        try:
            status = (await asyncio.wait_for(c.call_tool("index_status", {}), 30)).structured_content
        except Exception as e:  # noqa: BLE001
            tally.error(who, repr(e))
            continue
        if status and status.get("role") == "owner":
            roles.append(who)
    tally.max_owners = max(tally.max_owners, len(roles))
    return roles


def cli(root: Path, *args: str, tally: Tally) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "spyglass", *args], cwd=root, capture_output=True, text=True, timeout=120
    )
    if proc.returncode != 0:
        tally.error("cli", proc.stderr)


async def until_shown(check, expect, who: str, tally: Tally, t0: float) -> None:
    while True:
        got = await check()
        if got is not None and expect(got):
            tally.staleness.setdefault(who, []).append(time.monotonic() - t0)
            return
        if time.monotonic() - t0 > STALE_LIMIT:
            tally.stale_for_good.append(who)
            return
        await asyncio.sleep(0.05)


def shown_everywhere(
    clients: dict[str, Client],
    lsp: LanguageClient,
    path: str,
    new: str | None,
    gone: str | None,
    tally: Tally,
    t0: float,
) -> list:
    """Waits, one per server and name: until ``new`` is found in ``path`` and ``gone`` is not."""
    base = Path(path).name
    waits = []
    for who, c in clients.items():
        if new:
            waits.append(
                until_shown(lambda c=c, w=who: mcp_names(c, new, tally, w), lambda g: path in g, who, tally, t0)
            )
        if gone:
            waits.append(
                until_shown(lambda c=c, w=who: mcp_names(c, gone, tally, w), lambda g: path not in g, who, tally, t0)
            )
    if new:
        waits.append(until_shown(lambda: lsp_names(lsp, new, tally), lambda g: base in g, "lsp", tally, t0))
    if gone:
        waits.append(until_shown(lambda: lsp_names(lsp, gone, tally), lambda g: base not in g, "lsp", tally, t0))
    return waits


async def run(edits: int, kill_after: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="spyglass-concurrency-"))
    root = work / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    (root / "gen").mkdir()
    tally = Tally()
    procs = [McpProcess(root)]
    first = await procs[0].client
    while (await first.call_tool("index_status", {})).structured_content.get("state") not in ("idle",):
        await asyncio.sleep(0.2)
    procs += [McpProcess(root), McpProcess(root)]
    clients = {f"mcp{i}": await p.client for i, p in enumerate(procs)}
    lsp = LanguageClient("reliability", "1")
    lsp.feature("spyglass/statusChanged")(lambda params: None)
    await lsp.start_io(sys.executable, "-m", "spyglass", "lsp")
    folder = types.WorkspaceFolder(uri=root.as_uri(), name=root.name)
    await lsp.initialize_async(
        types.InitializeParams(capabilities=types.ClientCapabilities(), workspace_folders=[folder])
    )
    lsp.initialized(types.InitializedParams())
    await asyncio.sleep(2)

    live: dict[str, int] = {}  # file -> the number in the name of the function it holds now
    takeover = None
    t_start = time.monotonic()
    for i in range(edits):
        if i == kill_after:
            pid = json.loads(
                subprocess.run(
                    [sys.executable, "-m", "spyglass", "status", "--json"], cwd=root, capture_output=True, text=True
                ).stdout
            )["writer"]["pid"]
            os.kill(pid, signal.SIGKILL)
            t_kill = time.monotonic()
            clients = {w: c for w, c in clients.items() if await answers(c)}  # the killed one no longer does
            while not await owners(clients, tally):
                await asyncio.sleep(0.1)
                if time.monotonic() - t_kill > 60:
                    break
            takeover = time.monotonic() - t_kill
        kind = "create" if len(live) < 5 or i % 3 == 0 else ("rewrite" if i % 3 == 1 else "delete")
        if kind == "create":
            name = f"gen/m{i:03}.py"
            live[name] = i
        else:
            name = sorted(live)[i % len(live)]
        path = root / name
        if kind == "delete":
            old = live.pop(name)
            path.unlink()
        else:
            old = live.get(name) if kind == "rewrite" else None
            live[name] = i
            path.write_text(f"def edit_fn_{i}(x):\n    '''Edit number {i}.'''\n    return x + {i}\n")
        t0 = time.monotonic()
        new_name = None if kind == "delete" else f"edit_fn_{i}"
        gone = f"edit_fn_{old}" if old is not None else None
        await asyncio.gather(*shown_everywhere(clients, lsp, name, new_name, gone, tally, t0))
        await owners(clients, tally)
        if i % 10 == 5:
            cli(root, "search", "edit number", "-k", "3", tally=tally)
            cli(root, "status", tally=tally)

    report = {
        "edits": edits,
        "servers": {"mcp": len(procs), "lsp": 1},
        "seconds": round(time.monotonic() - t_start, 1),
        "errors": len(tally.errors),
        "database_locked": tally.locked,
        "max_owners_at_once": tally.max_owners,
        "stale_for_good": len(tally.stale_for_good),
        "staleness_s": {
            who: {"n": len(v), "p50": round(sorted(v)[len(v) // 2], 3), "max": round(max(v), 3)}
            for who, v in sorted(tally.staleness.items())
        },
        "takeover_s": round(takeover, 2) if takeover is not None else None,
        "error_samples": tally.errors[:5],
    }
    try:
        await asyncio.wait_for(lsp.shutdown_async(None), 10)
        lsp.exit(None)
        await asyncio.wait_for(lsp.stop(), 10)
    except Exception:  # noqa: BLE001
        pass
    for p in procs:
        await p.close()
    shutil.rmtree(work, ignore_errors=True)
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--kill-after", type=int, default=40, help="kill -9 the owner before this edit (-1: never)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    report = asyncio.run(run(args.edits, args.kill_after))
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
