"""Run an evaluation: materialise each query's corpus, index it incrementally, search, score.

Queries of one repository are run in commit order inside one working folder per repository, so the
index (and its embedding cache) carries over from commit to commit: each commit costs only what changed.
Queries without a repository run against one given corpus folder. A plain BM25 control (whole files,
FTS5) answers every query in the same run, on the same files.
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..engine.answers import SearchHit
from ..engine.discovery import discover
from ..engine.search import RankingConfig
from ..engine.workspace import Workspace
from .baseline import BM25Files, control_files
from .corpus import find_git_dir, materialise
from .dataset import EvalQuery
from .metrics import InstanceScore, RetrievedSpan, score_instance
from .report import make_report

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4  # the usual rough figure for LLM tokenizers on code and English


@dataclass
class EvalConfig:
    work: Path  # one folder per repository is materialised and indexed under here
    corpus: Path | None = None  # the folder for queries that name no repository
    mirrors: Path | None = None  # where fetched git snapshots live (see corpus.find_git_dir)
    k: int = 50  # spans retrieved per query (before the roll-up)
    token_k: int = 5  # "what would the top results cost an agent": tokens of this many results
    cut_k: int = 10  # the default answer (confidence cut on) is measured at this k
    query_part: str = "full"  # "title": only the first line of each query (short queries from the same set)
    overrides: dict[str, Any] = field(default_factory=dict)  # engine settings (e.g. {"embed": False})


def _commit_time(git_dir: Path, commit: str) -> int:
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", "-s", "--format=%ct", commit],
        capture_output=True,
        text=True,
        check=False,
    )
    return int(out.stdout.strip() or 0)


def _groups(queries: list[EvalQuery], config: EvalConfig) -> list[tuple[Path, Path | None, list[EvalQuery]]]:
    """(working folder, git dir or None, queries in commit order) per repository."""
    by_repo: dict[str | None, list[EvalQuery]] = {}
    for q in queries:
        by_repo.setdefault(q.repo if q.commit else None, []).append(q)
    groups: list[tuple[Path, Path | None, list[EvalQuery]]] = []
    for repo, items in by_repo.items():
        if repo is None:
            if config.corpus is None:
                raise ValueError(f"{len(items)} queries name no repository and commit: pass a corpus folder")
            groups.append((config.corpus, None, items))
            continue
        git_dir = find_git_dir(repo, config.mirrors)
        if git_dir is None:
            raise ValueError(f"{repo} is not a git repository, nor a snapshot under the mirrors folder; fetch it first")
        items.sort(key=lambda q: (_commit_time(git_dir, q.commit or ""), q.id))
        groups.append((config.work / repo.strip("/").replace("/", "+"), git_dir, items))
    return groups


def query_text(query: str, part: str) -> str:
    """The text searched for: the whole query, or its first non-empty line (an issue's title)."""
    if part == "full":
        return query
    if part == "title":
        return next((line.strip() for line in query.splitlines() if line.strip()), query)
    raise ValueError(f"unknown query part {part!r} (use 'full' or 'title')")


def _tokens(results: list[SearchHit], n: int) -> float:
    return sum(len(r.snippet) + len(r.path) + len(r.symbol) for r in results[:n]) / CHARS_PER_TOKEN


def run(
    queries: list[EvalQuery],
    config: EvalConfig,
    on_result: Callable[[int, int, EvalQuery, dict[str, InstanceScore]], None] | None = None,
    ranking: RankingConfig | None = None,
    variants: Mapping[str, RankingConfig] | None = None,
) -> dict:
    """Evaluate ``queries``; returns a report (see report.make_report) with timings in its config.
    ``ranking`` replaces the workspace's ranking settings (bench/ablation.py); each of ``variants`` is
    scored too, as the system "spyglass NAME", on the same index (bench/recency_ablation.py).

    A query at a commit of a repository has that repository's history up to the commit (the history
    index reads the git directory, not the materialised tree, which has none)."""
    variants = dict(variants or {})
    scores: dict[str, list[InstanceScore]] = {"spyglass": [], **{f"spyglass {v}": [] for v in variants}}
    scores["bm25 control"] = []
    timing = {"materialise": 0.0, "index": 0.0, "search": 0.0, "bm25": 0.0}
    embedded = 0
    done = 0
    total = len(queries)
    for folder, git_dir, items in _groups(queries, config):
        folder.mkdir(parents=True, exist_ok=True)
        with Workspace.open(folder, writer=True, overrides=config.overrides, memory_vectors=True) as ws:
            if ranking is not None:
                ws.searcher.config = ranking
            for q in items:
                t = time.perf_counter()
                if git_dir is not None:
                    materialise(git_dir, q.commit or "", folder)
                    ws.history_source = (git_dir, q.commit or "HEAD")
                timing["materialise"] += time.perf_counter() - t

                t = time.perf_counter()
                report = ws.index()
                timing["index"] += time.perf_counter() - t
                embedded += report.texts_embedded

                t = time.perf_counter()
                text = query_text(q.query, config.query_part)
                hits = ws.search(text, k=config.k, cut=False).results
                answer = ws.search(text, k=config.cut_k).results
                timing["search"] += time.perf_counter() - t
                ours = score_instance(
                    q.id,
                    q.gold,
                    [RetrievedSpan(h.path, h.symbol, h.kind) for h in hits],
                    tokens=_tokens(hits, config.token_k),
                    cut=[RetrievedSpan(h.path, h.symbol, h.kind) for h in answer],
                )

                default = ws.searcher.config
                for name, variant in variants.items():
                    ws.searcher.config = variant
                    found = ws.search(text, k=config.k, cut=False).results
                    retrieved = [RetrievedSpan(h.path, h.symbol, h.kind) for h in found]
                    scores[f"spyglass {name}"].append(
                        score_instance(q.id, q.gold, retrieved, tokens=_tokens(found, config.token_k))
                    )
                ws.searcher.config = default

                t = time.perf_counter()
                with BM25Files() as bm25:
                    bm25.build(folder, control_files([f.path for f in discover(folder, ws.settings).files]))
                    files = bm25.search(text, config.k)
                timing["bm25"] += time.perf_counter() - t
                control = score_instance(q.id, q.gold, [RetrievedSpan(p, "", "file") for p in files])
                for metric in control.values:  # the control ranks whole files: no module or function level
                    if metric.startswith(("module", "function")):
                        control.values[metric] = None

                scores["spyglass"].append(ours)
                scores["bm25 control"].append(control)
                done += 1
                if on_result:
                    on_result(done, total, q, {"spyglass": ours, "bm25 control": control})
    config_out = {k: str(v) if isinstance(v, Path) else v for k, v in asdict(config).items()}
    config_out["timing_seconds"] = {k: round(v, 2) for k, v in timing.items()}
    config_out["texts_embedded"] = embedded
    return make_report(config_out, scores)
