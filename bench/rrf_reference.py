"""A plain reciprocal-rank fusion of BM25 and the model over definitions, at function level: the reference a
function-level set's difficulty is read against (a benchmark, not a test).

    python bench/rrf_reference.py bench/behaviour_fresh3 --work /tmp/spyglass-semble [--split tune]

Issue 20's hidden set was reported against such a fusion (49% top 1, 81% top 5), so a set of our own whose
reference scores about the same is about as hard. For each query of a semble-format suite (targets with
lines), on the warm indexes ``spyglass eval semble`` built under ``--work``: the candidates the engine's
retrievers draw, definitions only (no module or line-window spans), ranked by 1/(60 + rank) summed over
the span BM25 order and the vector order, nothing else. Prints function top 1 / top 5 per half,
language, category and in all, scored as ``bench/semble_ablation.py`` scores Spyglass.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from semble_ablation import function_rank, top_shares
from spyglass.engine import Workspace
from spyglass.engine.search.filters import SearchFilters
from spyglass.engine.search.query import parse_query
from spyglass.evaluation.semble import SuiteQuery, load_suite

RRF_K = 60
FUSED = ("vector", "lexical")
NOT_DEFINITIONS = frozenset({"module", "window"})


def fused_rank(ws: Workspace, query: SuiteQuery, root: str) -> int | None:
    """The target's rank in the plain fusion (0: not among the candidates; None: the query gives no lines)."""
    searcher = ws.searcher
    parsed = parse_query(query.query)
    vectors, _ = searcher.query_vectors(parsed)
    signals, spans = searcher.gather(parsed, vectors, SearchFilters())
    definitions = {rowid: span for rowid, span in spans.items() if span.kind not in NOT_DEFINITIONS}
    score: dict[int, float] = defaultdict(float)
    ranks: dict[str, dict[int, int]] = {}
    for key in FUSED:
        order = sorted((r for r in definitions if key in signals.get(r, {})), key=lambda r: -signals[r][key])
        ranks[key] = {rowid: rank for rank, rowid in enumerate(order, 1)}
        for rowid, rank in ranks[key].items():
            score[rowid] += 1.0 / (RRF_K + rank)
    # ties (rank i by one signal only, against rank i by the other only) go to the vector, then to BM25
    last = len(definitions) + 1
    order = sorted(score, key=lambda r: (-score[r], *(ranks[key].get(r, last) for key in FUSED)))
    ranking = [definitions[r] for r in order]
    return function_rank(query, ranking, root)


def line(label: str, ranks: list[int | None]) -> str:
    found = [r for r in ranks if r is not None]
    if not found:
        return f"{label:24} n=  0"
    top1, top5 = top_shares(found)
    return f"{label:24} n={len(found):3} top1 {100 * top1:5.1f} top5 {100 * top5:5.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", type=Path, help="a folder with repos.json and queries.jsonl")
    ap.add_argument("--work", type=Path, required=True, help="the working folder of spyglass eval semble")
    ap.add_argument("--split", choices=("tune", "test", "all"), default="all")
    ap.add_argument("--out", type=Path, help="write each query's rank here (JSON)")
    args = ap.parse_args()
    suite = load_suite(args.suite)
    split = suite.split()
    groups: dict[str, list[int | None]] = defaultdict(list)
    ranks: dict[str, int | None] = {}
    for name in suite.repos_with_queries():
        if args.split != "all" and split[name] != args.split:
            continue
        repo = suite.repos[name]
        with Workspace.open(args.work / name, memory_vectors=True) as ws:
            for query in (q for q in suite.queries if q.repo == name):
                rank = ranks[query.id] = fused_rank(ws, query, repo.root)
                for group in ("all", split[name], repo.language, query.category):
                    groups[group].append(rank)
    for group in ("all", "tune", "test", *sorted({r.language for r in suite.repos.values()}), "behaviour", "name"):
        if group in groups:
            print(line(group, groups[group]))
    if args.out:
        args.out.write_text(json.dumps(ranks, indent=1))


if __name__ == "__main__":
    main()
