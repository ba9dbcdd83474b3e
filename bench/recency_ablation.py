"""Does recency help code search? (issue 22; a benchmark, not a test; docs/quality.md "Recency").

    python bench/recency_ablation.py REPO [REPO ...] --work DIR [--limit 25] [--out report.json] [--lexical]
    python bench/recency_ablation.py --queries FILE.jsonl --names flask,sphinx --work DIR   # e.g. SWE-bench Lite

Each REPO is a git clone. Its newest ``--limit`` bug-fix commits become queries as ``spyglass eval
history`` makes them (query: the commit message; gold: the files it changed, narrowed to definitions; the
tree at the fix's parent). The index of that tree holds the repository's history up to the parent, not
after. Every query is searched with no recency (the default, "spyglass") and with each variant below, on
the same index, beside the same-run BM25 control; the report has each system's file and function metrics
overall and per repository.

The split is fixed before looking: variants are chosen on the repositories given with ``--tune`` and
confirmed on the others.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from spyglass.engine.search.config import DEFAULT_RANKING  # noqa: E402
from spyglass.evaluation.corpus import git_dir_of  # noqa: E402
from spyglass.evaluation.dataset import load_any  # noqa: E402
from spyglass.evaluation.history import from_history  # noqa: E402
from spyglass.evaluation.metrics import InstanceScore  # noqa: E402
from spyglass.evaluation.report import aggregate  # noqa: E402
from spyglass.evaluation.runner import EvalConfig, run  # noqa: E402

VARIANTS = {
    "weighted 0.05": replace(DEFAULT_RANKING, recency=0.05),
    "weighted 0.1": replace(DEFAULT_RANKING, recency=0.1),
    "weighted 0.2": replace(DEFAULT_RANKING, recency=0.2),
    "weighted 0.4": replace(DEFAULT_RANKING, recency=0.4),
    "rrf 0.5": replace(DEFAULT_RANKING, recency=0.5, recency_fusion="rrf"),
    "rrf 1": replace(DEFAULT_RANKING, recency=1.0, recency_fusion="rrf"),
    "adaptive 0.2": replace(DEFAULT_RANKING, recency=0.2, recency_words_only=True),
    "rrf 0.25": replace(DEFAULT_RANKING, recency=0.25, recency_fusion="rrf"),
    "rrf 0.5 spares names": replace(DEFAULT_RANKING, recency=0.5, recency_fusion="rrf", recency_spares_names=True),
    "rrf 0.5 words only": replace(DEFAULT_RANKING, recency=0.5, recency_fusion="rrf", recency_words_only=True),
}
SHOWN = ("file_acc@1", "file_acc@5", "file_mrr", "function_acc@10")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="*", type=Path)
    ap.add_argument("--queries", type=Path, help="a query set instead (each query's repository at its commit)")
    ap.add_argument("--names", default="", help="with --queries: the repositories to keep (comma-separated)")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=25)
    ap.add_argument("--tune", nargs="*", default=[], help="names of the tuning repositories (folder names)")
    ap.add_argument("--lexical", action="store_true", help="no model (a quick check of the pipeline)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    queries = []
    if args.queries:
        keep = {n.strip() for n in args.names.split(",") if n.strip()} or None
        queries = load_any(args.queries, keep, set())
    for repo in args.repos:
        git_dir = git_dir_of(repo.resolve())
        if git_dir is None:
            raise SystemExit(f"{repo} is not a git repository")
        found = from_history(git_dir, str(repo.resolve()), limit=args.limit)
        print(f"{repo.name}: {len(found)} queries", file=sys.stderr)
        queries += found
    config = EvalConfig(work=args.work, overrides={"embed": False} if args.lexical else {})

    def progress(done, total, q, _scores) -> None:
        print(f"[{done}/{total}] {q.id}", file=sys.stderr, flush=True)

    report = run(queries, config, on_result=progress, variants=VARIANTS)
    by_repo: dict[str, dict[str, dict]] = {}
    repo_of = {q.id: Path(q.repo).name for q in queries}  # SWE-bench's "owner/name": its name
    for system in report["systems"]:
        for name in sorted(set(repo_of.values())):
            scores = [
                InstanceScore.from_dict(qid, inst[system])
                for qid, inst in report["instances"].items()
                if repo_of.get(qid) == name and system in inst
            ]
            by_repo.setdefault(name, {})[system] = aggregate(scores)
    report["by_repo"] = by_repo
    report["split"] = {"tune": args.tune, "test": sorted(set(repo_of.values()) - set(args.tune))}
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for name, systems in by_repo.items():
        print(f"\n{name}")
        for system, agg in systems.items():
            values = "  ".join(f"{m} {_value(agg, m)}" for m in SHOWN)
            print(f"  {system:22} {values}")


def _value(agg: dict, metric: str) -> str:
    value = agg.get(metric)
    return "-" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    main()
