"""Progress of `spyglass index`: off a terminal a plain line with a rate every few seconds, on one bars with a
rate and an ETA; the embedding bar moves with each model batch."""

import io
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from spyglass.cli import progress

LINE = re.compile(r"^spyglass: (\w[\w ]*): ([\d,]+)/([\d,]+) (\w+) \(([\d,.]+) \4/s, ETA [\dhms]+\)$")


def test_off_a_terminal_index_prints_progress_lines_with_a_rate(polyglot: Path):
    env = {**os.environ, "SPYGLASS_PROGRESS_INTERVAL": "0", "SPYGLASS_BATCH_SIZE": "8"}
    proc = subprocess.run(
        [sys.executable, "-m", "spyglass", "index"],
        cwd=polyglot,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # one stream: progress must come before the summary
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout
    lines = proc.stdout.splitlines()
    summary = next(i for i, line in enumerate(lines) if line.startswith("Indexed "))
    found = [m for m in map(LINE.match, lines[:summary]) if m]
    phases = {m[1] for m in found}
    assert {"Parsing", "Embedding"} <= phases, lines[:summary]
    embedded = [int(m[2].replace(",", "")) for m in found if m[1] == "Embedding"]
    total = int(next(m[3] for m in found if m[1] == "Embedding").replace(",", ""))
    assert total >= 100 and len(embedded) >= total // 8 - 2, embedded  # a line per batch of 8, not per 64
    assert embedded == sorted(embedded) and embedded[-1] == total


def test_on_a_terminal_the_bars_show_a_rate_and_an_eta():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=150, color_system=None)
    ticks = itertools.count(0, 0.5)
    with progress.progress(console, get_time=lambda: next(ticks)) as update:
        for done in range(0, 101, 20):
            update("embed", done, 200)
    text = out.getvalue()
    assert "Embedding" in text and "texts/s" in text, text
    assert re.search(r"ETA \d+s", text), text


def test_a_plain_line_comes_only_after_the_interval():
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=80)
    now = [0.0]
    with progress.progress(console, interval=5, get_time=lambda: now[0]) as update:
        for t, done in ((0, 0), (1, 10), (4, 40), (6, 60), (8, 80), (12, 120)):
            now[0] = float(t)
            update("parse", done, 200)
    lines = out.getvalue().splitlines()
    assert lines == [
        "spyglass: Parsing: 60/200 files (10 files/s, ETA 14s)",
        "spyglass: Parsing: 120/200 files (10 files/s, ETA 8s)",
    ], lines
