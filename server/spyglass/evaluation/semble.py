"""The semble suite: short natural-language and symbol queries over pinned repositories in many languages,
scored by file-level NDCG@10 (MinishLab/semble, ``benchmarks/``), so our figure sits beside semble's own and
its published peers'.

A suite folder holds (see ``../shared/bench/semble/README.md``):

- ``repos.json``: a list of ``{name, language, url, revision, benchmark_root}``; ``benchmark_root`` is the
  folder of the repository that is indexed (missing or null: the whole repository);
- ``queries.jsonl``: ``{repo, query, relevant, secondary, category}`` a line; a target is a path relative to
  the repository root, or ``{path, start_line, end_line}``;
- ``published-semble.json`` (optional): ``{"ndcg10": {repo: figure}}``, semble's published results.

How a query is scored (semble's ``benchmarks/common.py`` and ``metrics.py``):

- targets = ``relevant`` + ``secondary``;
- the ranking is one entry per file, by its best span (the span's lines come with it);
- a target is found at the first ranked file whose path matches it (:func:`path_matches`: equal, or one is
  a suffix of the other after a ``/``) and, for a target with lines, whose span overlaps them;
- NDCG@10 with binary gains (a rank holding several targets counts once); the ideal DCG is that of
  ``min(10, number of targets)`` hits.

A repository's figure is the mean over its queries; the suite's the mean over repositories; a language's
the mean over its repositories (as semble prints them); a category's the mean over its queries.

:func:`run_suite` materialises each repository's ``benchmark_root`` at the pinned revision (from a fetched git
snapshot; the snapshot's newest commit when it lacks the pinned one, which the report says) into one folder
of a working folder, indexes it with Spyglass (incrementally: a warm working folder costs nothing to
index again), and scores three rankings: Spyglass's (the whole ranking, no confidence floor, rolled up to
files), Spyglass's ``search --files`` answer (confidence cut on, one result per file: what a user sees), and
a plain BM25 control over whole files (FTS5, identifiers split) built on the same files in the same run.
Paths are scored relative to the repository root (``benchmark_root`` + the path in the index).
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..engine.discovery import discover
from ..engine.workspace import Workspace
from .baseline import BM25Files
from .corpus import MaterialiseError, find_git_dir, materialise, run_git
from .metrics import InstanceScore

log = logging.getLogger(__name__)

__all__ = [
    "K",
    "SYSTEMS",
    "RankedFile",
    "Suite",
    "SuiteConfig",
    "SuiteQuery",
    "SuiteRepo",
    "Target",
    "format_suite_table",
    "load_suite",
    "ndcg",
    "path_matches",
    "rank_files",
    "run_suite",
    "summarise",
    "target_ranks",
]

K = 10
HELD_OUT_EVERY = 3  # Suite.split: one repository in three is held out from tuning
Half = Literal["tune", "test"]
SPANS = 200  # spans of the whole ranking rolled up into files (enough for 10 distinct files)
WHOLE_FILE = (1, 1 << 30)  # the control's "chunk" is the whole file
SPYGLASS, SPYGLASS_CUT, BM25, PUBLISHED = "spyglass", "spyglass --files", "bm25 control", "semble (published)"
SYSTEMS = (SPYGLASS, SPYGLASS_CUT, BM25)
NDCG_KEY = "file_ndcg@10"  # the name the rest of the evaluation package uses (metrics.METRICS)


class SuiteError(ValueError):
    """A suite folder, repository or query that cannot be read or run."""


@dataclass(frozen=True, slots=True)
class Target:
    path: str  # relative to the repository root
    start_line: int | None = None
    end_line: int | None = None

    @property
    def has_lines(self) -> bool:
        return self.start_line is not None and self.end_line is not None

    def label(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}" if self.has_lines else self.path


@dataclass(frozen=True, slots=True)
class SuiteRepo:
    name: str
    language: str
    url: str
    revision: str
    benchmark_root: str | None = None

    @property
    def owner_name(self) -> str:
        """``owner/name`` of a GitHub url (the snapshot to fetch)."""
        m = re.search(r"github\.com[/:]([^/]+)/([^/]+?)(?:\.git)?/?$", self.url)
        if not m:
            raise SuiteError(f"{self.name}: not a GitHub url: {self.url!r}")
        return f"{m.group(1)}/{m.group(2)}"

    @property
    def root(self) -> str:
        """``benchmark_root`` without slashes at either end ("" for the whole repository)."""
        return (self.benchmark_root or "").strip("/")


@dataclass(frozen=True, slots=True)
class SuiteQuery:
    id: str  # "<repo>-<n>", n counting the repository's queries in file order from 1
    repo: str
    query: str
    targets: tuple[Target, ...]  # relevant, then secondary
    category: str


@dataclass
class Suite:
    repos: dict[str, SuiteRepo]
    queries: list[SuiteQuery]
    published: dict[str, float] = field(default_factory=dict)  # semble's NDCG@10 per repository

    def repos_with_queries(self) -> list[str]:
        return sorted({q.repo for q in self.queries})

    def split(self) -> dict[str, Half]:
        """The tune/test split of issue 20, fixed before any tuning: the repositories with queries sorted by
        name, every third one (the 3rd, 6th, ...) held out as ``test``. Tune on ``tune`` only; report both."""
        return {
            n: "test" if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1 else "tune"
            for i, n in enumerate(self.repos_with_queries())
        }


@dataclass(frozen=True, slots=True)
class RankedFile:
    """One entry of a file ranking: a path relative to the repository root and the lines of its best span."""

    path: str
    start_line: int = WHOLE_FILE[0]
    end_line: int = WHOLE_FILE[1]


# --------------------------------------------------------------------------------------------------
# reading a suite


def _target(raw: Any, where: str) -> Target:
    if isinstance(raw, str) and raw.strip():
        return Target(raw.strip())
    if isinstance(raw, dict) and isinstance(raw.get("path"), str):
        start, end = raw.get("start_line"), raw.get("end_line")
        try:
            return Target(raw["path"], None if start is None else int(start), None if end is None else int(end))
        except (TypeError, ValueError):
            pass
    raise SuiteError(f"{where}: a target is a path or {{path, start_line, end_line}}, not {raw!r}")


def load_suite(folder: Path) -> Suite:
    """Read ``repos.json``, ``queries.jsonl`` and (if present) ``published-semble.json`` from ``folder``."""
    folder = Path(folder)
    try:
        raw_repos = json.loads((folder / "repos.json").read_text(encoding="utf-8"))
        lines = (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError) as e:
        raise SuiteError(f"{folder}: not a semble suite folder ({e})") from e
    if not isinstance(raw_repos, list):
        raise SuiteError(f"{folder / 'repos.json'}: expected a list of repositories")
    repos: dict[str, SuiteRepo] = {}
    for item in raw_repos:
        try:
            repo = SuiteRepo(
                str(item["name"]),
                str(item["language"]),
                str(item["url"]),
                str(item["revision"]),
                item.get("benchmark_root") or None,
            )
        except (KeyError, TypeError) as e:
            raise SuiteError(f"{folder / 'repos.json'}: a repository needs name, language, url, revision ({e})") from e
        repos[repo.name] = repo
    queries: list[SuiteQuery] = []
    counts: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{folder / 'queries.jsonl'}:{n}"
        try:
            item = json.loads(line)
            repo_name, text = str(item["repo"]), str(item["query"])
            raw_targets = [*item.get("relevant", []), *item.get("secondary", [])]
        except (ValueError, KeyError, TypeError) as e:
            raise SuiteError(f"{where}: expected {{repo, query, relevant, secondary, category}} ({e})") from e
        if repo_name not in repos:
            raise SuiteError(f"{where}: repository {repo_name!r} is not in repos.json")
        counts[repo_name] = counts.get(repo_name, 0) + 1
        targets = tuple(_target(t, where) for t in raw_targets)
        category = str(item.get("category") or "uncategorised")
        queries.append(SuiteQuery(f"{repo_name}-{counts[repo_name]}", repo_name, text, targets, category))
    published: dict[str, float] = {}
    path = folder / "published-semble.json"
    if path.is_file():
        try:
            published = {str(k): float(v) for k, v in json.loads(path.read_text(encoding="utf-8"))["ndcg10"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise SuiteError(f"{path}: expected {{'ndcg10': {{repo: figure}}}} ({e})") from e
    return Suite(repos, queries, published)


# --------------------------------------------------------------------------------------------------
# scoring (pure)


def path_matches(file_path: str, target_path: str) -> bool:
    """Whether a ranked file is the target's file: the same path, or one ends with ``/`` + the other."""
    a, b = file_path.replace("\\", "/"), target_path.replace("\\", "/")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def is_definition(t: Target, path: str, start_line: int, end_line: int) -> bool:
    """Whether a span of the file at ``path`` (from the repository root) is the definition a target with lines
    names: the same file, and the lines they share are at least half of each (a class around the function, or
    a closure inside it, is not it)."""
    if not t.has_lines:
        return False
    assert t.start_line is not None and t.end_line is not None
    shared = min(end_line, t.end_line) - max(start_line, t.start_line) + 1
    return (
        path_matches(path, t.path)
        and shared * 2 >= t.end_line - t.start_line + 1
        and shared * 2 >= end_line - start_line + 1
    )


