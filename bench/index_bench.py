"""Indexing and search benchmarks for docs/benchmarks.md (a benchmark, not a test).

    python bench/index_bench.py CORPUS [--search-corpus BIG_CORPUS] [--out report.json]

Measures, on one machine and in one run:
  1. cold index of CORPUS: time until lexically searchable and until fully embedded; files/s, spans/s;
     embedding tokens/s of the pipeline against the embedder alone (``Embedder.encode``) on the same texts;
  2. a no-change re-index;
  3. one edited file re-indexed (parse + embed + write) with the model warm: p50/p95 over N edits;
  4. warm search latency p50/p95 (on --search-corpus if given, e.g. a ~50k-span repository) and peak RSS;
     with --issues, also for long queries: pasted SWE-bench issues of one repository.
The corpus is copied to a temporary folder first, so edits never touch the original.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from spyglass.engine.embedtext import embed_text
from spyglass.engine.workspace import Workspace
from spyglass.evaluation.dataset import from_swebench

sys.path.insert(0, str(Path(__file__).parent))
from common import emit  # noqa: E402

QUERIES = [
    "parse configuration file",
    "where is the cache invalidated",
    "convert a string to a number",
    "read the environment variable for the locale",
    "def build_index",
    "raise ValueError when the input is invalid",
    "matrix determinant",
    "simplify trigonometric expression",
    "register a new directive",
    "TypeError: unsupported operand type(s)",
    "html writer visit node",
    "solve a linear system of equations",
    "LaTeX printer for fractions",
    "how are warnings logged",
    "test that the builder writes output files",
    "Symbol assumptions positive integer",
    "sort by key",
    "open file with encoding utf-8",
    "command line argument parser",
    "polynomial factorization over integers",
]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def cold_index(corpus: Path, work: Path, args) -> dict:
    root = work / corpus.name
    shutil.copytree(corpus, root, symlinks=True, ignore=shutil.ignore_patterns(".spyglass", ".git"))
    overrides = {"threads": args.threads} if args.threads else {}
    phases: dict[str, float] = {}
    t0 = time.perf_counter()

    def progress(phase: str, done: int, total: int) -> None:
        if phase == "embed" and "lexical_ready" not in phases:
            phases["lexical_ready"] = time.perf_counter() - t0

    ws = Workspace.open(root, overrides=overrides, writer=True)
    report = ws.index(progress=progress)
    total = time.perf_counter() - t0
    fresh = ws.freshness()
    out = {
        "corpus": str(corpus),
        "files": report.seen,
        "spans": fresh.spans,
        "texts_embedded": report.texts_embedded,
        "seconds_to_lexical": round(phases.get("lexical_ready", total), 2),
        "seconds_to_embedded": round(total, 2),
        "seconds_embed_phase": round(report.seconds.get("embed", 0.0), 2),
        "files_per_s_lexical": round(report.seen / phases.get("lexical_ready", total), 1),
        "spans_per_s_lexical": round(fresh.spans / phases.get("lexical_ready", total), 1),
        "skipped": dict(report.skipped),
    }
    # raw model throughput on the same texts the pipeline embedded (or a sample of them)
    rows = ws.store.con.execute("SELECT kind, qualname, signature, doc, text FROM spans GROUP BY embed_hash").fetchall()
    texts = [embed_text(*r, ws.settings.embed_max_tokens, ws.settings.embed_text) for r in rows]
    tokens_all = ws.embedder.count_tokens(texts)
    pipeline_tps = tokens_all / max(report.seconds.get("embed", 1e-9), 1e-9)
    sample = texts if args.raw_sample <= 0 else random.Random(1).sample(texts, min(args.raw_sample, len(texts)))
    sample_tokens = ws.embedder.count_tokens(sample)
    ws.embedder.load()
    t = time.perf_counter()
    ws.embedder.encode(sample)
    raw_seconds = time.perf_counter() - t
    raw_tps = sample_tokens / raw_seconds
    out.update(
        embed_tokens=tokens_all,
        pipeline_tokens_per_s=round(pipeline_tps),
        raw_encode_tokens_per_s=round(raw_tps),
        raw_sample_texts=len(sample),
        pipeline_vs_raw=round(pipeline_tps / raw_tps, 3),
    )

    # 2. no-change re-index
    t = time.perf_counter()
    again = ws.index()
    out["noop_reindex_seconds"] = round(time.perf_counter() - t, 3)
    out["noop_reindex_parsed"] = again.parsed
    out["noop_reindex_embedded"] = again.texts_embedded

    # 3. one edited file: append a new function to a file and re-index just it, model warm
    candidates = sorted(p for p in root.rglob("*.py") if ".spyglass" not in p.parts and p.stat().st_size < 60_000)
    rng = random.Random(7)
    times = []
    for i, path in enumerate(rng.sample(candidates, min(args.edits, len(candidates)))):
        with path.open("a", encoding="utf-8") as f:
            f.write(
                f'\n\ndef spyglass_bench_edit_{i}(value):\n    """Edited by the benchmark."""\n    return value * {i}\n'
            )
        t = time.perf_counter()
        ws.update_file(path)
        times.append(time.perf_counter() - t)
    out["edit_reindex_ms_p50"] = round(1000 * statistics.median(times), 1)
    out["edit_reindex_ms_p95"] = round(1000 * pct(times, 0.95), 1)
    out["edit_samples"] = len(times)
    ws.close()
    out["indexed_copy"] = str(root)
    return out


def search_latency(root: Path, args) -> dict:
    ws = Workspace.open(root, memory_vectors=not args.sqlite_vec)
    ws.search("warm up the model")  # first call loads the model: not a warm figure
    times = []
    for _ in range(args.rounds):
        for q in QUERIES:
            t = time.perf_counter()
            ws.search(q, k=10)
            times.append(time.perf_counter() - t)
    out = {
        "search_vectors": "sqlite-vec" if args.sqlite_vec else "in memory",
        "search_corpus": str(root),
        "search_spans": ws.freshness().spans,
        "search_queries": len(times),
        "search_ms_p50": round(1000 * statistics.median(times), 1),
        "search_ms_p95": round(1000 * pct(times, 0.95), 1),
    }
    if args.issues:  # long queries: pasted issues (title, prose, code, tracebacks)
        issues = [q.query for q in from_swebench(args.issues, repos={args.issue_repo})][: args.max_issues]
        long_times = []
        for text in issues:
            t = time.perf_counter()
            ws.search(text, k=10)
            long_times.append(time.perf_counter() - t)
        out["issue_queries"] = len(long_times)
        out["issue_ms_p50"] = round(1000 * statistics.median(long_times), 1)
        out["issue_ms_p95"] = round(1000 * pct(long_times, 0.95), 1)
    ws.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--search-corpus", type=Path, help="an already indexed folder for the search figures")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--edits", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--raw-sample", type=int, default=0, help="texts for the raw encode figure (0: all)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--sqlite-vec", action="store_true", help="search with sqlite-vec, not in memory")
    ap.add_argument("--skip-index", action="store_true", help="only the search figures")
    ap.add_argument("--issues", type=Path, help="SWE-bench gold JSONL: time its issue texts as long queries too")
    ap.add_argument("--issue-repo", default="sympy", help="whose issues to take from --issues (default sympy)")
    ap.add_argument("--max-issues", type=int, default=40)
    args = ap.parse_args()
    result: dict = {}
    with tempfile.TemporaryDirectory(prefix="spyglass-bench-") as tmp:
        searched = args.corpus.resolve()
        if not args.skip_index:
            result.update(cold_index(args.corpus.resolve(), Path(tmp), args))
            print(json.dumps(result, indent=2), file=sys.stderr)
            searched = Path(result.pop("indexed_copy"))
        result.update(search_latency((args.search_corpus or searched).resolve(), args))
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    emit(result, args.out)


if __name__ == "__main__":
    main()
