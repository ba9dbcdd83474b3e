"""Hostile wire input, at length (issue 21, class 2; a benchmark, not a test; docs/reliability.md).

    python -m bench.reliability_wire --messages 10000 [--server mcp|lsp|both] [--seed 0] [--out report.json]
    python bench/reliability_wire.py --messages 10000

Each server (``spyglass mcp`` and ``spyglass lsp`` on a copy of tests/fixtures/shop, lexical only) gets
``--messages`` fuzzed messages drawn by hypothesis from the strategies the tests use (tests/rawwire.py):
every part of a message hostile now and then (version, id of every type, method, params: plausible, any JSON
value, huge, 3,000 deep), the bytes broken (truncated, bad UTF-8, not JSON) and, for LSP, the framing broken
(Content-Length abc, -5, missing, short, no header at all). After each message a normal request must answer
(a liveness probe); at the end a real query must find what the fixture holds. Counted per server:

- ``crashes``: the process ended (it is restarted and the run goes on);
- ``unanswered``: a request with a readable id whose answer did not come within ``--timeout`` seconds
  (the client would wait forever);
- ``hangs``: the probe after a message was not answered within ``--timeout`` seconds: the server stopped
  serving (the process is restarted);
- ``invalid_frames``: frames the server wrote that are not JSON-RPC 2.0; ``duplicates``: ids answered twice;
- ``owed`` / ``answered``: requests with a readable id, and those answered.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "bench")]  # the tests' harness and strategies; emit()

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from common import emit  # noqa: E402
from rawwire import (  # noqa: E402
    FRAMINGS,
    FUZZ_IDS,
    LSP_METHODS,
    LSP_PARAMS,
    MCP_METHODS,
    MCP_PARAMS,
    RawLsp,
    RawMcp,
    RawProcess,
    corrupt,
    corruptions,
    framed,
    messages,
    owed_after,
    text_of,
)

FIXTURE = REPO / "tests" / "fixtures" / "shop"
KEEP = 5  # examples kept of each kind of failure
PROGRESS = 500  # messages between progress lines on stderr


class Run:
    """One server under fuzzing: the process (restarted after a crash or a hang) and the counts."""

    def __init__(self, kind: str, root: Path, timeout: float):
        self.kind, self.root, self.timeout = kind, root, timeout
        self.counts: dict[str, Any] = {
            "messages": 0, "owed": 0, "answered": 0, "unanswered": 0, "crashes": 0, "hangs": 0, "probes": 0,
            "invalid_frames": 0, "duplicates": 0, "restarts": 0, "examples": {},
        }  # fmt: skip
        self.server = self._start()

    def _start(self) -> RawProcess:
        cls = RawMcp if self.kind == "mcp" else RawLsp
        server = cls(self.root, self.root.parent / f"{self.kind}.log")
        if server.start() is None or not server.wait_indexed():
            raise SystemExit(f"spyglass {self.kind} did not start: see {self.root.parent / f'{self.kind}.log'}")
        return server

    def _note(self, kind: str, data: bytes) -> None:
        self.counts[kind] += 1
        examples = self.counts["examples"].setdefault(kind, [])
        if len(examples) < KEEP:
            examples.append(data[:300].decode("utf-8", "replace"))

    def _restart(self) -> None:
        self._collect()
        self.server.close()
        self.counts["restarts"] += 1
        self.server = self._start()

    def _collect(self) -> None:
        counts = self.server.counts
        self.counts["invalid_frames"] += len(counts.invalid)
        self.counts["duplicates"] += len(counts.duplicates)
        for kind, found in (("invalid_frames", counts.invalid), ("duplicates", counts.duplicates)):
            examples = self.counts["examples"].setdefault(kind, [])
            examples.extend(str(x)[:300] for x in found[: KEEP - len(examples)])
        counts.invalid.clear()
        counts.duplicates.clear()

    def one(self, sent: bytes, read: bytes) -> None:
        """Send one fuzzed message, wait for what it is owed, then probe."""
        self.counts["messages"] += 1
        if self.counts["messages"] % PROGRESS == 0:
            shown = ("owed", "answered", "unanswered", "crashes", "hangs", "restarts")
            print(self.kind, self.counts["messages"], {k: self.counts[k] for k in shown}, file=sys.stderr, flush=True)
        self.server.send(sent)
        owed, id_ = owed_after(read)
        if owed:
            self.counts["owed"] += 1
            if self.server.answer(id_, self.timeout) is not None:
                self.counts["answered"] += 1
        probe = "ping" if self.kind == "mcp" else "spyglass/status"
        answered = self.server.call(probe, None if self.kind == "mcp" else {}, self.timeout) is not None
        self.counts["probes"] += answered
        if owed and not self.server.answers_to(id_):
            self._note("unanswered", read)
        if not self.server.alive():
            self._note("crashes", read)
            self._restart()
        elif not answered:
            self._note("hangs", read)
            self._restart()

    def finish(self) -> dict[str, Any]:
        self.counts["normal_request_after"] = self.server.normal()
        self._collect()
        self.server.close()
        return self.counts


def fuzz(kind: str, n: int, timeout: float, random_seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"wire-{kind}-") as tmp:
        root = Path(tmp) / "shop"
        shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
        run = Run(kind, root, timeout)
        options = settings(
            max_examples=n,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        methods, params = (MCP_METHODS, MCP_PARAMS) if kind == "mcp" else (LSP_METHODS, LSP_PARAMS)
        framing = FRAMINGS if kind == "lsp" else st.just("line")  # MCP: one message a line

        @seed(random_seed)
        @options
        @given(shape=messages(methods, params), how=corruptions, frame=framing)
        def drive(shape, how, frame) -> None:
            data = corrupt(text_of(shape, next(FUZZ_IDS)), how)
            sent, read = (data + b"\n", data) if frame == "line" else framed(data, frame)
            run.one(sent, read)

        start = time.monotonic()
        try:
            drive()
        finally:
            counts = run.finish()
        counts["seconds"] = round(time.monotonic() - start, 1)
        counts["messages_per_second"] = round(counts["messages"] / max(counts["seconds"], 0.001), 1)
        return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=1000, help="fuzzed messages per server")
    parser.add_argument("--server", choices=["mcp", "lsp", "both"], default="both")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds an owed answer may take")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (the same seed, the same messages)")
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    kinds = ["mcp", "lsp"] if args.server == "both" else [args.server]
    report = {
        "command": "python -m bench.reliability_wire " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": args.seed,
        "timeout_seconds": args.timeout,
        "servers": {kind: fuzz(kind, args.messages, args.timeout, args.seed) for kind in kinds},
    }
    emit(report, args.out)
    bad = ("crashes", "hangs", "unanswered", "invalid_frames", "duplicates")
    failed = any(s[k] for s in report["servers"].values() for k in bad)
    failed |= any(s["owed"] != s["answered"] or not s["normal_request_after"] for s in report["servers"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
