"""Progress of ``spyglass index`` on stderr, so that a long run is never silent.

On a terminal: one bar per phase with its count, rate and ETA. Off one (a log, CI, a pipe): a plain line
at most every few seconds (``SPYGLASS_PROGRESS_INTERVAL``, default 5), e.g.
``spyglass: Embedding: 1,024/5,000 texts (412 texts/s, ETA 10s)``.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from ..engine import Phase, ProgressFn

INTERVAL_ENV = "SPYGLASS_PROGRESS_INTERVAL"
DEFAULT_INTERVAL = 5.0
# phase -> (label, unit counted)
PHASE_LABELS: dict[Phase, tuple[str, str]] = {
    "scan": ("Scanning files", "files"),
    "parse": ("Parsing", "files"),
    "model": ("Loading model", ""),
    "embed": ("Embedding", "texts"),
}


def eta(seconds: float) -> str:
    """``8s``, ``4m05s``, ``2h10m``: short enough for a bar."""
    s = max(0, math.ceil(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def interval_from_env() -> float:
    try:
        return max(0.0, float(os.environ.get(INTERVAL_ENV, DEFAULT_INTERVAL)))
    except ValueError:
        return DEFAULT_INTERVAL


@contextlib.contextmanager
def progress(
    console: Console,
    enabled: bool = True,
    interval: float | None = None,
    get_time: Callable[[], float] = time.monotonic,
) -> Iterator[ProgressFn]:
    """A ``progress(phase, done, total)`` callback drawing on ``console``: bars on a terminal, else lines."""
    if not enabled:
        yield lambda *_: None
    elif console.is_terminal:
        with _bars(console, get_time) as update:
            yield update
    else:
        yield _Lines(console, interval_from_env() if interval is None else interval, get_time)


class _RateAndEta(ProgressColumn):
    """``412 texts/s, ETA 10s`` from rich's moving estimate of the task's speed."""

    def render(self, task) -> Text:
        unit = task.fields.get("unit")
        speed = task.finished_speed or task.speed
        if not unit or not speed:
            return Text("")
        text = f"{speed:,.0f} {unit}/s"
        if not task.finished and task.total:
            text += f", ETA {eta((task.total - task.completed) / speed)}"
        return Text(text, style="progress.data.speed")


@contextlib.contextmanager
def _bars(console: Console, get_time: Callable[[], float]) -> Iterator[ProgressFn]:
    bars = Progress(
        TextColumn("{task.description:<15}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        _RateAndEta(),
        console=console,
        transient=False,
        get_time=get_time,
    )
    tasks: dict[Phase, TaskID] = {}

    def update(phase: Phase, done: int, total: int) -> None:
        if phase == "embed" and "model" in tasks:
            bars.update(tasks["model"], completed=1, total=1)
        label, unit = PHASE_LABELS.get(phase, (phase, ""))
        if phase not in tasks:
            tasks[phase] = bars.add_task(label, total=total or None, unit=unit)
        bars.update(tasks[phase], completed=done, total=total or None)

    with bars:
        yield update


class _Lines:
    """Off a terminal: at most one line every ``interval`` seconds, with the count, the rate since the phase
    began and an ETA (or, for a phase without a count, its name: ``Loading model…``)."""

    def __init__(self, console: Console, interval: float, get_time: Callable[[], float]):
        self.console = console
        self.interval = interval
        self.get_time = get_time
        self.phase: Phase | None = None
        self.started = self.last = self.previous = get_time()

    def __call__(self, phase: Phase, done: int, total: int) -> None:
        now = self.get_time()
        label, unit = PHASE_LABELS.get(phase, (phase, ""))
        if phase != self.phase:
            # a phase first heard of part-way (after its first batch) began when the one before it ended
            self.phase, self.started = phase, now if done == 0 else self.previous
        self.previous = now
        if now - self.last < self.interval or (unit and not total):
            return
        self.last = now
        if not unit:
            self._say(f"{label}…")
            return
        line = f"{label}: {done:,}/{total:,} {unit}"
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        if rate > 0:
            line += f" ({rate:,.0f} {unit}/s, ETA {eta((total - done) / rate)})"
        self._say(line)

    def _say(self, line: str) -> None:
        self.console.print(f"spyglass: {line}", markup=False, highlight=False)
