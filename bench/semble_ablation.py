"""Search configurations on the semble suite's warm indexes, for issue 20's tuning (a benchmark, not a test).

    python bench/semble_ablation.py ../shared/bench/semble --work /tmp/spyglass-semble [--split tune] \
        [--only NAME ...] [--out DIR]

Reads the indexes ``spyglass eval semble`` built under ``--work`` (run it first; nothing is indexed here)
and runs every query of the chosen repositories under each RankingConfig below, scored as
``spyglass eval semble`` scores its *Spyglass* system (the whole ranking rolled up to files, NDCG@10).
Prints one line per configuration: the mean over repositories of each half and of all, and per category.
Tune with ``--split tune``; a configuration is kept only if ``--split test`` does not fall.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import replace
from pathlib import Path

from spyglass.cli.evaluate import _overrides
from spyglass.engine import Workspace
from spyglass.engine.search import DEFAULT_RANKING, TIERS, RankingConfig
from spyglass.evaluation.semble import (
    NDCG_KEY,
    SuiteQuery,
    is_definition,
    load_suite,
    rank_files,
    score,
    summarise,
)

BASE = DEFAULT_RANKING
TIER = "balanced"  # --tier: the search tier every configuration runs
SPANS = 200  # the ranking read per query (spyglass eval semble's default)


def _weights(base: RankingConfig = BASE, **weights: float) -> RankingConfig:
    return replace(base, weights={**base.weights, **weights})


def _files(**weights: float) -> RankingConfig:
    """The defaults with the file ranking's extra weights changed."""
    return replace(BASE, file_weights={**BASE.file_weights, **weights})


def _within(**weights: float) -> RankingConfig:
    """The defaults with the weights that order a file's spans for a description in words changed."""
    return replace(BASE, words_within_file={**BASE.words_within_file, **weights})


# issue 20's changes, each switched off alone (docs/quality.md, "Issue 20: short queries")
CONFIGS: dict[str, RankingConfig] = {
    "current": BASE,
    "no containers last": replace(BASE, containers_last=False),
    "no file stem (files)": replace(BASE, file_weights={}),
    "file stem 0.05": _files(stem=0.05),
    "file stem 0.2": _files(stem=0.2),
    "no word forms": replace(BASE, word_forms=False),
    "no lexical coverage": replace(BASE, lexical_coverage=False),
    "case-only names 0.4": replace(BASE, case_only_name=0.4),
    "no spelled names": replace(BASE, spelled_names=False),
    "no capitalised names": replace(BASE, capitalised_names=False),
    "no other naming conventions": replace(BASE, other_conventions=False),
    "no type members": replace(BASE, type_members=False),
    "no names holding the query": replace(BASE, names_holding_the_query=False),
    "no acronyms": replace(BASE, acronyms=False),
    "words: types in a file as other spans": replace(BASE, words_data=1.0),
    "words: spans weigh their file's similarity": replace(BASE, words_span_weights={}),
    "no frame weights": replace(BASE, frame_weights=False),
    "no words weights": replace(BASE, words_weights={}),
    "words: whole files as for other queries": replace(
        BASE, words_weights={"vector": 0.35, "lexical": 0.25}, words_file_context=BASE.file_context
    ),
    "no words code first": replace(BASE, words_code_first=False),
    "words: no short code below": replace(BASE, words_short_code=(0, 0.0)),
    **{
        f"words: short code {n} lines ^{p}": replace(BASE, words_short_code=(n, p))
        for n in (10, 15, 20, 25)
        for p in (0.1, 0.2, 0.3)
    },
    "no words order within a file": replace(BASE, words_within_file=BASE.within_file),
    "fast words: whole files as for other queries": replace(BASE, lexical_words_weights={}),  # with --tier fast
    "words within a file: vector 0.45": _within(vector=0.45),
    "words within a file: vector 0.8": _within(vector=0.8),
    "no named first": replace(BASE, beside_the_named=1.0),
    "no older versions below": replace(BASE, older_version=1.0),
    "no example prior": replace(BASE, priors=replace(BASE.priors, examples=1.0)),
    "example prior 0.5": replace(BASE, priors=replace(BASE.priors, examples=0.5)),
    # the deep tier's parts (run with --tier deep)
    "deep: no second pass": replace(BASE, rewrite_names=0),
    "deep: no wider pool": replace(BASE, deep_pool=1),
    "deep: second pass 0.5": replace(BASE, rewrite_weight=0.5),
    "deep: one name": replace(BASE, rewrite_names=1),
    # the fast tier's depth (run with --tier fast)
    "lexical depth 300": replace(BASE, lexical_depth=300),
    "lexical depth 300, no word forms": replace(BASE, lexical_depth=300, word_forms=False),
}


