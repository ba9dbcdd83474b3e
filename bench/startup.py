"""Start-up and memory of Spyglass's processes on one workspace (issue 19's figures; a benchmark, not a test).

    python bench/startup.py CORPUS [--runs 5] [--out report.json]

CORPUS must already be indexed and embedded (`spyglass index CORPUS`); it is copied with its index to a
temporary folder. Measured there:
  1. a fresh `spyglass search QUERY --json` (a new process each time, answering with vectors) and
     `spyglass status`: wall time, median and all runs;
  2. a fresh `spyglass mcp` server: seconds from spawn to its first answer with vectors (`mode: hybrid`);
  3. three MCP servers and one language server on the workspace at once, each having answered a search with
     vectors, plus a CLI search while they run: the PSS of every process (/proc/PID/smaps_rollup: shared pages
     divided among their users, so the sum is what they cost together), the largest sum of all five sampled at
     one moment while the CLI search runs, and how many of them own the index.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from mcp import Client, StdioServerParameters
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).parent))
from common import emit, spyglass_pids  # noqa: E402

QUERY = "where is the configuration file parsed"
SPYGLASS = [sys.executable, "-m", "spyglass"]


def pss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def timed_cli(root: Path, *args: str) -> tuple[float, str]:
    t = time.perf_counter()
    proc = subprocess.run([*SPYGLASS, *args], cwd=root, capture_output=True, text=True, timeout=600)
    took = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    return took, proc.stdout


def cli(root: Path, runs: int) -> dict:
    out: dict = {}
    searches, modes = [], set()
    for _ in range(runs):
        took, stdout = timed_cli(root, "search", QUERY, "--json")
        searches.append(took)
        modes.add(json.loads(stdout)["index"]["mode"])
    statuses = [timed_cli(root, "status")[0] for _ in range(runs)]
    out["search_seconds"] = {"median": round(statistics.median(searches), 2), "runs": [round(s, 2) for s in searches]}
    out["search_modes"] = sorted(modes)
    out["status_seconds"] = {"median": round(statistics.median(statuses), 2), "runs": [round(s, 2) for s in statuses]}
    return out


async def hybrid_search(client: Client) -> float:
    """Seconds until ``search_code`` answers with vectors."""
    t0 = time.perf_counter()
    while True:
        result = await client.call_tool("search_code", {"query": QUERY})
        if result.is_error:
            raise RuntimeError(result.content[0].text)
        if result.structured_content["index"]["mode"] == "hybrid":
            return time.perf_counter() - t0
        await asyncio.sleep(0.05)


async def lsp_hybrid(client: LanguageClient) -> None:
    while True:
        try:
            answer = await client.protocol.send_request_async("spyglass/search", {"query": QUERY})
            if answer.folders and all(f.mode == "hybrid" for f in answer.folders):
                return
        except Exception as e:  # the folder is still opening  # noqa: BLE001
            print(f"lsp not ready: {e}", file=sys.stderr)
        await asyncio.sleep(0.1)


async def fleet(root: Path) -> dict:
    params = StdioServerParameters(command=sys.executable, args=["-m", "spyglass", "mcp", str(root)])
    out: dict = {}
    t0 = time.perf_counter()
    async with Client(params, read_timeout_seconds=600) as first:
        await hybrid_search(first)
        out["mcp_seconds_to_first_hybrid_answer"] = round(time.perf_counter() - t0, 2)
        second_client, third_client = Client(params, read_timeout_seconds=600), Client(params, read_timeout_seconds=600)
        async with second_client as second, third_client as third:
            t1 = time.perf_counter()
            await asyncio.gather(hybrid_search(second), hybrid_search(third))
            out["two_more_mcp_seconds_to_hybrid"] = round(time.perf_counter() - t1, 2)
            lsp = LanguageClient("spyglass-startup-bench", "1")
            await lsp.start_io(*SPYGLASS, "lsp", cwd=str(root))
            try:
                await lsp.initialize_async(
                    types.InitializeParams(
                        capabilities=types.ClientCapabilities(),
                        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
                    )
                )
                lsp.initialized(types.InitializedParams())
                await lsp_hybrid(lsp)
                mcp_pids, lsp_pids = spyglass_pids(root, "mcp"), spyglass_pids(root, "lsp")
                cli_search = subprocess.Popen([*SPYGLASS, "search", QUERY], cwd=root, stdout=subprocess.DEVNULL)
                peak_cli = peak_all = 0.0  # PSS of the CLI, and of all five processes sampled at the same moment
                while cli_search.poll() is None:
                    cli_pss = pss_mb(cli_search.pid) or 0.0
                    peak_cli = max(peak_cli, cli_pss)
                    peak_all = max(peak_all, cli_pss + sum(pss_mb(p) or 0.0 for p in mcp_pids + lsp_pids))
                    await asyncio.sleep(0.05)
                roles = []
                for client in (first, second, third):
                    status = (await client.call_tool("index_status", {})).structured_content
                    roles.append(status["role"])
                out["pss_mb"] = {
                    "mcp": [pss_mb(p) for p in mcp_pids],
                    "lsp": [pss_mb(p) for p in lsp_pids],
                    "cli_search_peak": round(peak_cli, 1),
                }
                servers = [v for v in out["pss_mb"]["mcp"] + out["pss_mb"]["lsp"] if v]
                out["pss_mb"]["servers_total"] = round(sum(servers), 1)
                out["pss_mb"]["total_with_cli"] = round(peak_all, 1)
                out["mcp_roles"] = roles
            finally:
                await lsp.shutdown_async(None)
                lsp.exit(None)
                await lsp.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="spyglass-startup-bench-"))
    root = tmp / args.corpus.resolve().name
    shutil.copytree(args.corpus, root, symlinks=True)
    try:
        report = {"corpus": str(args.corpus), "cli": cli(root, args.runs), **asyncio.run(fleet(root))}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    emit(report, args.out)


if __name__ == "__main__":
    main()
