"""What `spyglass search` answers on a semble-format suite, confidence cut on (a benchmark, not a test).

    python bench/cut_answers.py bench/behaviour --work /tmp/spyglass-semble [--k 10] [--tier fast]

bench/semble_ablation.py ranks with the cut off, so it cannot see an answer the confidence floor empties.
This runs every query as a user's search runs it (the default tier, the cut on, at most ``--k`` results) on
the warm indexes ``spyglass eval semble`` built under ``--work``, and prints the results per query, the
empty answers (each named) and, for targets that give lines, how many answers hold the target definition
and how many put it first.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from semble_ablation import function_rank
from spyglass.engine import Workspace
from spyglass.engine.search import TIERS
from spyglass.evaluation.semble import load_suite


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", type=Path, help="a folder with repos.json and queries.jsonl")
    ap.add_argument("--work", type=Path, required=True, help="the working folder of spyglass eval semble")
    ap.add_argument("--k", type=int, default=10, help="results asked for per query")
    ap.add_argument("--tier", choices=TIERS, default="balanced", help="the search tier (default: balanced)")
    args = ap.parse_args()
    suite = load_suite(args.suite)
    asked = results = empty = with_lines = held = first = 0
    for name, repo in suite.repos.items():
        folder = args.work / name
        if not folder.is_dir():
            print(f"{name}: no index under {folder}; run spyglass eval semble first", file=sys.stderr)
            continue
        with Workspace.open(folder, memory_vectors=True) as ws:
            for q in (q for q in suite.queries if q.repo == name):
                hits = ws.search(q.query, k=args.k, tier=args.tier).results
                asked += 1
                results += len(hits)
                if not hits:
                    empty += 1
                    print(f"empty: {q.id} {q.query}")
                rank = function_rank(q, hits, repo.root)
                if rank is not None:
                    with_lines += 1
                    held += rank > 0
                    first += rank == 1
    print(f"{asked} queries: {results / max(asked, 1):.2f} results each, {empty} empty")
    if with_lines:
        print(f"{with_lines} with lines: the target in {held} answers, first in {first}")


if __name__ == "__main__":
    main()
