"""Run `spyglass eval` under several search configurations, for docs/quality.md (a benchmark, not a test).

    python bench/ablation.py QUERIES.jsonl --repos flask,... --work DIR [--only NAME ...] [--together]

Each configuration is a RankingConfig (``dataclasses.replace`` of the defaults) that the evaluation's
searcher uses for its run; the corpora and index in DIR are shared, so after the first run nothing is
embedded again. Alternatives that docs/quality.md records as worse and whose switches were removed (RRF
fusion, rescaled or chunked query vectors, identifier phrases off, shared names, extra parts kept) are
no longer configurations.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from spyglass.engine.search import DEFAULT_RANKING, NO_PRIORS, Priors, RankingConfig
from spyglass.evaluation.dataset import EvalQuery, load_any
from spyglass.evaluation.report import format_table, write_report
from spyglass.evaluation.runner import EvalConfig, run

BASE = DEFAULT_RANKING


def _weights(base: RankingConfig = BASE, file_context: float | None = None, **weights: float) -> RankingConfig:
    """``base`` with some weights (both with and without vectors) changed."""
    return replace(
        base,
        weights={**base.weights, **weights},
        lexical_weights={**base.lexical_weights, **{k: v for k, v in weights.items() if k != "vector"}},
        file_context=base.file_context if file_context is None else file_context,
    )


SESSION_7 = replace(_weights(title=0.2), within_file=None)

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
CONFIGS: dict[str, RankingConfig] = {
    "current": BASE,
    "no containers last": replace(BASE, containers_last=False),
    "no frame weights": replace(BASE, frame_weights=False),
    "no older versions": replace(BASE, older_version=1.0),
    "no examples prior": replace(BASE, priors=replace(BASE.priors, examples=1.0)),
    "no declarations prior": replace(BASE, priors=replace(BASE.priors, declarations=1.0)),
    "no words order within a file": replace(BASE, words_within_file=BASE.within_file),
    "session 7 defaults": replace(SESSION_7, lexical_depth=0),
    "session 5 defaults": replace(
        SESSION_7,
        weights={**SESSION_7.weights, "file_vector": 0.0},
        priors=Priors(tests=0.5, prose=0.5),
        lexical_depth=0,
    ),
    "no file vector": _weights(file_vector=0.0),
    "priors 0.5": replace(BASE, priors=Priors(tests=0.5, prose=0.5)),
    "file vector 0.15": _weights(file_vector=0.15),
    "file vector 0.25": _weights(file_vector=0.25),
    "file vector 0.3": _weights(file_vector=0.3),
    "title 0.3": _weights(title=0.3),
    "title 0.4, lexical 0.25": _weights(title=0.4, lexical=0.25),
    "file context 0.2": _weights(file_context=0.2),
    "within a file by score": replace(BASE, within_file=None),
    "within a file like across files": replace(
        BASE, within_file={"vector": 0.25, "lexical": 0.35, "name": 0.2, "title": 0.2}
    ),
    "vector 0.2": _weights(vector=0.2),
    "no path signal": replace(_weights(path=0.0), mentioned_files=0),
    "no file signal": replace(_weights(file=0.0), file_heads=0),
    "no file context": _weights(file_context=0.0),
    "file context 0.5": _weights(file_context=0.5),
    "no test prior": replace(BASE, priors=Priors(tests=1.0)),
    "no priors": replace(BASE, priors=NO_PRIORS),
    "test prior 0.5": replace(BASE, priors=Priors(tests=0.5)),
    "prose prior 0.7": replace(BASE, priors=Priors(prose=0.7)),
    "prose prior 0.35": replace(BASE, priors=Priors(prose=0.35)),
    "BM25 only for its own pool": replace(BASE, lexical_depth=0),
    "BM25 only for its own pool, title 0.2": replace(_weights(title=0.2), lexical_depth=0),
    "title 0.2": _weights(title=0.2),
    "no gap cut": replace(BASE, gap_cut=None),
    "no title signal": _weights(title=0.0),
    "title signal 0.15": _weights(title=0.15),
    "title signal 0.3": _weights(title=0.3),
    "title 0.15, title vector 0.15": _weights(title=0.15, title_vector=0.15),
    "title 0.15, title vector 0.3": _weights(title=0.15, title_vector=0.3),
    "vector 0.45": _weights(vector=0.45),
    "vector 0.15": _weights(vector=0.15),
    "vectors only": replace(_weights(BASE, 0.0, **{**ONLY, "vector": 1.0}), file_heads=0, mentioned_files=0),
    "lexical only": replace(_weights(BASE, 0.0, **{**ONLY, "lexical": 1.0}), file_heads=0, mentioned_files=0),
    "file signal only": _weights(BASE, 0.0, **{**ONLY, "file": 1.0}),
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
    ap.add_argument(
        "--together",
        action="store_true",
        help="score every configuration in one pass over the commits (each query is indexed once, not once "
        "per configuration); the report is written as together.json",
    )
    args = ap.parse_args()
    repos = {r for r in args.repos.split(",") if r} or None
    queries = load_any(args.queries, repos)
    if args.together:
        _together(queries, args)
        return
    rows = {}
    for name, ranking in CONFIGS.items():
        if args.only and name not in args.only:
            continue
        report = run(queries, _eval_config(args), ranking=ranking)
        rows[name] = report["systems"]["spyglass"]
        rows.setdefault("bm25 control", report["systems"]["bm25 control"])
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            write_report(args.out / f"{name.replace(' ', '_').replace('/', '-')}.json", report)
        print(json.dumps({name: rows[name]}), flush=True)
    print(format_table(rows))


def _eval_config(args: argparse.Namespace) -> EvalConfig:
    overrides = {"embed": False} if args.no_embed else {}
    return EvalConfig(work=args.work.resolve(), overrides=overrides, query_part=args.query_part)


def _together(queries: list[EvalQuery], args: argparse.Namespace) -> None:
    """One run: the defaults as "spyglass", every other chosen configuration as the variant "spyglass NAME"."""
    names = [n for n in CONFIGS if n != "current" and (not args.only or n in args.only)]

    def progress(done: int, total: int, q: EvalQuery, scores: dict) -> None:
        print(f"[{done}/{total}] {q.id}: first gold file at rank {scores['spyglass'].file_rank}", flush=True)

    report = run(queries, _eval_config(args), on_result=progress, variants={n: CONFIGS[n] for n in names})
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        write_report(args.out / "together.json", report)
    for instance, systems in report["instances"].items():  # where each configuration put the first gold file
        ranks = {name: values.get("file_rank") for name, values in systems.items()}
        print(instance, json.dumps(ranks), flush=True)
    print(format_table(report["systems"]))


if __name__ == "__main__":
    main()
