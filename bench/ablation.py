"""Run `spyglass eval` under several search configurations, for docs/quality.md (a benchmark, not a test).

    python bench/ablation.py QUERIES.jsonl --repos flask,... --work DIR [--only NAME ...]

Each configuration patches the fusion constants of ``spyglass.engine.search`` for its run only (its
``PRIORS`` reach the engine as the ``[search.priors]`` setting); the corpora and index in DIR are shared, so
after the first run nothing is embedded again.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from spyglass.engine import query, search
from spyglass.engine.fusion import NO_PRIORS, Priors
from spyglass.evaluation.dataset import load_any
from spyglass.evaluation.report import format_table, write_report
from spyglass.evaluation.runner import EvalConfig, run

BASE = {
    "PROFILE": search.PROFILE,
    "PRIORS": search.PRIORS,
    "FILE_HEADS": search.FILE_HEADS,
    "QUERY_VECTORS": search.QUERY_VECTORS,
    "MENTIONED_FILES": search.MENTIONED_FILES,
    "FUSION": search.FUSION,
    "GAP_CUT": search.GAP_CUT,
    "NAME_SHARING": search.NAME_SHARING,
    "USE_PHRASES": query.USE_PHRASES,
    "EXTRA_PARTS": search.EXTRA_PARTS,
    "VECTOR_SCALE": search.VECTOR_SCALE,
    "FILE_CONTEXT_SPANS": search.FILE_CONTEXT_SPANS,
    "LEXICAL_DEPTH": search.LEXICAL_DEPTH,
}


def _profile(file_context: float | None = None, **weights: float) -> dict:
    """A patch of the weight profile: some weights (both with and without vectors) changed."""
    p = BASE["PROFILE"]
    return {
        "PROFILE": dataclasses.replace(
            p,
            weights={**p.weights, **weights},
            lexical_weights={**p.lexical_weights, **{k: v for k, v in weights.items() if k != "vector"}},
            file_context=p.file_context if file_context is None else file_context,
        )
    }


SESSION_7 = {"PROFILE": dataclasses.replace(_profile(title=0.2)["PROFILE"], within_file=None)}

ONLY = {
    "vector": 0.0,
    "lexical": 0.0,
    "file": 0.0,
    "name": 0.0,
    "path": 0.0,
    "title": 0.0,
    "title_vector": 0.0,
    "file_vector": 0.0,
}
CONFIGS = {
    "current": {},
    "session 7 defaults": {**SESSION_7, "LEXICAL_DEPTH": 0},
    "session 5 defaults": {
        "PROFILE": dataclasses.replace(
            SESSION_7["PROFILE"], weights={**SESSION_7["PROFILE"].weights, "file_vector": 0.0}
        ),
        "PRIORS": Priors(tests=0.5, prose=0.5),
        "LEXICAL_DEPTH": 0,
    },
    "no file vector": _profile(file_vector=0.0),
    "priors 0.5": {"PRIORS": Priors(tests=0.5, prose=0.5)},
    "file vector 0.15": _profile(file_vector=0.15),
    "file vector 0.25": _profile(file_vector=0.25),
    "file vector 0.3": _profile(file_vector=0.3),
    "title 0.3": _profile(title=0.3),
    "title 0.4, lexical 0.25": _profile(title=0.4, lexical=0.25),
    "file context 0.2": _profile(file_context=0.2),
    "within a file by score": {"PROFILE": dataclasses.replace(BASE["PROFILE"], within_file=None)},
    "within a file like across files": {
        "PROFILE": dataclasses.replace(
            BASE["PROFILE"], within_file={"vector": 0.25, "lexical": 0.35, "name": 0.2, "title": 0.2}
        )
    },
    "vector 0.2": _profile(vector=0.2),
    "vectors relative to the best": {"VECTOR_SCALE": "relative"},
    "vectors spread over the candidates": {"VECTOR_SCALE": "spread"},
    "vectors relative, weight 0.15": {"VECTOR_SCALE": "relative", **_profile(vector=0.15)},
    "vectors relative, weight 0.2": {"VECTOR_SCALE": "relative", **_profile(vector=0.2)},
    "extra parts 0.5": {"EXTRA_PARTS": 0.5},
    "extra parts kept": {"EXTRA_PARTS": 1.0},
    "no path signal": {**_profile(path=0.0), "MENTIONED_FILES": 0},
    "no file signal": {**_profile(file=0.0), "FILE_HEADS": 0},
    "no file context": _profile(file_context=0.0),
    "file context 0.5": _profile(file_context=0.5),
    "no test prior": {"PRIORS": Priors(tests=1.0)},
    "no priors": {"PRIORS": NO_PRIORS},
    "test prior 0.5": {"PRIORS": Priors(tests=0.5)},
    "shared names weigh less": {"NAME_SHARING": True},
    "prose prior 0.7": {"PRIORS": Priors(prose=0.7)},
    "prose prior 0.35": {"PRIORS": Priors(prose=0.35)},
    "no identifier phrases": {"USE_PHRASES": False},
    "rrf fusion": {"FUSION": "rrf"},
    "BM25 only for its own pool": {"LEXICAL_DEPTH": 0},
    "BM25 only for its own pool, title 0.2": {"LEXICAL_DEPTH": 0, **_profile(title=0.2)},
    "title 0.2": _profile(title=0.2),
    "no gap cut": {"GAP_CUT": None},
    "query vectors: max over chunks": {"QUERY_VECTORS": "max"},
    "query vectors: mean of chunks": {"QUERY_VECTORS": "mean"},
    "no title signal": _profile(title=0.0),
    "title signal 0.15": _profile(title=0.15),
    "title signal 0.3": _profile(title=0.3),
    "title 0.15, title vector 0.15": _profile(title=0.15, title_vector=0.15),
    "title 0.15, title vector 0.3": _profile(title=0.15, title_vector=0.3),
    "vector 0.45": _profile(vector=0.45),
    "vector 0.15": _profile(vector=0.15),
    "vectors only": {**_profile(0.0, **{**ONLY, "vector": 1.0}), "FILE_HEADS": 0, "MENTIONED_FILES": 0},
    "lexical only": {**_profile(0.0, **{**ONLY, "lexical": 1.0}), "FILE_HEADS": 0, "MENTIONED_FILES": 0},
    "file signal only": _profile(0.0, **{**ONLY, "file": 1.0}),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("queries", type=Path)
    ap.add_argument("--repos", default="")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--out", type=Path, help="folder for one JSON report per configuration")
    ap.add_argument("--no-embed", action="store_true", help="lexical signals only")
    ap.add_argument("--query-part", choices=("full", "title"), default="full", help="title: first lines only")
    args = ap.parse_args()
    repos = {r for r in args.repos.split(",") if r} or None
    queries = load_any(args.queries, repos)
    rows = {}
    for name, patch in CONFIGS.items():
        if args.only and name not in args.only:
            continue
        for key, value in {**BASE, **patch}.items():
            setattr(search if hasattr(search, key) else query, key, value)
        overrides = {"embed": False} if args.no_embed else {}
        overrides["search"] = {"priors": {"tests": search.PRIORS.tests, "prose": search.PRIORS.prose}}
        report = run(queries, EvalConfig(work=args.work.resolve(), overrides=overrides, query_part=args.query_part))
        rows[name] = report["systems"]["spyglass"]
        rows.setdefault("bm25 control", report["systems"]["bm25 control"])
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            write_report(args.out / f"{name.replace(' ', '_').replace('/', '-')}.json", report)
        print(json.dumps({name: rows[name]}), flush=True)
    print(format_table(rows))


if __name__ == "__main__":
    main()
