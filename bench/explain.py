"""Show how one evaluation query is answered: the top results with their signals, and where the gold is.

    python bench/explain.py QUERIES.jsonl INSTANCE_ID --work DIR [-k 15] [--no-embed]

Materialises the instance's commit in DIR (the same folders `spyglass eval` uses, so it is cheap after an
evaluation run) and runs the search with the whole ranking kept. A tool for finding out why we lose.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from spyglass.engine.workspace import Workspace
from spyglass.evaluation.corpus import find_git_dir, materialise
from spyglass.evaluation.dataset import from_swebench, load_queries


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("queries", type=Path)
    ap.add_argument("instance")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("-k", type=int, default=15)
    ap.add_argument("--no-embed", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        queries = load_queries(args.queries)
    except ValueError:
        queries = from_swebench(args.queries, only_locagent_274=False)
    q = next((q for q in queries if q.id == args.instance), None)
    if q is None:
        sys.exit(f"no query {args.instance!r} in {args.queries}")
    folder = args.work / (q.repo or "corpus").replace("/", "+")
    git_dir = find_git_dir(q.repo or "", None)
    if git_dir is not None and q.commit:
        materialise(git_dir, q.commit, folder)
    gold = {g.path for g in q.gold}
    sys.stderr.write(f"gold: {[f'{g.path}:{g.symbol}' for g in q.gold]}\n")
    with Workspace.open(folder, writer=True, overrides={"embed": False} if args.no_embed else {}) as ws:
        ws.index()
        result = ws.search(q.query, k=300, cut=False)
    files: list[str] = []
    for i, hit in enumerate(result.results):
        if hit.path not in files:
            files.append(hit.path)
        mark = "*" if hit.path in gold else " "
        if i < args.k or hit.path in gold and files.index(hit.path) < 30:
            sig = " ".join(f"{k}={v:.2f}" for k, v in hit.why.signals.items())
            sys.stderr.write(f"{i + 1:3} {mark} {hit.score:.3f} {hit.path}:{hit.symbol} [{sig}]\n")
    ranks = [files.index(g) + 1 for g in gold if g in files]
    sys.stderr.write(f"gold file rank: {min(ranks) if ranks else None} of {len(files)} files\n")


if __name__ == "__main__":
    main()
