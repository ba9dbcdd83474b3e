"""A kill -9 harness around real ``spyglass index`` processes (issue 21, crash safety).

Each *chain* changes the workspace (or not), starts ``python -m spyglass index`` and kills it with
SIGKILL at a moment chosen inside one phase (startup, scan, delete, parse, model, embed, finish), may
kill the run that recovers from it too, then lets one run finish. After every kill a copy of the index
(database and WAL, as the kill left them) must pass :func:`spyglass.engine.integrity.check_index`; after
the finishing run the index must not have been moved aside and must hold exactly the files and spans of a
clean build of the same tree (built once per tree state, without embedding, in another folder), with
every span embedded when that run embedded.

The phase of a kill comes from the progress lines the process prints (``SPYGLASS_PROGRESS_INTERVAL=0``
prints one per step) and, before the first line, from whether it has opened the index yet (``startup``:
imports; ``scan``: opening and recovering the index, walking the tree). Used by
``bench/reliability_crash.py`` (long runs) and ``tests/engine/test_crash_safety.py`` (a few kills).
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.integrity import IndexCheck, check_index

PHASES = ("startup", "scan", "delete", "parse", "model", "embed", "finish")
# the progress line that starts each phase after ``scan`` (see cli/progress.py PHASE_LABELS)
_LINE_PHASE = {"Scanning files": "delete", "Parsing": "parse", "Loading model": "model", "Embedding": "embed"}
# how long each phase lasts before any run was measured (seconds)
_DEFAULT_LENGTH = {
    "startup": 0.5,
    "scan": 0.03,
    "delete": 0.02,
    "parse": 1.0,
    "model": 0.3,
    "embed": 2.0,
    "finish": 0.05,
}
DB_DIR = ".spyglass"
FILLER_DIR = "logs"


# -- the workspace -------------------------------------------------------------------------------
def build_workspace(
    root: Path,
    sources: Iterable[tuple[Path, str]],
    generated: int = 0,
    filler: int = 0,
    functions: tuple[int, int] = (2, 4),
) -> None:
    """Fill ``root``: each (source folder, name) copied to ``root/name`` (no caches, no models, no index),
    ``generated`` made-up Python modules (each with ``functions`` functions, at least and at most), and
    ``filler`` tiny files that .gitignore leaves out (a longer walk)."""
    root.mkdir(parents=True, exist_ok=True)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "models", ".spyglass*", "*.onnx")
    for src, name in sources:
        shutil.copytree(src, root / name, ignore=skip, dirs_exist_ok=True)
    rng = random.Random(generated)
    for i in range(generated):
        _write_module(root / "generated" / f"mod_{i:04d}.py", rng, f"g{i}", functions)
    if filler:
        (root / ".gitignore").write_text(f"{FILLER_DIR}/**/*.log\n", encoding="utf-8")
        for i in range(filler):
            path = root / FILLER_DIR / f"d{i % 50:02d}" / f"f{i:05d}.log"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"line {i}\n", encoding="utf-8")


_WORDS = "parse index span token cache vector query search embed store file walk merge rank score".split()


def _write_module(path: Path, rng: random.Random, tag: str, functions: tuple[int, int] = (2, 4)) -> None:
    parts = [f'"""Module {tag}: {" ".join(rng.sample(_WORDS, 5))}."""\n']
    for j in range(rng.randint(*functions)):
        a, b = rng.sample(_WORDS, 2)
        parts.append(
            f"\n\ndef {a}_{b}_{tag}_{j}(value, limit={rng.randint(1, 99)}):\n"
            f'    """{a.title()} the {b} of value, at most limit times."""\n'
            f"    total = 0\n    for i in range(limit):\n        total += hash((value, i, {j!r})) % 7\n"
            f"    return total\n"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts), encoding="utf-8")


def _source_files(root: Path) -> list[Path]:
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not ({DB_DIR, FILLER_DIR} & set(p.relative_to(root).parts[:1])) and p.name != ".gitignore"
    )


def mutate(root: Path, rng: random.Random, counter: list[int]) -> str:
    """Change a few files of the tree as an editor, a checkout or a build would: edit (lines added in the
    middle or at the end), add, delete, rename. Returns what was done."""
    files = _source_files(root)
    done: Counter[str] = Counter()
    for _ in range(rng.randint(1, 6)):
        counter[0] += 1
        n = counter[0]
        action = rng.choices(["edit", "add", "delete", "rename"], weights=[6, 2, 1, 1])[0]
        python = [p for p in files if p.suffix == ".py" and p.exists()]
        if action == "add" or not python:
            _write_module(root / "added" / f"new_{n}.py", rng, f"n{n}")
        elif action == "edit":
            path = rng.choice(python)
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
            if rng.random() < 0.5:
                lines.append(f"\n\ndef edited_{n}(x):\n    return x * {n}\n")
            else:
                lines.insert(rng.randint(0, len(lines)), f"# edit {n}: {' '.join(rng.sample(_WORDS, 3))}\n")
            path.write_text("".join(lines), encoding="utf-8")
        elif action == "delete":
            rng.choice(python).unlink()
        else:
            path = rng.choice(python)
            path.rename(path.with_name(f"{path.stem}_r{n}.py"))
        done[action] += 1
        files = _source_files(root)
    return ", ".join(f"{k} {v}" for k, v in sorted(done.items()))


def tree_key(root: Path) -> str:
    """A digest of the tree's paths and contents (the state a clean build is made of)."""
    h = hashlib.sha256()
    for p in _source_files(root):
        h.update(p.relative_to(root).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:20]


