"""MCP server latency, start-up, memory and token economy on a real corpus (a benchmark, not a test).

    python bench/mcp_bench.py CORPUS [--rounds 5] [--out report.json]

CORPUS must already be indexed (`spyglass index CORPUS`); it is copied to a temporary folder with its index
and served by real `spyglass mcp` processes over stdio (the SDK's stdio client). Measured:
  1. start-up: spawn to the first `search_code` answer (lexical while the model loads) and to the model
     being loaded (`index_status.model_loaded`);
  2. warm `search_code` round trips (k=5, default budget) for 20 short queries x rounds: p50/p95;
  3. tokens per call: the answer's text (what the agent reads) against the raw text of the files its
     spans come from (what reading those files would cost), at 4 characters per token;
  4. memory: peak RSS of the owner and of a second process on the same workspace (a follower).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).parent))
from common import emit, spyglass_pids  # noqa: E402
from index_bench import QUERIES  # noqa: E402

CHARS_PER_TOKEN = 4


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(round(q * (len(values) - 1))))], 1)


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


async def call(client: Client, tool: str, **args) -> tuple[dict, str]:
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise RuntimeError(result.content[0].text)
    return result.structured_content, result.content[0].text


async def run(args) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="spyglass-mcp-bench-"))
    root = tmp / args.corpus.name
    shutil.copytree(args.corpus, root, symlinks=True)
    params = StdioServerParameters(command=sys.executable, args=["-m", "spyglass", "mcp", str(root)])
    report: dict = {"corpus": str(args.corpus)}
    t0 = time.perf_counter()
    async with Client(params, read_timeout_seconds=300) as client:
        first, _ = await call(client, "search_code", query=QUERIES[0])
        report["seconds_to_first_answer"] = round(time.perf_counter() - t0, 2)
        report["first_answer_mode"] = first["index"]["mode"]
        while not (await call(client, "index_status"))[0]["model_loaded"]:
            await asyncio.sleep(0.1)
        report["seconds_to_model_loaded"] = round(time.perf_counter() - t0, 2)
        status, _ = await call(client, "index_status")
        report["index"] = {k: status[k] for k in ("files", "spans", "embedded_fraction", "role")}
        await call(client, "search_code", query="warm up")

        times, answer_tokens, file_tokens = [], [], []
        for _ in range(args.rounds):
            for q in QUERIES:
                t = time.perf_counter()
                data, text = await call(client, "search_code", query=q)
                times.append(1000 * (time.perf_counter() - t))
                answer_tokens.append(len(text) / CHARS_PER_TOKEN)
                paths = {r["path"] for r in data["results"]}
                raw = sum(len((root / p).read_text(encoding="utf-8", errors="replace")) for p in paths)
                file_tokens.append(raw / CHARS_PER_TOKEN)
        report["search_code_ms"] = {"n": len(times), "p50": pct(times, 0.5), "p95": pct(times, 0.95)}
        mean_answer = sum(answer_tokens) / len(answer_tokens)
        mean_files = sum(file_tokens) / len(file_tokens)
        report["tokens_per_call"] = {
            "answer_mean": round(mean_answer),
            "answer_max": round(max(answer_tokens)),
            "files_behind_it_mean": round(mean_files),
            "ratio": round(mean_files / mean_answer, 1),
        }

        owner_pids = spyglass_pids(root, "mcp")
        async with Client(params, read_timeout_seconds=300) as second:
            while not (await call(second, "index_status"))[0]["model_loaded"]:
                await asyncio.sleep(0.1)
            role = (await call(second, "index_status"))[0]["role"]
            await call(second, "search_code", query=QUERIES[1])
            pids = spyglass_pids(root, "mcp")
            follower = [p for p in pids if p not in owner_pids]
            report["memory_peak_rss_mb"] = {
                "owner": [rss_mb(p) for p in owner_pids],
                f"second process ({role})": [rss_mb(p) for p in follower],
            }
    shutil.rmtree(tmp, ignore_errors=True)
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    report = asyncio.run(run(args))
    emit(report, args.out)


if __name__ == "__main__":
    main()