def _overlaps(f: RankedFile, t: Target) -> bool:
    if not t.has_lines:
        return True
    assert t.start_line is not None and t.end_line is not None
    return not (f.end_line < t.start_line or f.start_line > t.end_line)


def target_ranks(files: Sequence[RankedFile], targets: Iterable[Target]) -> list[int | None]:
    """Per target, the 1-based rank of the first file that matches its path (and overlaps its lines), or None."""
    ranks: list[int | None] = []
    for t in targets:
        ranks.append(
            next((i for i, f in enumerate(files, 1) if path_matches(f.path, t.path) and _overlaps(f, t)), None)
        )
    return ranks


def ndcg(ranks: Iterable[int | None], n_targets: int, k: int = K) -> float:
    """NDCG@k with binary gains at the given ranks (a rank counts once) over the ideal of ``min(k, n_targets)``."""
    if n_targets <= 0:
        return 0.0
    dcg = sum(1.0 / math.log2(r + 1) for r in {r for r in ranks if r is not None and 1 <= r <= k})
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, n_targets)))
    return dcg / ideal


def rank_files(spans: Iterable[Any], prefix: str = "") -> list[RankedFile]:
    """Spans (objects with ``path``, ``start_line``, ``end_line``), best first, as a file ranking: each file
    once, at its best span; ``prefix`` (the benchmark root) makes the paths relative to the repository."""
    seen: set[str] = set()
    out: list[RankedFile] = []
    for s in spans:
        if s.path in seen:
            continue
        seen.add(s.path)
        out.append(RankedFile(f"{prefix}/{s.path}" if prefix else s.path, s.start_line, s.end_line))
    return out