# -- one `spyglass index` process ----------------------------------------------------------------
class IndexRun:
    """``spyglass index`` in a subprocess whose phase is followed from its progress lines."""

    def __init__(self, cmd: list[str], env: dict[str, str], db: Path):
        self.db = db
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env
        )
        self.lines: list[str] = []
        self.phase = "startup"
        self.starts: dict[str, float] = {}
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            now = time.monotonic() - self.t0
            with self._changed:
                self.lines.append(line)
                phase = self.phase
                if line.startswith("spyglass: "):
                    label = line[len("spyglass: ") :].split(":")[0].rstrip("…")
                    phase = _LINE_PHASE.get(label, phase)
                elif line.startswith("Indexed "):
                    phase = "finish"
                if phase != self.phase:
                    self.phase = phase
                    self.starts.setdefault(phase, now)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def _index_open(self) -> bool:
        try:
            fds = os.listdir(f"/proc/{self.proc.pid}/fd")
        except OSError:
            return False
        for fd in fds:
            try:
                if os.readlink(f"/proc/{self.proc.pid}/fd/{fd}").startswith(str(self.db)):
                    return True
            except OSError:
                continue
        return False

    def current_phase(self) -> str:
        if self.phase == "startup" and self._index_open():
            return "scan"
        return self.phase

    def kill_in(self, target: str, delay: float, timeout: float = 600) -> str | None:
        """SIGKILL ``delay`` seconds after ``target`` began (at once if a later phase came first). Returns
        the phase it was killed in, or None if it ended first."""
        deadline = time.monotonic() + timeout
        if target == "scan":  # no line marks it: from the moment the process has the index open
            while self.proc.poll() is None and self.phase == "startup" and time.monotonic() < deadline:
                if self._index_open():
                    break
                time.sleep(0.002)
            if self.phase != "startup":
                delay = 0.0
        elif target != "startup":
            with self._changed:
                while (
                    PHASES.index(self.phase) < PHASES.index(target)
                    and self.proc.poll() is None
                    and time.monotonic() < deadline
                ):
                    self._changed.wait(0.05)
                if self.phase != target:
                    delay = 0.0
        until = time.monotonic() + delay
        while self.proc.poll() is None and time.monotonic() < until:
            time.sleep(min(0.005, max(0.0, until - time.monotonic())))
        if self.proc.poll() is not None:
            self.finish()
            return None
        phase = self.current_phase()
        self.proc.send_signal(signal.SIGKILL)
        self.finish()
        return phase if self.proc.returncode == -signal.SIGKILL else None

    def finish(self, timeout: float = 900) -> int:
        code = self.proc.wait(timeout)
        self._reader.join(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return code

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def lengths(self) -> dict[str, float]:
        """How long each phase lasted (for a run that ended by itself)."""
        end = time.monotonic() - self.t0
        seen = sorted(self.starts.items(), key=lambda kv: kv[1])
        out = {"startup": seen[0][1] if seen else end}
        for (phase, start), nxt in zip(seen, [*(s for _, s in seen[1:]), end], strict=True):
            out[phase] = nxt - start
        return out


# -- the harness ---------------------------------------------------------------------------------
@dataclass
class Tally:
    kills: int = 0
    kills_by_phase: Counter[str] = field(default_factory=Counter)
    kills_by_chain: Counter[str] = field(default_factory=Counter)
    kills_in_recovery: int = 0
    kills_after_change: int = 0
    kills_embedding_runs: int = 0
    runs_ended_before_kill: int = 0
    chains: int = 0
    finishing_runs: int = 0
    finishing_runs_embedding: int = 0
    corrupt_after_kill: int = 0
    corrupt_after_recovery: int = 0
    integrity_failures: list[str] = field(default_factory=list)
    moved_aside: int = 0
    gitignore_wrong: int = 0
    failed_runs: int = 0
    mismatched_indexes: int = 0
    lost_spans: int = 0
    extra_spans: int = 0
    duplicated_spans: int = 0
    lost_files: int = 0
    extra_files: int = 0
    wrong_files: int = 0
    unembedded_spans: int = 0
    reference_builds: int = 0
    tree_changes: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not (
            self.corrupt_after_kill
            or self.corrupt_after_recovery
            or self.moved_aside
            or self.gitignore_wrong
            or self.failed_runs
            or self.mismatched_indexes
            or self.unembedded_spans
        )

    def summary(self) -> dict:
        out = {k: (dict(sorted(v.items())) if isinstance(v, Counter) else v) for k, v in self.__dict__.items()}
        out["integrity_failures"] = self.integrity_failures[:20]
        out["errors"] = self.errors[:20]
        out["seconds"] = round(self.seconds, 1)
        out["clean"] = self.clean
        return out


def compare(got: IndexCheck, clean: IndexCheck) -> dict[str, int]:
    """What a recovered index holds that a clean build of the same tree does not, and the reverse."""
    wrong = sum(1 for p in got.files.keys() & clean.files.keys() if got.files[p] != clean.files[p])
    return {
        "lost_spans": sum((clean.spans - got.spans).values()),
        "extra_spans": sum((got.spans - clean.spans).values()),
        "duplicated_spans": got.duplicated,
        "lost_files": len(clean.files.keys() - got.files.keys()),
        "extra_files": len(got.files.keys() - clean.files.keys()),
        "wrong_files": wrong,
    }


class CrashHarness:
    def __init__(
        self,
        root: Path,
        work: Path,
        *,
        python: str = sys.executable,
        pythonpath: str | None = None,
        seed: int = 0,
        nice: int = 0,
        log=None,
    ):
        self.root = root
        self.work = work
        self.db = root / DB_DIR / "index.db"
        self.rng = random.Random(seed)
        self.counter = [0]
        self.tally = Tally()
        self.references: dict[str, IndexCheck] = {}
        self.lengths: dict[tuple[bool, bool], dict[str, list[float]]] = {}
        self.log = log or (lambda msg: None)
        self.cmd = [python, "-m", "spyglass", "index"]
        if nice:
            self.cmd = ["nice", "-n", str(nice), *self.cmd]
        self.env = {**os.environ, "SPYGLASS_PROGRESS_INTERVAL": "0", "COLUMNS": "200"}
        if pythonpath:
            self.env["PYTHONPATH"] = pythonpath
        work.mkdir(parents=True, exist_ok=True)
        self._t0 = time.monotonic()

    # -- runs ------------------------------------------------------------------------------------
    def start(self, embed: bool, db: Path | None = None) -> IndexRun:
        db = db or self.db
        cmd = [*self.cmd, str(self.root)]
        if db != self.db:
            cmd += ["--db", str(db)]
        if not embed:
            cmd.append("--no-embed")
        return IndexRun(cmd, self.env, db)

    @staticmethod
    def _whole(kind: str) -> bool:
        return kind in ("fresh", "initial")

    def _expected(self, kind: str, embed: bool, phase: str) -> float:
        seen = self.lengths.get((self._whole(kind), embed), {}).get(phase)
        return statistics.median(seen[-20:]) if seen else _DEFAULT_LENGTH[phase]

    def _learn(self, kind: str, embed: bool, run: IndexRun) -> None:
        """Remember how long each phase of a run that ended by itself lasted."""
        for phase, length in run.lengths().items():
            self.lengths.setdefault((self._whole(kind), embed), {}).setdefault(phase, []).append(length)

    def kill_one(self, run: IndexRun, kind: str, embed: bool, target: str | None = None) -> str | None:
        """Kill ``run`` at a random moment of ``target`` (a random phase if None)."""
        if target is None:
            target = self.rng.choice(self._likely_phases(kind, embed))
        if target == "startup":  # no line marks its end: anywhere before the first line
            delay = self.rng.uniform(0, self._expected(kind, embed, "startup"))
        else:
            delay = self.rng.uniform(0, self._expected(kind, embed, target))
        return run.kill_in(target, delay)

    def _likely_phases(self, kind: str, embed: bool) -> list[str]:
        phases = ["startup", "scan", "delete", "parse"]
        if embed:
            phases += ["model", "embed", "embed"]
        return [*phases, "finish"]

    # -- checks ----------------------------------------------------------------------------------
    def check_snapshot(self, db: Path) -> IndexCheck | None:
        """Check a copy of the index exactly as a kill left it (the next run must find it sound)."""
        if not db.exists():
            return None
        snap = self.work / "snapshot"
        shutil.rmtree(snap, ignore_errors=True)
        snap.mkdir()
        for suffix in ("", "-wal"):
            src = db.with_name(db.name + suffix)
            if src.exists():
                shutil.copy2(src, snap / src.name)
        if (snap / db.name).stat().st_size == 0:
            return None  # killed before SQLite wrote its first page: nothing to check
        return check_index(snap / db.name, unfinished_ok=True)

    def reference(self) -> IndexCheck:
        """A clean, lexical-only build of the tree as it is now (cached by the tree's contents)."""
        key = tree_key(self.root)
        if key not in self.references:
            db = self.work / "reference" / key / "index.db"
            shutil.rmtree(db.parent, ignore_errors=True)
            run = self.start(embed=False, db=db)
            code = run.finish()
            if code != 0:
                raise RuntimeError(f"the clean build failed ({code}):\n{run.output}")
            ref = check_index(db)
            if not ref.sound:
                raise RuntimeError(f"the clean build is not sound: {ref.problems}")
            self.references[key] = ref
            self.tally.reference_builds += 1
            shutil.rmtree(db.parent, ignore_errors=True)
        return self.references[key]

    def _moved_aside(self, db: Path, output: str) -> int:
        aside = list(db.parent.glob(db.name + ".corrupt-*"))
        for p in aside:
            p.unlink()
        return int(bool(aside) or "moved it to" in output)

    def _after_kill(self, db: Path, what: str) -> None:
        check = self.check_snapshot(db)
        if check is not None and not check.sound:
            self.tally.corrupt_after_kill += 1
            self.tally.integrity_failures.append(f"after a kill {what}: {'; '.join(check.problems)}")

    def _finish(self, db: Path, embed: bool, kind: str) -> None:
        """Let one run end, then check the index against a clean build of the same tree."""
        run = self.start(embed, db)
        code = run.finish()
        t = self.tally
        t.finishing_runs += 1
        t.finishing_runs_embedding += int(embed)
        if code != 0:
            t.failed_runs += 1
            t.errors.append(f"`spyglass index` exited {code}: {run.output[-2000:]}")
        else:
            self._learn(kind, embed, run)
        t.moved_aside += self._moved_aside(db, run.output)
        ignore = db.parent / ".gitignore"
        if db.is_relative_to(self.root) and (not ignore.exists() or ignore.read_text(encoding="utf-8") != "*\n"):
            t.gitignore_wrong += 1
            t.errors.append(f"{ignore} does not hold '*' after a run that ended")
        got = check_index(db)
        if not got.sound:
            t.corrupt_after_recovery += 1
            t.integrity_failures.append(f"after recovery: {'; '.join(got.problems)}")
        diff = compare(got, self.reference())
        for k, v in diff.items():
            setattr(t, k, getattr(t, k) + v)
        if any(diff.values()):
            t.mismatched_indexes += 1
            t.errors.append(f"recovered index differs from a clean build: {diff}")
        if embed:
            t.unembedded_spans += got.unembedded

    # -- chains ----------------------------------------------------------------------------------
    def chain(
        self,
        kind: str,
        embed: bool,
        targets: list[str | None],
        change_between: bool = False,
        finish_embed: bool | None = None,
    ) -> None:
        """One chain: a run killed in each of ``targets`` in turn (the second and later ones recover from
        the kill before; ``change_between``: the tree may change again before each), then one run that
        ends, and the checks. ``kind``: "update" (the tree changes first), "idle" (nothing changed),
        "initial" (the workspace's first index) or "fresh" (a new index in a folder of its own)."""
        t = self.tally
        t.chains += 1
        db = self.db
        if kind == "fresh":
            db = self.work / "fresh" / "index.db"
            shutil.rmtree(db.parent, ignore_errors=True)
        elif kind == "update":
            what = mutate(self.root, self.rng, self.counter)
            t.tree_changes += 1
            self.log(f"changed the tree: {what}")
        for i, target in enumerate(targets):
            if i and change_between and self.rng.random() < 0.5:
                mutate(self.root, self.rng, self.counter)
                t.tree_changes += 1
            run = self.start(embed, db)
            phase = self.kill_one(run, kind if i == 0 else "recovery", embed, target)
            if phase is None:
                t.runs_ended_before_kill += 1
                self._learn(kind if i == 0 else "recovery", embed, run)
                if run.proc.returncode != 0:
                    t.failed_runs += 1
                    t.errors.append(f"`spyglass index` exited {run.proc.returncode}: {run.output[-2000:]}")
                t.moved_aside += self._moved_aside(db, run.output)
                continue
            t.kills += 1
            t.kills_by_phase[phase] += 1
            t.kills_by_chain[kind] += 1
            t.kills_in_recovery += int(i > 0)
            t.kills_after_change += int(kind == "update")
            t.kills_embedding_runs += int(embed)
            t.moved_aside += self._moved_aside(db, run.output)
            self._after_kill(db, f"in {phase} ({kind}, kill {i + 1} of the chain)")
            self.log(f"killed in {phase} ({kind}{', embedding' if embed else ''}, {i + 1}/{len(targets)})")
        self._finish(db, embed if finish_embed is None else finish_embed, kind if self._whole(kind) else "recovery")
        t.seconds = time.monotonic() - self._t0

    def random_chain(self) -> None:
        """A chain drawn at random: mostly updates of the tree, some idle runs and fresh builds; half of
        the first kills are followed by a kill of the recovering run (and sometimes a third)."""
        kind = self.rng.choices(["update", "idle", "fresh"], weights=[6, 1, 2])[0]
        # a fresh index would embed the whole tree after every kill: fresh chains are lexical only
        embed = kind != "fresh" and self.rng.random() < 0.5
        finish_embed = embed or (kind != "fresh" and self.rng.random() < 0.3)
        n = 1 + (self.rng.random() < 0.5) + (self.rng.random() < 0.2)
        self.chain(kind, embed, [None] * n, change_between=kind == "update", finish_embed=finish_embed)

    def calibrate(self) -> None:
        """One uninterrupted run of each kind, so kill delays fit this machine and tree."""
        for embed in (False, True):
            run = self.start(embed)
            if run.finish() == 0:
                self._learn("update", embed, run)