def function_rank(q: SuiteQuery, spans: list, prefix: str) -> int | None:
    """The 1-based rank of the first span that is a target definition (for queries whose targets all have
    lines): the same file, and the lines it shares with the target are at least half of each (a class
    around the function, or a closure inside it, is not it); None when no span is."""
    if not q.targets or not all(t.has_lines for t in q.targets):
        return None
    for i, s in enumerate(spans, 1):
        path = f"{prefix}/{s.path}" if prefix else s.path
        if any(is_definition(t, path, s.start_line, s.end_line) for t in q.targets):
            return i
    return 0  # not found


def top_shares(ranks: list[int]) -> tuple[float, float]:
    """The shares of ``ranks`` (function ranks; 0: not found) that are 1, and that are at most 5."""
    return sum(1 for r in ranks if r == 1) / len(ranks), sum(1 for r in ranks if 1 <= r <= 5) / len(ranks)


def run(
    suite_dir: Path, work: Path, names: list[str], configs: dict[str, RankingConfig], overrides: dict | None = None
) -> dict[str, dict]:
    suite = load_suite(suite_dir)
    scores: dict[str, dict[str, float]] = {name: {} for name in configs}
    firsts: dict[str, dict[str, int | None]] = {name: {} for name in configs}
    functions: dict[str, dict[str, int | None]] = {name: {} for name in configs}
    for repo_name in names:
        repo = suite.repos[repo_name]
        folder = work / repo_name
        if not (folder / ".spyglass").exists() and not folder.is_dir():
            print(f"{repo_name}: no index under {folder}; run spyglass eval semble first", file=sys.stderr)
            continue
        items = [q for q in suite.queries if q.repo == repo_name]
        with Workspace.open(folder, memory_vectors=True, overrides=overrides or {}) as ws:
            for name, config in configs.items():
                ws.searcher.config = config
                for q in items:
                    ranking = ws.search(q.query, k=SPANS, cut=False, per_file=1, tier=TIER).results  # files
                    s = score(q, rank_files(ranking, repo.root))
                    ranking = ws.search(q.query, k=SPANS, cut=False, tier=TIER).results  # spans
                    scores[name][q.id] = s.values[NDCG_KEY] or 0.0
                    firsts[name][q.id] = s.file_rank
                    functions[name][q.id] = function_rank(q, ranking, repo.root)
    out = {}
    for name in configs:
        qs = [q for q in suite.queries if q.id in scores[name]]
        out[name] = {
            "summary": summarise(qs, suite.repos, scores[name]),
            "first": firsts[name],
            "ndcg": scores[name],
            "function_rank": functions[name],
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", type=Path)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--split", choices=("tune", "test", "all"), default="tune")
    ap.add_argument("--repos", default="", help="comma-separated; default: every indexed one of the split")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--out", type=Path, help="a JSON file with every configuration's per-query figures")
    ap.add_argument("--tier", choices=TIERS, default="balanced", help="the search tier every configuration runs")
    ap.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="an engine setting, as the index had"
    )
    args = ap.parse_args()
    global TIER
    TIER = args.tier
    logging.basicConfig(level=logging.WARNING)
    suite = load_suite(args.suite)
    split = suite.split()
    names = [r for r in args.repos.split(",") if r] or [
        n for n in suite.repos_with_queries() if args.split in ("all", split[n]) and (args.work / n).is_dir()
    ]
    configs = {n: c for n, c in CONFIGS.items() if not args.only or n in args.only}
    results = run(args.suite, args.work, names, configs, _overrides(args.set, no_embed=False))
    categories = {q.id: q.category for q in suite.queries}
    for name, r in results.items():
        s = r["summary"]
        ranks = {k: v for k, v in r["function_rank"].items() if v is not None}
        if ranks:  # function-level: top 1 and top 5 per half and category
            for label, keep in [
                ("tune", lambda k: split[k.rsplit("-", 1)[0]] == "tune"),
                ("test", lambda k: split[k.rsplit("-", 1)[0]] == "test"),
                *[(c, lambda k, c=c: categories[k] == c) for c in sorted(set(categories[k] for k in ranks))],
            ]:
                vals = [v for k, v in ranks.items() if keep(k)]
                if vals:
                    top1, top5 = top_shares(vals)
                    print(f"{name:40s} function {label:10s} n={len(vals):3d} top1 {top1:.3f} top5 {top5:.3f}")
        halves = {}
        for half in ("tune", "test"):
            vals = [v for repo, v in s["by_repo"].items() if split[repo] == half and v is not None]
            halves[half] = round(sum(vals) / len(vals), 4) if vals else None
        print(
            f"{name:40s} all {s[NDCG_KEY]:.4f}  tune {halves['tune']}  test {halves['test']}  "
            + "  ".join(f"{c} {v:.3f}" for c, v in s["by_category"].items()),
            flush=True,
        )
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
