"""Soak (issue 21, class 7; a benchmark, not a test; docs/reliability.md).

    python bench/reliability_soak.py [--minutes 60] [--out report.json]

One real ``spyglass mcp`` server (the SDK's stdio client) on a copy of tests/fixtures/shop answers
``search_code`` and ``find_symbol`` without pause while a file is created, rewritten or deleted every
second. Sampled every ``--every`` seconds from /proc: its resident memory, open file descriptors and
threads; per minute, the p50 / p95 of its answers. Goals: RSS growth under 10% from the first minute to
the last, no growth in descriptors or threads, p95 steady.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "shop"
QUERIES = ["the discount a coupon code gives", "where orders are stored", "edit number", "tax", "Cart"]


def proc_stats(pid: int) -> dict:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    targets = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:  # closed meanwhile
            continue
    kinds: dict[str, int] = {}
    for t in targets:  # what the descriptors are: socket, pipe, anon_inode (inotify, eventfd), a file's suffix
        kind = t.split(":", 1)[0] if ":" in t and not t.startswith("/") else Path(t).suffix or Path(t).name
        kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "rss_mb": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
        # of which: the process's own memory, and pages of mapped files (the index's mmap, libraries),
        # which the kernel can drop and share with other processes
        "rss_anon_mb": round(int(fields["RssAnon"].split()[0]) / 1024, 1),
        "rss_file_mb": round(int(fields["RssFile"].split()[0]) / 1024, 1),
        "threads": int(fields["Threads"]),
        "fds": len(targets),
        "fd_kinds": kinds,
    }


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 1) if values else 0.0


def index_mb(root: Path) -> float:
    """The index's size on disk (database and its write-ahead log): what the server's mapped pages follow."""
    files = [root / ".spyglass" / name for name in ("index.db", "index.db-wal")]
    return round(sum(f.stat().st_size for f in files if f.exists()) / 2**20, 1)


async def run(minutes: float, every: float, edit_every: float = 1.0) -> dict:
    work = Path(tempfile.mkdtemp(prefix="spyglass-soak-"))
    root = work / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    (root / "gen").mkdir()
    # this environment (the SDK passes only a few variables otherwise): PYTHONPATH picks the code under test
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "spyglass", "mcp", str(root)], env=dict(os.environ)
    )
    rng = random.Random(7)
    samples, minutes_seen, errors = [], {}, 0
    async with Client(params, read_timeout_seconds=60) as client:
        while (await client.call_tool("index_status", {})).structured_content.get("state") != "idle":
            await asyncio.sleep(0.2)
        status = subprocess.run(
            [sys.executable, "-m", "spyglass", "status", "--json"], cwd=root, capture_output=True, text=True
        )
        pid = json.loads(status.stdout)["writer"]["pid"]
        t_start = time.monotonic()
        next_edit = next_sample = t_start
        n = 0
        while time.monotonic() - t_start < minutes * 60:
            now = time.monotonic()
            if now >= next_edit:
                n += 1
                path = root / "gen" / f"m{rng.randrange(50):02}.py"
                if path.exists() and rng.random() < 0.3:
                    path.unlink()
                else:
                    path.write_text(f"def edit_fn_{n}(x):\n    '''Edit number {n}.'''\n    return x + {n}\n")
                next_edit = now + edit_every
            if now >= next_sample:
                samples.append({"t": round(now - t_start, 1), "index_mb": index_mb(root), **proc_stats(pid)})
                next_sample = now + every
            t0 = time.perf_counter()
            if rng.random() < 0.5:
                result = await client.call_tool("search_code", {"query": rng.choice(QUERIES), "k": 5})
            else:
                result = await client.call_tool("find_symbol", {"name": f"edit_fn_{max(1, n)}"})
            errors += result.is_error
            minute = int((now - t_start) // 60)
            minutes_seen.setdefault(minute, []).append(time.perf_counter() - t0)
    shutil.rmtree(work, ignore_errors=True)
    first = [s for s in samples if s["t"] < 60] or samples[:1]
    last = [s for s in samples if s["t"] >= samples[-1]["t"] - 60] or samples[-1:]

    def mean(rows: list[dict], key: str) -> float:
        return round(sum(r[key] for r in rows) / len(rows), 1)

    return {
        "minutes": minutes,
        "edits": n,
        "edit_every_s": edit_every,
        "answers": sum(len(v) for v in minutes_seen.values()),
        "errors": errors,
        "rss_mb_first_minute": mean(first, "rss_mb"),
        "rss_mb_last_minute": mean(last, "rss_mb"),
        "rss_growth_pct": round(100 * (mean(last, "rss_mb") / mean(first, "rss_mb") - 1), 1),
        "rss_anon_mb_first_last_minute": [mean(first, "rss_anon_mb"), mean(last, "rss_anon_mb")],
        "rss_file_mb_first_last_minute": [mean(first, "rss_file_mb"), mean(last, "rss_file_mb")],
        "index_mb_first_last": [samples[0]["index_mb"], samples[-1]["index_mb"]],
        "fds_first_last": [first[0]["fds"], last[-1]["fds"]],
        "fd_kinds_first_last": [first[0]["fd_kinds"], last[-1]["fd_kinds"]],
        "threads_first_last": [first[0]["threads"], last[-1]["threads"]],
        "per_minute_ms": {m: {"n": len(v), "p50": pct(v, 0.5), "p95": pct(v, 0.95)} for m, v in minutes_seen.items()},
        "samples": samples,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--every", type=float, default=10, help="seconds between samples of the process")
    ap.add_argument("--edit-every", type=float, default=1.0, help="seconds between file edits")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    report = asyncio.run(run(args.minutes, args.every, args.edit_every))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k != "samples"}, indent=2))


if __name__ == "__main__":
    main()
