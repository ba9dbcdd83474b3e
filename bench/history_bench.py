"""History indexing cost and branch switches (issue 22; a benchmark, not a test; docs/benchmarks.md).

    python bench/history_bench.py CHECKOUT [--commits 1000] [--switch REV] [--out report.json]

On a git checkout (a clone of its own: the bench moves HEAD and restores it):

- ``history``: reading the newest ``--commits`` commits into an index that has none (seconds, commits/s),
  a sync when HEAD did not move, and one when HEAD moved by one commit (both ways);
- ``switch`` (with ``--switch REV``): the tree indexed and embedded at HEAD, then checked out at REV,
  re-indexed, and checked out back at HEAD, re-indexed: how many files differ, and how many texts each
  switch had to embed. Vectors are cached by content, so going back embeds nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from spyglass.engine import Workspace  # noqa: E402


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout.strip()


def history(root: Path, commits: int) -> dict:
    with Workspace.open(root, writer=True, overrides={"embed": False, "history_commits": commits}) as ws:
        ws.index()  # the tree (lexical only), then forget the history so the first sync is timed alone
        ws.store.con.execute("DELETE FROM commits_fts; DELETE FROM commit_files; DELETE FROM commit_symbols")
        ws.store.con.execute("DELETE FROM commits; DELETE FROM meta WHERE key LIKE 'history_%'")
        first = ws.sync_history()
        t0 = time.perf_counter()
        ws.sync_history()
        unchanged_ms = 1000 * (time.perf_counter() - t0)
        head = git(root, "rev-parse", "HEAD")
        git(root, "checkout", "-q", "--detach", "HEAD~1")
        back = ws.sync_history()
        git(root, "checkout", "-q", head)
        forward = ws.sync_history()
        t0 = time.perf_counter()
        answer = ws.history("fix crash when the request is empty")
        search_ms = 1000 * (time.perf_counter() - t0)
        symbols = ws.store.con.execute("SELECT COUNT(*) FROM commit_symbols").fetchone()[0]
        return {
            "commits": first.commits,
            "first_sync_s": round(first.seconds, 2),
            "commits_per_s": round(first.commits / first.seconds, 1) if first.seconds else None,
            "definitions_recorded": symbols,
            "unchanged_sync_ms": round(unchanged_ms, 1),
            "head_back_one": {"added": back.added, "removed": back.removed, "ms": round(1000 * back.seconds, 1)},
            "head_forward_one": {
                "added": forward.added,
                "removed": forward.removed,
                "ms": round(1000 * forward.seconds, 1),
            },
            "search_ms": round(search_ms, 1),
            "search_hits": len(answer.commits),
        }


def switch(root: Path, rev: str) -> dict:
    head = git(root, "rev-parse", "HEAD")
    files = len(git(root, "diff", "--name-only", head, rev, "--", ".").splitlines())
    out: dict = {"files_differing": files}
    with Workspace.open(root, writer=True, overrides={"history_commits": 0}) as ws:
        t0 = time.perf_counter()
        r = ws.index()
        out["index_at_head"] = {"texts_embedded": r.texts_embedded, "s": round(time.perf_counter() - t0, 1)}
        for name, target in (("to_rev", rev), ("back_to_head", head)):
            git(root, "checkout", "-q", "--detach", target)
            t0 = time.perf_counter()
            r = ws.index()
            out[name] = {
                "files_changed": r.changed + r.added + r.deleted,
                "texts_embedded": r.texts_embedded,
                "vectors_reused": r.vectors_reused,
                "s": round(time.perf_counter() - t0, 1),
            }
    git(root, "checkout", "-q", head)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--switch", default=None, help="a revision to switch to and back (e.g. a tag)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    root = args.checkout.resolve()
    report: dict = {"checkout": str(root), "head": git(root, "rev-parse", "HEAD")}
    report["history"] = history(root, args.commits)
    if args.switch:
        report["switch"] = switch(root, args.switch)
    text = json.dumps(report, indent=2)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