def score(query: SuiteQuery, files: Sequence[RankedFile]) -> InstanceScore:
    """One query's ranking as an InstanceScore (``file_ndcg@10``, ``file_mrr``, first target's rank, top files)."""
    ranks = target_ranks(files, query.targets)
    found = [r for r in ranks if r is not None]
    first = min(found) if found else None
    values: dict[str, float | None] = {
        NDCG_KEY: ndcg(ranks, len(query.targets)),
        "file_mrr": 1.0 / first if first else 0.0,
    }
    return InstanceScore(query.id, values, first, [f.path for f in files[:K]])


def _mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return round(sum(vals) / len(vals), 4) if vals else None


def summarise(
    queries: Sequence[SuiteQuery],
    repos: dict[str, SuiteRepo],
    scores: dict[str, float],
) -> dict[str, Any]:
    """One system's figures from its per-query NDCG@10 (by query id): the mean over repositories (the
    suite's figure), and per repository, per language (mean of its repositories) and per category (mean
    of its queries)."""
    by_repo_values: dict[str, list[float]] = {}
    by_category_values: dict[str, list[float]] = {}
    for q in queries:
        if q.id in scores:
            by_repo_values.setdefault(q.repo, []).append(scores[q.id])
            by_category_values.setdefault(q.category, []).append(scores[q.id])
    by_repo = {r: _mean(v) for r, v in sorted(by_repo_values.items())}
    by_language_values: dict[str, list[float]] = {}
    for r, v in by_repo.items():
        if v is not None:
            by_language_values.setdefault(repos[r].language, []).append(v)
    instances = sum(len(v) for v in by_repo_values.values())
    return {
        "instances": instances,
        "n": {NDCG_KEY: instances},  # as metrics.aggregate: how many queries the figures are over
        "repositories": len(by_repo),
        NDCG_KEY: _mean(v for v in by_repo.values() if v is not None),
        "query_mean": _mean(v for vs in by_repo_values.values() for v in vs),
        "by_repo": by_repo,
        "by_language": {lang: _mean(v) for lang, v in sorted(by_language_values.items())},
        "by_category": {c: _mean(v) for c, v in sorted(by_category_values.items())},
    }


