"""Run `spyglass eval` under several search configurations, for docs/quality.md (a benchmark, not a test).

    python bench/ablation.py QUERIES.jsonl --repos flask,... --work DIR [--only NAME ...]

Each configuration patches the fusion constants of ``spyglass.engine.search`` for its run only; the
corpora and index in DIR are shared, so after the first run nothing is embedded again.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from spyglass.engine import query, search
from spyglass.evaluation.dataset import from_swebench
from spyglass.evaluation.report import format_table, write_report
from spyglass.evaluation.runner import EvalConfig, run

BASE = {
    "WEIGHTS": dict(search.WEIGHTS),
    "LEXICAL_ONLY_WEIGHTS": dict(search.LEXICAL_ONLY_WEIGHTS),
    "TEST_PRIOR": search.TEST_PRIOR,
    "FILE_HEADS": search.FILE_HEADS,
    "PROSE_PRIOR": search.PROSE_PRIOR,
    "QUERY_VECTORS": search.QUERY_VECTORS,
    "MENTIONED_FILES": search.MENTIONED_FILES,
    "FILE_CONTEXT": search.FILE_CONTEXT,
    "FUSION": search.FUSION,
    "RELATIVE_FLOOR": search.RELATIVE_FLOOR,
    "USE_PHRASES": query.USE_PHRASES,
}
NO_PATH = {**search.WEIGHTS, "path": 0.0}
CONFIGS = {
    "current": {},
    "no file signal": {
        "WEIGHTS": {"vector": 0.55, "lexical": 0.30, "file": 0.0, "name": 0.15},
        "LEXICAL_ONLY_WEIGHTS": {"vector": 0.0, "lexical": 0.70, "file": 0.0, "name": 0.30},
        "FILE_HEADS": 0,
    },
    "no test prior": {"TEST_PRIOR": 1.0},
    "no path signal": {"WEIGHTS": NO_PATH, "MENTIONED_FILES": 0},
    "query vectors: max over chunks": {"QUERY_VECTORS": "max"},
    "query vectors: mean of chunks": {"QUERY_VECTORS": "mean"},
    "file context 0.3": {"FILE_CONTEXT": 0.3},
    "file context 0.5": {"FILE_CONTEXT": 0.5},
    "rrf fusion": {"FUSION": "rrf"},
    "no identifier phrases": {"USE_PHRASES": False},
    "prose prior 0.5": {"PROSE_PRIOR": 0.5},
    "title signal 0.15": {
        "WEIGHTS": {**search.WEIGHTS, "title": 0.15},
        "LEXICAL_ONLY_WEIGHTS": {**search.LEXICAL_ONLY_WEIGHTS, "title": 0.15},
    },
    "title signal 0.3": {
        "WEIGHTS": {**search.WEIGHTS, "title": 0.3},
        "LEXICAL_ONLY_WEIGHTS": {**search.LEXICAL_ONLY_WEIGHTS, "title": 0.3},
    },
    "prose prior 0.35": {"PROSE_PRIOR": 0.35},
    "prose prior 0.7": {"PROSE_PRIOR": 0.7},
    "prose 0.7, tests 0.7": {"PROSE_PRIOR": 0.7, "TEST_PRIOR": 0.7},
    "prose 0.7, tests 0.7, no file signal": {
        "PROSE_PRIOR": 0.7,
        "TEST_PRIOR": 0.7,
        "WEIGHTS": {"vector": 0.55, "lexical": 0.30, "file": 0.0, "name": 0.15},
        "LEXICAL_ONLY_WEIGHTS": {"vector": 0.0, "lexical": 0.70, "file": 0.0, "name": 0.30},
        "FILE_HEADS": 0,
    },
    "vector weight 0.45": {"WEIGHTS": {"vector": 0.45, "lexical": 0.25, "file": 0.15, "name": 0.15}},
    "vector weight 0.15": {"WEIGHTS": {"vector": 0.15, "lexical": 0.40, "file": 0.22, "name": 0.23}},
    "vectors only": {"WEIGHTS": {"vector": 1.0, "lexical": 0.0, "file": 0.0, "name": 0.0}, "FILE_HEADS": 0},
    "lexical only": {"WEIGHTS": {"vector": 0.0, "lexical": 1.0, "file": 0.0, "name": 0.0}, "FILE_HEADS": 0},
    "file signal only": {
        "WEIGHTS": {"vector": 0.0, "lexical": 0.0, "file": 1.0, "name": 0.0},
        "LEXICAL_ONLY_WEIGHTS": {"vector": 0.0, "lexical": 0.0, "file": 1.0, "name": 0.0},
    },
    "file-heavy": {
        "WEIGHTS": {"vector": 0.35, "lexical": 0.15, "file": 0.40, "name": 0.10},
        "LEXICAL_ONLY_WEIGHTS": {"vector": 0.0, "lexical": 0.25, "file": 0.60, "name": 0.15},
    },
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("queries", type=Path)
    ap.add_argument("--repos", default="")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--out", type=Path, help="folder for one JSON report per configuration")
    ap.add_argument("--no-embed", action="store_true", help="lexical signals only")
    args = ap.parse_args()
    repos = {r for r in args.repos.split(",") if r} or None
    queries = from_swebench(args.queries, repos=repos)
    rows = {}
    for name, patch in CONFIGS.items():
        if args.only and name not in args.only:
            continue
        for key, value in {**BASE, **patch}.items():
            setattr(search if hasattr(search, key) else query, key, value)
        overrides = {"embed": False} if args.no_embed else {}
        report = run(queries, EvalConfig(work=args.work.resolve(), overrides=overrides))
        rows[name] = report["systems"]["spyglass"]
        rows.setdefault("bm25 control", report["systems"]["bm25 control"])
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            write_report(args.out / f"{name.replace(' ', '_')}.json", report)
        print(json.dumps({name: rows[name]}), flush=True)
    print(format_table(rows))


if __name__ == "__main__":
    main()
