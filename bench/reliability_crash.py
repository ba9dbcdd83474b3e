"""Crash safety under kill -9 (issue 21, class 1): a benchmark, not a test.

    python -m bench.reliability_crash --kills 1000
    python -m bench.reliability_crash --minutes 30 --nice 10 --out crash.json

Builds a workspace in a temporary folder (this repository's server/, tests/ and bench/ without the model,
plus ignored filler files so the walk can be interrupted), then kills real ``python -m spyglass index``
processes with SIGKILL in every phase: on a fresh index, after the tree changed (files edited, added,
deleted, renamed), on an unchanged tree, and while recovering from the kill before (with the tree changed
in between, too). After each kill the index as the kill left it must pass SQLite's and FTS5's integrity
checks; after each chain the next run must finish without moving the index aside, and the index must hold
exactly the files and spans of a clean build of the same tree, every span embedded after an embedding run.
Prints a JSON summary (the figures of docs/reliability.md, section "Crash safety").
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from spyglass.evaluation.crash import CrashHarness, build_workspace

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kills", type=int, default=0, help="stop after this many kills")
    p.add_argument("--minutes", type=float, default=0.0, help="stop after this many minutes")
    p.add_argument("--seed", type=int, default=21)
    p.add_argument("--filler", type=int, default=4000, help="ignored files that make the walk longer")
    p.add_argument("--nice", type=int, default=0, help="run each `spyglass index` at this niceness")
    p.add_argument("--work", type=Path, default=None, help="folder for the workspace (default: a temporary one)")
    p.add_argument("--out", type=Path, default=None, help="also write the JSON summary here")
    p.add_argument("-v", "--verbose", action="store_true", help="say what each chain did, on stderr")
    args = p.parse_args(argv)
    if not args.kills and not args.minutes:
        p.error("give --kills N and/or --minutes M")

    with tempfile.TemporaryDirectory(prefix="spyglass-crash-", dir=args.work) as tmp:
        root = Path(tmp) / "workspace"
        sources = [(REPO / "server", "server"), (REPO / "tests", "tests"), (REPO / "bench", "bench")]
        build_workspace(root, sources, filler=args.filler)
        log = (lambda msg: print(msg, file=sys.stderr, flush=True)) if args.verbose else None
        h = CrashHarness(
            root, Path(tmp) / "work", pythonpath=str(REPO / "server"), seed=args.seed, nice=args.nice, log=log
        )
        # the first index of the workspace, embedded, killed while parsing and three times while embedding
        h.chain("initial", True, ["parse", "embed", "embed", "embed"])
        h.calibrate()
        end = time.monotonic() + args.minutes * 60 if args.minutes else float("inf")
        while time.monotonic() < end and (not args.kills or h.tally.kills < args.kills):
            h.random_chain()
            if args.verbose:
                print(json.dumps({k: v for k, v in h.tally.summary().items() if k != "errors"}), file=sys.stderr)
        summary = {
            "command": "python -m bench.reliability_crash " + " ".join(argv if argv is not None else sys.argv[1:]),
            "files": sum(1 for f in root.rglob("*") if f.is_file()),
            **h.tally.summary(),
        }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0 if h.tally.clean else 1


if __name__ == "__main__":
    sys.exit(main())
