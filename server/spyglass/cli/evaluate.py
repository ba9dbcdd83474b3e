"""``spyglass eval``: measure retrieval quality on queries with known answers (docs/quality.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pydantic import ValidationError

from ..engine import Settings
from ..evaluation.corpus import MaterialiseError, find_git_dir, is_path
from ..evaluation.dataset import EvalQuery, ids_in, load_any, save_queries
from ..evaluation.history import from_history
from ..evaluation.report import (
    PUBLISHED_LITE_274,
    compare,
    format_table,
    load_report,
    merge_systems,
    write_report,
)
from ..evaluation.runner import EvalConfig, run
from ..evaluation.semble import SYSTEMS, SuiteConfig, SuiteError, SuiteQuery, format_suite_table, load_suite, run_suite
from . import render
from .errors import UsageError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="measure retrieval quality (Acc@k, MRR, nDCG) against a BM25 control")
    actions = p.add_subparsers(dest="eval_command", required=True, metavar="ACTION")

    r = actions.add_parser("run", help="index the corpora, run every query, print and save a report")
    r.add_argument("queries", type=Path, help="JSONL of queries with gold locations (ours or SWE-bench's)")
    r.add_argument("--work", type=Path, default=Path(".spyglass-eval"), help="where corpora are materialised")
    r.add_argument("--corpus", type=Path, help="the folder for queries that name no repository")
    r.add_argument("--mirrors", type=Path, help="folder of fetched git snapshots (<owner>+<name>/repo)")
    r.add_argument("--repos", default="", help="comma-separated repositories to keep (SWE-bench: flask,sphinx)")
    r.add_argument("--limit", type=int, default=0, help="at most this many queries")
    r.add_argument(
        "--exclude",
        type=Path,
        action="append",
        default=[],
        metavar="QUERIES",
        help="leave out queries whose id is in this file (e.g. SWE-bench Verified minus Lite; repeatable)",
    )
    r.add_argument("-k", type=int, default=50, help="spans retrieved per query (default 50)")
    r.add_argument("--no-embed", action="store_true", help="lexical search only")
    r.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an engine setting for this run, e.g. embed_text=summary or embed_max_tokens=128 (repeatable)",
    )
    r.add_argument(
        "--query-part",
        choices=("full", "title"),
        default="full",
        help="search with the whole query (default) or only its first line: short queries with the same gold",
    )
    r.add_argument("--out", type=Path, help="write the JSON report here")
    r.add_argument("--published", action="store_true", help="add the published Lite-274 rows to the table")

    s = actions.add_parser(
        "semble",
        help="the semble suite: file NDCG@10 per repository, language and category, beside BM25 and semble's own",
    )
    s.add_argument("suite", type=Path, help="the suite folder (repos.json, queries.jsonl, published-semble.json)")
    s.add_argument("--repos", default="", help="comma-separated repository names (default: every one with queries)")
    s.add_argument(
        "--split",
        choices=("tune", "test"),
        help="only that half of the fixed tune/test split (every third repository by name is 'test')",
    )
    s.add_argument("--work", type=Path, default=Path(".spyglass-eval"), help="where corpora are materialised")
    s.add_argument("--mirrors", type=Path, help="folder of fetched git snapshots (<owner>+<name>/repo)")
    s.add_argument("--no-embed", action="store_true", help="lexical search only")
    s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an engine setting (repeatable)")
    s.add_argument("--out", type=Path, help="write the JSON report here")

    t = actions.add_parser("table", help="print saved reports as one Markdown table")
    t.add_argument("reports", type=Path, nargs="+")
    t.add_argument("--merge", action="store_true", help="also each system over every report's instances together")
    t.add_argument("--published", action="store_true", help="add the published Lite-274 rows to the table")

    h = actions.add_parser(
        "history",
        help="make queries from a git repository's bug-fix commits (any language): message -> changed code",
    )
    h.add_argument(
        "repo",
        help="a path to any git repository (clone, bare or worktree), or owner/name of a snapshot under --mirrors",
    )
    h.add_argument("--out", type=Path, required=True, help="write the queries here (JSONL, our format)")
    h.add_argument("--mirrors", type=Path, help="folder of fetched git snapshots (<owner>+<name>/repo)")
    h.add_argument("--limit", type=int, default=40, help="the newest this many fix commits (default 40)")
    h.add_argument("--max-files", type=int, default=3, help="skip fixes touching more source files (default 3)")
    h.add_argument("--ref", default="HEAD", help="walk the history from here (default HEAD)")

    c = actions.add_parser("compare", help="what changed between two reports, per metric and per query")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)


def _overrides(pairs: list[str], no_embed: bool) -> dict:
    """``KEY=VALUE`` pairs as engine settings; a value is read as JSON when it parses (numbers, booleans)."""
    out: dict = {"embed": False} if no_embed else {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key.strip() not in Settings.model_fields:
            raise UsageError(f"--set {pair!r}: expected KEY=VALUE with KEY one of {', '.join(Settings.model_fields)}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    try:
        Settings(**out)
    except ValidationError as e:
        raise UsageError(f"--set: {e.errors()[0]['loc'][0]}: {e.errors()[0]['msg']}") from None
    return out


def _table(paths: list[Path], merge: bool, published: bool) -> str:
    reports = [load_report(p) for p in paths]
    rows: dict = {}
    for path, report in zip(paths, reports, strict=True):
        rows.update({f"{path.stem}: {name}": row for name, row in report["systems"].items()})
    if merge and len(reports) > 1:
        rows.update({f"all: {name}": row for name, row in merge_systems(reports).items()})
    if published:
        rows.update({f"{name} (published)": row for name, row in PUBLISHED_LITE_274.items()})
    return format_table(rows)


def _history(args: argparse.Namespace) -> int:
    if args.limit < 1 or args.max_files < 1:
        raise UsageError("--limit and --max-files must be at least 1")
    try:
        git_dir = find_git_dir(args.repo, args.mirrors)
    except (ValueError, MaterialiseError) as e:
        raise UsageError(str(e)) from e
    if git_dir is None and is_path(args.repo):
        raise UsageError(f"{args.repo} is not a git repository (no .git there, and not a bare repository)")
    if git_dir is None:
        raise UsageError(f"no git snapshot of {args.repo} under the mirrors folder (<owner>+<name>/repo)")
    # a path is kept absolute in the queries, so that `spyglass eval run` finds the repository again
    repo = str(Path(args.repo).expanduser().resolve()) if is_path(args.repo) else args.repo
    try:
        queries = from_history(git_dir, repo, limit=args.limit, max_files=args.max_files, ref=args.ref)
    except MaterialiseError as e:
        raise UsageError(str(e)) from e
    if not queries:
        render.error(f"no bug-fix commit in {args.repo} qualifies (see `spyglass eval history --help`)")
        return 2
    save_queries(args.out, queries)
    files = sum(len(q.gold_files) for q in queries)
    render.err.print(f"{len(queries)} queries ({files} gold files) written to {args.out}", highlight=False)
    return 0


def _semble(args: argparse.Namespace) -> int:
    try:
        suite = load_suite(args.suite)
    except SuiteError as e:
        raise UsageError(str(e)) from e
    names = [r.strip() for r in args.repos.split(",") if r.strip()] or suite.repos_with_queries()
    unknown = [n for n in names if n not in suite.repos]
    if unknown:
        raise UsageError(f"--repos: not in {args.suite / 'repos.json'}: {', '.join(unknown)}")
    split = suite.split()
    if args.split:
        names = [n for n in names if split.get(n) == args.split]
        if not names:
            raise UsageError(f"--split {args.split}: none of the chosen repositories is in that half")
    config = SuiteConfig(work=args.work.resolve(), mirrors=args.mirrors, overrides=_overrides(args.set, args.no_embed))

    def progress(done: int, total: int, q: SuiteQuery, scores: dict) -> None:
        ours, answer, control = (scores[name].file_rank for name in SYSTEMS)
        render.err.print(
            f"[{done}/{total}] {q.id}: first target at rank {ours} (--files {answer}, bm25 {control})", highlight=False
        )

    try:
        report = run_suite(suite, names, config, on_result=progress)
    except (SuiteError, MaterialiseError) as e:
        raise UsageError(str(e)) from e
    report["config"]["split"] = {n: split[n] for n in names if n in split}
    sys.stdout.write(format_suite_table(report))
    cfg = report["config"]
    sys.stdout.write(f"\nencoder: {cfg['encoder']}; seconds: {json.dumps(cfg['timing_seconds'])}\n")
    if args.out:
        write_report(args.out, report)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    if args.eval_command == "compare":
        sys.stdout.write(compare(load_report(args.before), load_report(args.after)) + "\n")
        return 0
    if args.eval_command == "table":
        sys.stdout.write(_table(args.reports, args.merge, args.published))
        return 0
    if args.eval_command == "history":
        return _history(args)
    if args.eval_command == "semble":
        return _semble(args)
    repos = {r.strip() for r in args.repos.split(",") if r.strip()} or None
    queries = load_any(args.queries, repos, ids_in(args.exclude))
    if args.limit:
        queries = queries[: args.limit]
    if not queries:
        render.error("no queries to run (check the file, --repos and --exclude)")
        return 2
    config = EvalConfig(
        work=args.work.resolve(),
        corpus=args.corpus.resolve() if args.corpus else None,
        mirrors=args.mirrors,
        k=args.k,
        overrides=_overrides(args.set, args.no_embed),
        query_part=args.query_part,
    )

    def progress(done: int, total: int, q: EvalQuery, scores: dict) -> None:
        ours, control = scores["spyglass"], scores["bm25 control"]
        render.err.print(
            f"[{done}/{total}] {q.id}: first gold file at rank {ours.file_rank} (bm25 {control.file_rank})",
            highlight=False,
        )

    report = run(queries, config, on_result=progress)
    rows = dict(report["systems"])
    if args.published:
        rows.update({f"{name} (published)": row for name, row in PUBLISHED_LITE_274.items()})
    sys.stdout.write(format_table(rows) + "\n")
    timing = json.dumps(report["config"]["timing_seconds"])
    sys.stdout.write(f"\n{len(queries)} queries; seconds: {timing}\n")
    if args.out:
        write_report(args.out, report)
    return 0
