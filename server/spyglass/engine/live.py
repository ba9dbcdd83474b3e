"""A live index: one workspace kept fresh by a long-running process (the language server, the MCP server).

One writer thread owns every write, in this order of urgency:
1. open editor buffers, after a short debounce (unsaved text is searchable: lexical at once, vectors next);
2. files changed on disk (watchfiles: git checkouts, agents, generators), in batches;
3. a full reconcile with the disk (at start, on request, when an ignore file changes);
4. embedding pending spans, a batch at a time, yielding to 1-3 whenever they have work.
Readers (searches) run on other threads at any time: SQLite's WAL lets them read while the writer writes.

If another process holds the workspace's writer lock, this one follows: it serves reads and retries the
lock every few seconds, taking over when the owner exits. The owner listens for other processes that
want the index brought up to date (``spyglass index``; see owner.py). Everything here is engine-only:
callers are told about progress and state through two plain callbacks.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from . import gitinfo, owner
from .answers import FolderState, LiveStatus, PendingWork, Role
from .buffers import Buffer, TextChange
from .errors import IndexLocked, OutsideWorkspace, SpyglassError
from .indexer import CHANGE_COUNTS, IndexReport, Phase, ProgressFn
from .workspace import Workspace

log = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 0.25  # buffer edits wait this long for the next keystroke
WATCH_DEBOUNCE_MS = 150  # watchfiles gathers changes for this long
FILES_PER_STEP = 50  # changed files indexed between checks for buffer edits
EMBED_TEXTS_PER_STEP = 16  # texts embedded between checks for other work (a query waits at most this long)
FOLLOWER_RETRY_SECONDS = 3.0
MODEL_THREAD = "spyglass-model"
UPDATE_POLL_SECONDS = 0.25  # how often an update asked for by another process checks that we are not stopping
STOPPED = "the index was closed before it was brought up to date"
# what a re-index request gets from a follower, which writes nothing (the owner re-indexes changes)
FOLLOWING = "another Spyglass process owns this index and re-indexes changes itself; nothing to do"
RESYNC_NAMES = frozenset({".gitignore", ".spyglassignore", ".ignore", ".spyglass.toml", "pyproject.toml"})

StatusFn = Callable[[LiveStatus], None]
# one piece of the writer's work: edited buffers, changed files, a full sync, a batch of embeddings
WorkKind = Literal["buffers", "files", "sync", "embed", "history"]
WorkFn = Callable[[WorkKind, float], None]  # (what was done, seconds it took)


@dataclass
class _Work:
    """What the writer still has to do; guarded by ``LiveIndex._cond``."""

    buffers: dict[str, bool] = field(default_factory=dict)  # path -> open (False: closed, back to the disk)
    buffers_due: float = 0.0  # monotonic time when the buffers' debounce ends
    files: set[str] = field(default_factory=set)
    full_sync: bool = False
    history: bool = False  # HEAD or a branch moved: the history needs a sync
    waiters: list[Future] = field(default_factory=list)  # resolved after the next full sync
    file_waiters: list[Future] = field(default_factory=list)  # resolved once ``files`` is drained
    file_counts: dict[str, int] = field(default_factory=dict)  # what draining ``files`` did so far

    def urgent(self, now: float) -> bool:
        return bool(self.files or self.full_sync or self.history or (self.buffers and now >= self.buffers_due))


class _YieldCheck:
    """The ``cancel`` of a long embedding run: set once other work is due (an edit's debounce ended, a
    file changed, a sync was asked for) or the index is stopping."""

    def __init__(self, live: LiveIndex):
        self.live = live

    def is_set(self) -> bool:
        live = self.live
        return live._stop.is_set() or live.paused or live._work.urgent(time.monotonic())


class _PausedCheck:
    """The ``cancel`` of a reconcile: set when the user cancelled it or the index is stopping."""

    def __init__(self, live: LiveIndex):
        self.live = live

    def is_set(self) -> bool:
        return self.live._stop.is_set() or self.live.paused


class LiveIndex:
    def __init__(
        self,
        workspace: Workspace,
        *,
        watch: bool = True,
        on_status: StatusFn | None = None,
        on_progress: ProgressFn | None = None,
        on_work: WorkFn | None = None,
        debounce: float = DEBOUNCE_SECONDS,
    ):
        self.ws = workspace
        self.watch = watch
        self.debounce = debounce
        self._on_status = on_status or (lambda _s: None)
        self._on_progress = on_progress or (lambda *_a: None)
        self._on_work = on_work or (lambda *_a: None)
        self._cond = threading.Condition()
        self._work = _Work(full_sync=True)
        self._stop = threading.Event()
        self._open: dict[str, Buffer] = {}  # open editor buffers by path (guarded by _cond)
        self._threads: list[threading.Thread] = []
        self.state: FolderState = "starting"
        self.role: Role = "unknown"
        self.error: str | None = None
        self.last_report: IndexReport | None = None
        self.last_change: float | None = None
        self.updates = 0  # writes applied since start (buffers, files, syncs)
        self._embed_blocked = False  # the model failed to load: do not retry in a loop
        self.paused = False  # the user cancelled the background work; a reindex request resumes it
        self.model_error: str | None = None  # why vectors cannot be made (outlives ``error``, which a sync clears)
        self.embedded = {"spans_embedded": 0, "texts_embedded": 0}  # since start
        self._listeners: list[ProgressFn] = []  # progress for updates other processes asked for
        self._owner: owner.OwnerServer | None = None  # answers other processes while we hold the lock

    # -- life ------------------------------------------------------------------------------------
    def start(self) -> LiveIndex:
        """Start the writer (and the watcher); the model loads beside them, and if it has not loaded within
        MODEL_WAIT_SECONDS of a search, that search answers from the lexical signals (flagged in its ``index.note``)."""
        self.ws.searcher.wait_for_model = False
        if self.ws.embedder is not None:
            loader = threading.Thread(target=self._load_model, name=MODEL_THREAD, daemon=True)
            self._threads.append(loader)
            loader.start()
        writer = threading.Thread(target=self._run, name=f"spyglass-writer:{self.ws.root.name}", daemon=True)
        self._threads.append(writer)
        writer.start()
        if self.watch:
            watcher = threading.Thread(target=self._watch, name=f"spyglass-watch:{self.ws.root.name}", daemon=True)
            self._threads.append(watcher)
            watcher.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the writer and the watcher, then close the workspace (which gives this session's unsaved
        buffers the disk's text back). Safe to call twice. The model loader is not waited for: it writes
        nothing, and loading cannot be interrupted."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        for t in self._threads:
            if t.name != MODEL_THREAD:
                t.join(timeout)
        self._answer_waiters(SpyglassError(STOPPED))
        if self._owner is not None:
            self._owner.close()  # before the lock goes: the next owner's socket must not be removed
            self._owner = None
        self.ws.close()

    # -- what callers report ---------------------------------------------------------------------
    def buffer_changed(self, path: str | Path, text: str, changes: list[TextChange] | None = None) -> None:
        """An editor buffer changed (unsaved): ``text`` is its whole new text and ``changes`` the edits that
        made it, if known (they make the re-parse incremental). Indexed after the debounce."""
        rel = self.ws.relpath(path)
        with self._cond:
            buf = self._open.get(rel)
            if buf is None:
                self._open[rel] = Buffer(text)
            elif changes:
                buf.edit(changes, text)
            else:
                buf.replace(text)
            self._queue_buffer(rel, True)

    def buffer_closed(self, path: str | Path) -> None:
        """An editor buffer was closed or saved: the disk is the truth for it again."""
        rel = self.ws.relpath(path)
        with self._cond:
            self._open.pop(rel, None)
            self._queue_buffer(rel, False)

    def files_changed(self, paths: list[str | Path]) -> None:
        """Files changed on disk (also called by the watcher)."""
        rels = []
        for p in paths:
            try:
                rels.append(self.ws.relpath(p))
            except OutsideWorkspace:
                continue
        if not rels:
            return
        with self._cond:
            if any(Path(r).name in RESYNC_NAMES for r in rels):
                self._work.full_sync = True
            self._work.files.update(rels)
            self._cond.notify_all()

    def history_changed(self) -> None:
        """HEAD or a branch moved (also called by the watcher): bring the history up to date."""
        with self._cond:
            self._work.history = True
            self._cond.notify_all()

    def pause(self) -> None:
        """Stop the background work in progress (a cancelled progress bar): a running reconcile stops at
        its next transaction and embedding waits; edits and file changes are still indexed. A reindex
        request resumes everything."""
        self.paused = True
        self._emit()

    def request_sync(self, paths: Sequence[str | Path] | None = None) -> Future:
        """Re-index ``paths`` (or reconcile everything with the disk); the future resolves to a summary
        of what changed once it is done (vectors may still follow)."""
        self.paused = False
        fut: Future = Future()
        if paths:
            self.files_changed(list(paths))
        with self._cond:
            if self._stop.is_set():
                fut.set_exception(SpyglassError(STOPPED))
            elif paths and self._work.files:
                self._work.file_waiters.append(fut)
            elif paths:  # nothing inside the workspace
                fut.set_result({"changed_paths": [], "deleted_paths": []})
            else:
                self._work.full_sync = True
                self._work.waiters.append(fut)
            self._cond.notify_all()
        return fut

    def update(self, progress: ProgressFn | None = None) -> dict:
        """Bring the index up to date as ``spyglass index`` would, for another process that asked (see
        owner.py): a full sync with the disk, then every pending vector (unless the model cannot load).
        Blocks until done, ``progress`` hearing every phase; returns the run's ``report`` (an
        ``IndexReport.summary()``) and the ``index`` freshness."""
        started = time.perf_counter()
        before = dict(self.embedded)
        if progress is not None:
            self._listeners.append(progress)
        try:
            report = self._until_done(self.request_sync())
            while not self.wait_idle(UPDATE_POLL_SECONDS, embedded=True):
                self._check_running()
        finally:
            if progress is not None:
                self._listeners.remove(progress)
        for key, n in self.embedded.items():
            report[key] = report.get(key, 0) + n - before[key]
        report["model_error"] = report.get("model_error") or self.model_error
        report["seconds"] = {**report.get("seconds", {}), "total": round(time.perf_counter() - started, 3)}
        return {"report": report, "index": asdict(self.ws.freshness())}

    def _until_done(self, fut: Future) -> dict:
        while True:
            self._check_running()
            try:
                return fut.result(UPDATE_POLL_SECONDS)
            except FutureTimeout:
                continue
            except SpyglassError:
                self._check_running()  # stopping: say so in the words the other process expects
                raise

    def _check_running(self) -> None:
        if self._stop.is_set():
            raise SpyglassError("the process that owns the index is shutting down; run `spyglass index` again")

    def wait_idle(self, timeout: float = 60.0, embedded: bool = False) -> bool:
        """Block until nothing is queued (and, with ``embedded``, nothing waits for a vector)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._cond:
                idle = self.state in ("idle", "following", "error") and not self._pending_locked()
            if idle and (not embedded or self.state != "embedding"):
                return True
            time.sleep(0.02)
        return False

    def status(self) -> LiveStatus:
        """What the index covers and what is still to do: for status bars and ``index_status``."""
        with self._cond:
            pending = PendingWork(len(self._work.buffers), len(self._work.files), self._work.full_sync)
        return LiveStatus(
            **vars(self.ws.freshness()),
            root=str(self.ws.root),
            state=self.state,
            role=self.role,
            pending=pending,
            open_buffers=len(self.ws.buffers),
            paused=self.paused,
            model_loaded=bool(self.ws.embedder and self.ws.embedder.loaded),
            error=self.error,
            updates=self.updates,
        )

    # -- internals -------------------------------------------------------------------------------
    def _queue_buffer(self, rel: str, is_open: bool) -> None:  # with _cond held
        self._work.buffers[rel] = is_open
        self._work.buffers_due = time.monotonic() + self.debounce
        self._cond.notify_all()

    def _answer_waiters(self, error: SpyglassError) -> None:
        """Every caller waiting for a sync hears of ``error`` (however it raced with their request), and the
        work they asked for is dropped."""
        with self._cond:
            waiters = self._work.waiters + self._work.file_waiters
            self._work.waiters, self._work.file_waiters = [], []
            self._work.full_sync = False
            self._work.files.clear()
        for fut in waiters:
            fut.set_exception(error)

    def _pending_locked(self) -> bool:
        w = self._work
        return bool(w.buffers or w.files or w.full_sync)

    def _set_state(self, state: FolderState) -> None:
        if state != self.state:
            self.state = state
            self._emit()

    def _emit(self) -> None:
        try:
            self._on_status(self.status())
        except Exception:  # a front end's callback must never stop the writer
            log.exception("status callback failed")

    def _progress(self, phase: Phase, done: int, total: int) -> None:
        for listener in (self._on_progress, *self._listeners):
            try:
                listener(phase, done, total)
            except Exception:
                log.exception("progress callback failed")

    def _take_ownership(self) -> bool:
        try:
            self.ws.acquire_writer()
        except IndexLocked as e:
            if self.role != "follower":
                log.info("%s: %s; serving reads and waiting for the lock", self.ws.root, e)
                self.role = "follower"
                self._set_state("following")
            return False
        if self.role != "owner":
            self.role = "owner"
            with self._cond:
                self._work.full_sync = True  # the previous owner may have missed changes
            self._owner = owner.serve(self.ws.db_path.parent, self.update)
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._take_ownership():
                self._stop.wait(FOLLOWER_RETRY_SECONDS)
                continue
            try:
                self._step()
            except SpyglassError as e:
                self._fail(e)
            except Exception as e:  # keep serving reads whatever happened
                log.exception("indexing failed")
                self._fail(SpyglassError(f"indexing failed: {e}"))

    def _fail(self, error: SpyglassError) -> None:
        self.error = str(error)
        self._answer_waiters(error)
        self._set_state("error")
        self._stop.wait(1.0)

    def _step(self) -> None:
        """Do the most urgent piece of work, or wait for some."""
        with self._cond:
            now = time.monotonic()
            w = self._work
            if not w.urgent(now) and not self._has_embedding_work():
                if self.state not in ("idle", "error"):
                    self._set_state("idle")
                self._cond.wait(max(0.0, w.buffers_due - now) if w.buffers else 1.0)
                return
            buffers = {}
            if w.buffers and now >= w.buffers_due:
                buffers, w.buffers = w.buffers, {}
            files = []
            if not buffers and w.files:
                files = sorted(w.files)[:FILES_PER_STEP]
                w.files.difference_update(files)
            full = not buffers and not files and w.full_sync
            if full:
                w.full_sync = False
                w.history = False  # a full sync reads the history too
                waiters, w.waiters = w.waiters, []
            history = not buffers and not files and not full and w.history
            if history:
                w.history = False
        started = time.perf_counter()
        kind: WorkKind
        if buffers:
            kind = "buffers"
            self._apply_buffers(buffers)
        elif files:
            kind = "files"
            self._apply_files(files)
        elif full:
            kind = "sync"
            self._full_sync(waiters)
        elif history:
            kind = "history"
            if not self.ws.sync_history(cancel=_YieldCheck(self)).complete and not self.paused:
                with self._cond:  # an edit came first: go on after it (paused: at the next reindex)
                    self._work.history = True
            self._changed()
        else:
            kind = "embed"
            self._embed_some()
        try:
            self._on_work(kind, time.perf_counter() - started)
        except Exception:  # a front end's callback must never stop the writer
            log.exception("work callback failed")

    def _load_model(self) -> None:
        if self.ws.embedder is None:
            return
        try:
            self.ws.embedder.load()
        except SpyglassError as e:  # ModelLoadError: the embedding step reports it too
            self.error = self.model_error = str(e)
            self._embed_blocked = True
            log.error("%s", e)
            self._emit()

    def _has_embedding_work(self) -> bool:
        if self.ws.embedder is None or self._embed_blocked or self.paused:
            return False
        return self.ws.store.count_pending() > 0

    def _apply_buffers(self, buffers: dict[str, bool]) -> None:
        for rel, is_open in buffers.items():
            with self._cond:
                buf = self._open.get(rel) if is_open else None
            if buf is None:
                self.ws.update_file(rel, embed=False)  # closed or saved: from the disk
                continue
            text, tree, generation = buf.snapshot()
            report = self.ws.update_file(rel, text, embed=False, old_tree=tree)
            buf.parsed(report.parse_tree, generation)
        self._changed()

    def _apply_files(self, files: list[str]) -> None:
        self._set_state("indexing")
        counts: dict[str, int] = {}
        for rel in files:
            if rel in self.ws.buffers:
                continue  # an open buffer is newer than the disk until it is saved or closed
            try:
                report = self.ws.update_file(rel, embed=False)
            except OSError as e:  # unreadable, or gone mid-read: the next change or sync retries
                log.warning("cannot index %s: %s", rel, e)
                continue
            for key in CHANGE_COUNTS:
                counts[key] = counts.get(key, 0) + getattr(report, key)
        self._changed()
        with self._cond:
            w = self._work
            for key, n in counts.items():
                w.file_counts[key] = w.file_counts.get(key, 0) + n
            if w.files:
                return
            waiters, w.file_waiters, summary, w.file_counts = w.file_waiters, [], dict(w.file_counts), {}
        for fut in waiters:
            fut.set_result(summary)

    def _full_sync(self, waiters: list[Future]) -> None:
        self._set_state("indexing")
        try:
            report = self.ws.index(progress=self._progress, cancel=_PausedCheck(self), embed=False, history=False)
        except Exception:
            with self._cond:  # ``_fail`` answers them, with the error it reports
                self._work.waiters[:0] = waiters
            raise
        self.last_report = report
        self.error = None
        with self._cond:  # the history next, as a step of its own that edits can interrupt
            self._work.history = True
        self._changed()
        summary = report.summary()
        for fut in waiters:
            fut.set_result(summary)

    def _embed_some(self) -> None:
        self._set_state("embedding")
        report = self.ws.embed_pending(
            progress=self._progress, cancel=_YieldCheck(self), texts_per_write=EMBED_TEXTS_PER_STEP
        )
        for key in self.embedded:
            self.embedded[key] += getattr(report, key)
        if report.model_error:
            log.error("%s", report.model_error)
            self._embed_blocked = True
            self.error = self.model_error = report.model_error
            self._emit()
        elif report.spans_embedded:
            self._emit()

    def _changed(self) -> None:
        self.updates += 1
        self.last_change = time.time()
        self._emit()

    # -- the disk --------------------------------------------------------------------------------
    def _watch(self) -> None:
        try:
            import watchfiles
        except ImportError:  # pragma: no cover - a dependency
            log.error("watchfiles is not installed: changes on disk are seen only on reindex")
            return
        index_dir = self.ws.db_path.parent
        git_dirs = gitinfo.watched_dirs(self.ws.root)
        dot_git = self.ws.root / ".git"

        def keep(_change, path: str) -> bool:
            p = Path(path)
            if any(p.is_relative_to(d) for d in git_dirs):
                return gitinfo.moves_head(p, git_dirs)
            return not (p.is_relative_to(index_dir) or p.is_relative_to(dot_git))

        outside = [d for d in git_dirs if not d.is_relative_to(self.ws.root)]
        try:
            for changes in watchfiles.watch(
                self.ws.root,
                *outside,
                watch_filter=keep,
                debounce=WATCH_DEBOUNCE_MS,
                step=50,
                stop_event=self._stop,
                raise_interrupt=False,
                yield_on_timeout=False,
            ):
                paths = [Path(p) for _, p in changes]
                if any(gitinfo.moves_head(p, git_dirs) for p in paths):
                    self.history_changed()
                self.files_changed([p for p in paths if not any(p.is_relative_to(d) for d in git_dirs)])
        except Exception as e:  # e.g. too many inotify watches: say so, keep serving
            log.error("watching %s for changes failed (%s); changes on disk are seen only on reindex", self.ws.root, e)
