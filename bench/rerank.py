"""Try ranking choices in seconds: gather every query's candidates once, then re-rank them offline.

    # 1. gather: index each query's corpus (as `spyglass eval run` does) and save every candidate span with
    #    its signals (vector, lexical, title, file, name, path, file_vector) to a pickle
    python bench/rerank.py gather ../shared/bench/swebench/swebench_lite_all_gold.jsonl \
        --repos flask,requests,pytest,seaborn,xarray,pylint,sphinx --work /tmp/spyglass-eval --out tuning.pkl
    # 2. rank: re-rank the saved candidates under configurations of bench/ablation.py (weights, priors,
    #    file context: whatever `ranking.rank` reads) and print file/module/function Acc@k and MRR
    python bench/rerank.py rank tuning.pkl heldout.pkl --only current --only "title 0.4, lexical 0.25"

A configuration that changes how candidates are gathered (file_heads, lexical_depth, ...: GATHER_ONLY)
needs a new `gather` (which records those settings) or a full `bench/ablation.py` run. The ranking figures
equal those of `spyglass eval` on the same corpora (same code: `ranking.rank`); the answer-shape figures
(tokens, cut) are not computed here.
A benchmark tool, not a test.
"""

from __future__ import annotations

import argparse
import logging
import pickle
import sys
from pathlib import Path

from ablation import CONFIGS
from spyglass.engine.search import RankingConfig, SearchFilters
from spyglass.engine.search.query import parse_query
from spyglass.engine.search.ranking import rank as rank_candidates
from spyglass.engine.workspace import Workspace
from spyglass.evaluation.corpus import materialise
from spyglass.evaluation.dataset import ids_in, load_any
from spyglass.evaluation.metrics import RetrievedSpan, aggregate, score_instance
from spyglass.evaluation.report import format_table
from spyglass.evaluation.runner import EvalConfig, _groups, query_text

GATHER_ONLY = ("candidates", "file_heads", "mentioned_files", "lexical_depth", "common_term_fraction")


def _gather_settings(config: RankingConfig) -> dict:
    return {key: getattr(config, key) for key in GATHER_ONLY}


def gather(args: argparse.Namespace) -> None:
    repos = {r for r in args.repos.split(",") if r} or None
    queries = load_any(args.queries, repos, ids_in(args.exclude))
    out = {}
    for folder, git_dir, items in _groups(queries, EvalConfig(work=args.work.resolve())):
        folder.mkdir(parents=True, exist_ok=True)
        with Workspace.open(folder, writer=True, memory_vectors=True) as ws:
            for q in items:
                materialise(git_dir, q.commit or "", folder)
                ws.index()
                searcher = ws.searcher
                parsed = parse_query(query_text(q.query, args.query_part))
                short = len(parsed.terms) <= searcher.config.short_query_terms
                vectors, _ = searcher.query_vectors(parsed)
                signals, spans = searcher.gather(parsed, vectors, SearchFilters(), every_signal=True)
                out[q.id] = {
                    "signals": signals,
                    "spans": spans,
                    "terms": list(parsed.terms),
                    "short": short,
                    "with_vectors": bool(vectors),
                    "gold": q.gold,
                    "gathered_with": _gather_settings(searcher.config),
                }
                print(f"{len(out)}/{len(queries)} {q.id}: {len(signals)} candidates", file=sys.stderr, flush=True)
    args.out.write_bytes(pickle.dumps(out))


def rank(args: argparse.Namespace) -> None:
    data: dict = {}
    for path in args.candidates:
        data.update(pickle.loads(path.read_bytes()))
    gathered = [d.get("gathered_with") for d in data.values()]
    if None in gathered:
        sys.exit("these candidates were saved by an older gather that did not record its settings: gather again")
    rows = {}
    for name, config in CONFIGS.items():
        if args.only and name not in args.only:
            continue
        if any(settings != _gather_settings(config) for settings in gathered):
            print(f"skipped {name!r}: the candidates were gathered with other settings", file=sys.stderr)
            continue
        scores = []
        for iid, d in data.items():
            signals = {rowid: dict(sig) for rowid, sig in d["signals"].items()}
            scored = rank_candidates(
                signals, d["spans"], config, with_vectors=d["with_vectors"], terms=d["terms"], short=d["short"]
            )
            hits = [RetrievedSpan(span.path, span.qualname, span.kind) for _, span in scored[: args.k]]
            scores.append(score_instance(iid, d["gold"], hits))
        rows[name] = aggregate(scores)
    print(format_table(rows))


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gather", help="index each query's corpus and save its candidates with their signals")
    g.add_argument("queries", type=Path, help="queries: our JSONL or a SWE-bench gold file (Lite or Verified)")
    g.add_argument("--repos", default="")
    g.add_argument("--exclude", type=Path, action="append", default=[], help="leave out the ids of this file")
    g.add_argument("--work", type=Path, required=True)
    g.add_argument("--query-part", choices=("full", "title"), default="full")
    g.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("rank", help="re-rank saved candidates under bench/ablation.py configurations")
    r.add_argument("candidates", type=Path, nargs="+", help="pickles written by gather (merged)")
    r.add_argument("--only", action="append", default=[])
    r.add_argument("-k", type=int, default=50, help="spans ranked per query, as in spyglass eval")
    args = ap.parse_args()
    gather(args) if args.command == "gather" else rank(args)


if __name__ == "__main__":
    main()