def published_row(published: dict[str, float], repos: dict[str, SuiteRepo], names: Iterable[str]) -> dict[str, Any]:
    """semble's published figures for the repositories ``names`` (those it published), summarised alike."""
    by_repo = {n: published[n] for n in sorted(names) if n in published}
    by_language: dict[str, list[float]] = {}
    for n, v in by_repo.items():
        by_language.setdefault(repos[n].language, []).append(v)
    return {
        "repositories": len(by_repo),
        NDCG_KEY: _mean(by_repo.values()),
        "by_repo": by_repo,
        "by_language": {lang: _mean(v) for lang, v in sorted(by_language.items())},
    }


# --------------------------------------------------------------------------------------------------
# running


@dataclass
class SuiteConfig:
    work: Path  # one folder per repository (its benchmark root) is materialised and indexed under here
    mirrors: Path | None = None  # fetched git snapshots (<owner>+<name>/repo; corpus.find_git_dir)
    overrides: dict[str, Any] = field(default_factory=dict)  # engine settings for the run
    spans: int = SPANS


def _revision(git_dir: Path, repo: SuiteRepo) -> tuple[str, str | None]:
    """(the commit to index, a note when it is not the pinned revision)."""
    try:
        return run_git(
            git_dir, "rev-parse", "--verify", "--quiet", f"{repo.revision}^{{commit}}"
        ).decode().strip(), None
    except MaterialiseError:
        pass
    head = run_git(git_dir, "rev-parse", "--verify", "HEAD^{commit}").decode().strip()
    note = f"pinned {repo.revision[:12]} is not in the snapshot; indexed its newest commit {head[:12]}"
    log.warning("%s: %s", repo.name, note)
    return head, note


