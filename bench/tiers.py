"""Latency of each search tier on one index (issue 22; a benchmark, not a test; docs/benchmarks.md).

    python bench/tiers.py ROOT --queries ../shared/bench/semble/queries.jsonl [--tiers fast,balanced,deep]
        [--n 300] [--rounds 2] [--out tiers.json]

Opens ROOT's index as a long-running server does (vectors in memory), answers one query per tier to warm up,
then each of the first ``--n`` queries (JSON lines with a "query" field, or plain lines) ``--rounds`` times per
tier, as an agent's ``search_code`` asks them (k=10, the confidence cut, snippets read from the files). Prints
p50 / p95 / max of the wall-clock time per tier, and what the answers said they cost (``elapsed_ms``).
A tier that needs vectors is skipped, with the reason, when the index has none.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from pathlib import Path

from spyglass.engine import TIERS, Workspace


def load_queries(path: Path, n: int) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        out.append(json.loads(line)["query"] if line.startswith("{") else line)
    return out[:n]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))], 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("--queries", type=Path, required=True)
    ap.add_argument("--tiers", default=",".join(TIERS))
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    queries = load_queries(args.queries, args.n)
    report: dict = {"root": str(args.root), "queries": len(queries), "rounds": args.rounds, "tiers": {}}
    with Workspace.open(args.root, memory_vectors=True) as ws:
        fresh = ws.freshness()
        report["spans"], report["embedded"] = fresh.spans, fresh.embedded
        for tier in args.tiers.split(","):
            if tier != "fast" and not fresh.embedded:
                report["tiers"][tier] = {"skipped": "the index has no vectors (built with --no-embed)"}
                continue
            ws.search(queries[0], k=10, tier=tier)  # warm: the model, the vectors in memory
            wall, said, empty = [], [], 0
            for _ in range(args.rounds):
                for q in queries:
                    t0 = time.perf_counter()
                    answer = ws.search(q, k=10, tier=tier)
                    wall.append(1000 * (time.perf_counter() - t0))
                    said.append(answer.elapsed_ms)
                    empty += not answer.results
            report["tiers"][tier] = {
                "searches": len(wall),
                "p50_ms": pct(wall, 0.5),
                "p95_ms": pct(wall, 0.95),
                "max_ms": round(max(wall), 1),
                "mean_ms": round(statistics.fmean(wall), 1),
                "answer_elapsed_p50_ms": pct(said, 0.5),
                "empty_answers": empty,
                "mode": answer.index.mode,
            }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