def run_suite(
    suite: Suite,
    names: Sequence[str],
    config: SuiteConfig,
    on_result: Callable[[int, int, SuiteQuery, dict[str, InstanceScore]], None] | None = None,
) -> dict[str, Any]:
    """Run the queries of repositories ``names``; returns a report (``report.write_report`` writes it)."""
    unknown = [n for n in names if n not in suite.repos]
    if unknown:
        raise SuiteError(f"not in repos.json: {', '.join(unknown)}")
    queries = [q for q in suite.queries if q.repo in set(names)]
    timing = {"materialise": 0.0, "index": 0.0, "search": 0.0, "bm25": 0.0}
    scores: dict[str, list[InstanceScore]] = {s: [] for s in SYSTEMS}
    revisions: dict[str, dict[str, Any]] = {}
    missing_targets: dict[str, list[str]] = {}
    skipped: dict[str, str] = {}  # repositories that could not be run, and why
    encoders: set[str] = set()  # what embedded the queries (and any span indexed in this run)
    embedded = 0
    done = 0
    for name in sorted(set(names)):
        repo = suite.repos[name]
        items = [q for q in queries if q.repo == name]
        if not items:
            continue
        git_dir = find_git_dir(repo.owner_name, config.mirrors)
        if git_dir is None:  # one repository that cannot be had does not stop the others: the report says why
            skipped[name] = f"no snapshot of {repo.owner_name} under the mirrors folder; fetch it first"
            log.warning("%s: %s", name, skipped[name])
            continue
        folder = config.work / name
        t = time.perf_counter()
        commit, note = _revision(git_dir, repo)
        try:
            materialise(git_dir, commit, folder, repo.root or None)
        except MaterialiseError as e:
            skipped[name] = f"{note + '; ' if note else ''}{e}"
            log.warning("%s: not run: %s", name, skipped[name])
            continue
        timing["materialise"] += time.perf_counter() - t
        revisions[name] = {
            "language": repo.language,
            "pinned": repo.revision,
            "indexed": commit,
            "benchmark_root": repo.root,
            "note": note,
        }
        with Workspace.open(folder, writer=True, overrides=config.overrides, memory_vectors=True) as ws:
            if ws.embedder is not None:
                encoders.add(f"{ws.embedder.model_id} on {ws.embedder.kind}")
            t = time.perf_counter()
            embedded += ws.index().texts_embedded
            timing["index"] += time.perf_counter() - t
            paths = [f.path for f in discover(folder, ws.settings).files]
            corpus = [f"{repo.root}/{p}" if repo.root else p for p in paths]
            t = time.perf_counter()
            bm25 = BM25Files(split_identifiers=True)
            bm25.build(folder, paths)
            timing["bm25"] += time.perf_counter() - t
            try:
                for q in items:
                    t = time.perf_counter()
                    # the file ranking (``per_file=1``: file-level signals on), whole: no floor, no limit
                    ranking = ws.search(q.query, k=config.spans, cut=False, per_file=1).results
                    answer = ws.search(q.query, k=K, per_file=1).results
                    timing["search"] += time.perf_counter() - t
                    t = time.perf_counter()
                    control = [RankedFile(f"{repo.root}/{p}" if repo.root else p) for p in bm25.search(q.query, K)]
                    timing["bm25"] += time.perf_counter() - t
                    got = {
                        SPYGLASS: score(q, rank_files(ranking, repo.root)),
                        SPYGLASS_CUT: score(q, rank_files(answer, repo.root)),
                        BM25: score(q, control),
                    }
                    for system, s in got.items():
                        scores[system].append(s)
                    gone = [t.label() for t in q.targets if not any(path_matches(p, t.path) for p in corpus)]
                    if gone:
                        missing_targets[q.id] = gone
                    done += 1
                    if on_result:
                        on_result(done, len(queries), q, got)
            finally:
                bm25.close()
    ran = [n for n in sorted(set(names)) if n in revisions]
    if not ran and skipped:
        raise SuiteError("no repository could be run: " + "; ".join(f"{n}: {why}" for n, why in skipped.items()))
    systems: dict[str, Any] = {
        system: summarise(queries, suite.repos, {s.id: s.values[NDCG_KEY] or 0.0 for s in got_scores})
        for system, got_scores in scores.items()
    }
    systems[PUBLISHED] = published_row(suite.published, suite.repos, ran)
    instances: dict[str, dict[str, Any]] = {}
    for system, got_scores in scores.items():
        for s in got_scores:
            instances.setdefault(s.id, {})[system] = s.to_dict()
    return {
        "config": {
            "suite": "semble",
            "repos": ran,
            "work": str(config.work),
            "mirrors": str(config.mirrors) if config.mirrors else None,
            "overrides": config.overrides,
            "encoder": ", ".join(sorted(encoders)) or "none (lexical only)",
            "spans": config.spans,
            "revisions": revisions,
            "skipped": skipped,
            "timing_seconds": {k: round(v, 2) for k, v in timing.items()},
            "texts_embedded": embedded,
        },
        "systems": systems,
        "instances": instances,
        "queries": {
            q.id: {
                "repo": q.repo,
                "query": q.query,
                "category": q.category,
                "targets": [t.label() for t in q.targets],
                **({"targets_not_in_corpus": missing_targets[q.id]} if q.id in missing_targets else {}),
            }
            for q in queries
        },
    }


# --------------------------------------------------------------------------------------------------
# printing


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_suite_table(report: dict[str, Any]) -> str:
    """Markdown tables: per repository (language, queries, Spyglass, its --files answer, BM25 control,
    semble's published figure, a note when the pinned revision was missing), the means, then per language
    and per category."""
    systems = report["systems"]
    ours, cut, control = systems[SPYGLASS], systems[SPYGLASS_CUT], systems[BM25]
    published = systems.get(PUBLISHED, {"by_repo": {}, "by_language": {}})
    revisions = report["config"].get("revisions", {})
    counts: dict[str, int] = {}
    languages: dict[str, str] = {}
    for q in report.get("queries", {}).values():
        counts[q["repo"]] = counts.get(q["repo"], 0) + 1
    for name, rev in revisions.items():
        languages[name] = rev.get("language", "")
    header = (
        "| repository | language | queries | Spyglass | Spyglass --files | BM25 control | semble (published) | note |"
    )
    lines = [header, "|---|---|---|---|---|---|---|---|"]
    for name in ours["by_repo"]:
        note = (revisions.get(name) or {}).get("note") or ""
        lines.append(
            f"| {name} | {languages.get(name, '')} | {counts.get(name, 0)} | {_cell(ours['by_repo'][name])} | "
            f"{_cell(cut['by_repo'].get(name))} | {_cell(control['by_repo'].get(name))} | "
            f"{_cell(published['by_repo'].get(name))} | {note} |"
        )
    lines.append(
        f"| **mean of {ours['repositories']}** | | {ours['instances']} | **{_cell(ours[NDCG_KEY])}** | "
        f"{_cell(cut[NDCG_KEY])} | {_cell(control[NDCG_KEY])} | {_cell(published.get(NDCG_KEY))} | |"
    )
    ahead = sum(1 for n, v in ours["by_repo"].items() if n in published["by_repo"] and v > published["by_repo"][n])
    for name, why in (report["config"].get("skipped") or {}).items():
        lines.append(f"| {name} | not run | | | | | | {why} |")
    lines.append("")
    lines.append(f"Spyglass ahead of semble's published figure on {ahead} of {len(published['by_repo'])}.")
    lines += [
        "",
        "| language | Spyglass | Spyglass --files | BM25 control | semble (published) |",
        "|---|---|---|---|---|",
    ]
    for lang, v in ours["by_language"].items():
        lines.append(
            f"| {lang} | {_cell(v)} | {_cell(cut['by_language'].get(lang))} | "
            f"{_cell(control['by_language'].get(lang))} | {_cell(published['by_language'].get(lang))} |"
        )
    lines += ["", "| category | Spyglass | Spyglass --files | BM25 control |", "|---|---|---|---|"]
    for cat, v in ours["by_category"].items():
        lines.append(
            f"| {cat} | {_cell(v)} | {_cell(cut['by_category'].get(cat))} | {_cell(control['by_category'].get(cat))} |"
        )
    split = report["config"].get("split") or {}
    if split:
        lines += [
            "",
            "| half (Suite.split) | repositories | Spyglass | Spyglass --files | BM25 control | semble (published) |",
        ]
        lines.append("|---|---|---|---|---|---|")
        for half in ("tune", "test"):
            members = [n for n in ours["by_repo"] if split.get(n) == half]
            cells = [
                _cell(_mean(system["by_repo"][n] for n in members if n in system["by_repo"]))
                for system in (ours, cut, control, published)
            ]
            lines.append(f"| {half} | {len(members)}: {', '.join(members)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
