"""The engine's one facade: open a workspace, index it, search it, fetch spans, report status.

The CLI, the language server and the MCP server talk only to this class.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import re
import shutil
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import apsw

from . import access, gitinfo
from .answers import (
    DiskChanges,
    Freshness,
    HistoryAnswer,
    HistoryState,
    HotFile,
    LineContext,
    MatchLine,
    Related,
    RelatedItem,
    SearchAnswer,
    SearchedIndex,
    SearchHit,
    SkippedFile,
    SpanLookup,
    SpanStatus,
    SpanSummary,
    Status,
    SymbolMatch,
)
from .asking import AskAnswer, ask_llm, check_endpoint
from .context import line_context
from .discovery import Escaped, check_path, discover, read_inside
from .embedding import Embedder
from .errors import IndexCorrupt, IndexLocked, IndexOutdated, OutsideWorkspace, SpyglassError
from .filerules import MISSING, UNREADABLE
from .history.reader import HistoryReader
from .history.recorder import HistoryReport, sync_history
from .indexer import Cancel, Indexer, IndexReport, ProgressFn, content_hash
from .lock import WriterLock
from .notebooks import code_view, is_notebook
from .parsing import parse_spans, split_lines
from .redact import FileSecrets
from .related import RelatedSpan, related_spans, span_at
from .search import (
    DEFAULT_RANKING,
    NO_PRIORS,
    CrossEncoderReranker,
    Priors,
    Searcher,
    SearchFilters,
    Tier,
    VectorCache,
)
from .settings import PriorSettings, Settings, load_settings
from .spans import Span, parse_span_id
from .store import Store, StoredSpan
from .symbols import find_symbols
from .uses import file_line

log = logging.getLogger(__name__)
SECRETS_KEPT = 1024  # files whose secrets are kept found (a few hundred bytes each, most files have none)

DB_NAME = "index.db"
LOCK_NAME = "writer.lock"


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` that has a ``.spyglass`` index, else ``start`` itself."""
    start = start.resolve()
    for folder in (start, *start.parents):
        try:
            if (folder / ".spyglass" / DB_NAME).exists():
                return folder
        except PermissionError:  # an index we may not read is still the one meant: opening it will say so
            return folder
    return start


def _remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


P = ParamSpec("P")
R = TypeVar("R")


def _damage_is_index_corrupt(method: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], R]:
    """SQLite's damage errors met while answering become the engine's IndexCorrupt (front ends know no apsw)."""

    @functools.wraps(method)
    def answer(self: Any, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except (apsw.CorruptError, apsw.NotADBError) as e:
            raise IndexCorrupt(f"the index is damaged ({e}); rebuild it with `spyglass index --rebuild`") from e

    return answer


class Workspace:
    def __init__(
        self,
        root: Path,
        settings: Settings,
        db_path: Path,
        store: Store,
        warnings: list[str],
        memory_vectors: bool = False,
        lock: WriterLock | None = None,
    ):
        self.root = root
        self.settings = settings
        self.db_path = db_path
        self.store = store
        self.warnings = warnings
        self.embedder = (
            Embedder(
                settings.model,
                encoder=settings.encoder,
                threads=settings.threads,
                max_tokens=settings.embed_max_tokens,
                batch_size=settings.batch_size,
                embed_url=settings.embed_url,
                api_key_env=settings.embed_api_key_env,
                timeout=settings.embed_timeout,
            )
            if settings.embed
            else None
        )
        self.lock = lock or WriterLock(db_path.parent / LOCK_NAME)
        vectors = VectorCache(store) if memory_vectors else None  # None: sqlite-vec's scan
        reranker = CrossEncoderReranker(settings.reranker, settings.threads) if settings.reranker else None
        ranking = replace(
            DEFAULT_RANKING,
            priors=_priors(settings.search.priors),
            recency=settings.search.recency,
            recency_fusion="rrf",
        )
        self.searcher = Searcher(store, self.embedder, vectors, reranker, ranking)
        self.searcher.read_text = self._current_text  # snippets are numbered as the file is now
        self.buffers: dict[str, str] = {}  # unsaved editor text by path, newer than the disk
        # where the history comes from when the tree is not a checkout (an evaluation's materialised commit):
        # a git directory and the commit; None: the repository the root is in, at its HEAD
        self.history_source: tuple[Path, str] | None = None
        # tags the buffers this open writes into the index: they are this session's, and the disk's text
        # comes back when it ends (close(); or, if the process died, whoever takes the writer lock next)
        self.session = uuid.uuid4().hex
        # every text an answer carries from a file (snippets, span text, names, signatures, previews) has its
        # secrets replaced by markers, for every front end; a front end may turn it off at a human's explicit
        # request (`spyglass search --show-secrets`)
        self.redact = True
        self._secrets: OrderedDict[str, tuple[tuple | None, FileSecrets]] = OrderedDict()  # path -> (version, secrets)
        self._secrets_lock = threading.Lock()  # front ends answer from several threads

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        root: Path | str,
        *,
        db: Path | str | None = None,
        overrides: dict[str, Any] | None = None,
        writer: bool = False,
        rebuild: bool = False,
        memory_vectors: bool = False,
        wait: float = 0.0,
        on_wait=None,
    ) -> Workspace:
        """Open the index of ``root``: read-only, or as a ``writer`` (which creates it if missing, migrates
        it, and moves a corrupt one aside); ``rebuild`` takes the writer lock (waiting up to ``wait``
        seconds; IndexLocked if another process keeps it) and throws the old index away. Long-running
        processes pass ``memory_vectors`` to search an in-memory copy of the vectors (faster when warm)."""
        root = Path(root).resolve()
        if not root.is_dir():
            raise FileNotFoundError(f"workspace root {root} is not a folder")
        if writer:
            access.check_readable(root)
        settings, warnings = load_settings(root, overrides)
        for w in warnings:
            log.warning("%s", w)
        db_path = Path(db).expanduser().resolve() if db else cls.default_db(root, settings)
        lock = WriterLock(db_path.parent / LOCK_NAME)
        try:
            store = cls._open_store(root, db_path, lock, writer, rebuild, wait, on_wait, warnings)
        except OSError as e:
            if access.is_denied(e):
                raise access.index_denied(db_path, writer, e) from e
            raise
        ws = cls(root, settings, db_path, store, warnings, memory_vectors, lock)
        if not writer:
            ws._restore_ended_sessions_as_reader()
        return ws

    @classmethod
    def _open_store(
        cls, root: Path, db_path: Path, lock: WriterLock, writer: bool, rebuild: bool, wait: float, on_wait, warnings
    ) -> Store:
        if writer:
            cls._prepare_index_dir(root, db_path)
        if rebuild:
            lock.acquire(wait, on_wait)  # never delete an index another process is writing
            _remove_db(db_path)
        try:
            return cls._store(db_path, writer, warnings)
        except IndexOutdated:
            if not cls._migrate_if_free(db_path, lock):
                raise
            return cls._store(db_path, writer, warnings)
        except BaseException:
            lock.release()
            raise

    @staticmethod
    def _migrate_if_free(db_path: Path, lock: WriterLock) -> bool:
        """A reader that finds an index of an older schema migrates it when no process is writing it (a
        Spyglass upgrade then needs no `spyglass index` first); False when another process holds the lock."""
        try:
            lock.acquire()
        except (IndexLocked, OSError):
            return False
        try:
            Store(db_path).close()
        except (SpyglassError, OSError, apsw.Error) as e:  # a read-only file system, say: the reader says so
            log.warning("could not migrate the index at %s: %s", db_path, e)
            return False
        finally:
            lock.release()
        log.info("migrated the index at %s to the current schema", db_path)
        return True

    @staticmethod
    def _store(db_path: Path, writer: bool, warnings: list[str]) -> Store:
        try:
            return Store(db_path, readonly=not writer, create=writer)
        except IndexCorrupt:
            if not writer:
                raise
            aside = db_path.with_name(f"{db_path.name}.corrupt-{int(time.time())}")
            shutil.move(db_path, aside)
            _remove_db(db_path)
            msg = f"the index was damaged; moved it to {aside.name} and building a new one"
            log.warning("%s", msg)
            warnings.append(msg)
            return Store(db_path)

    @staticmethod
    def default_db(root: Path, settings: Settings) -> Path:
        index_dir = Path(settings.index_dir).expanduser()
        return (index_dir if index_dir.is_absolute() else root / index_dir) / DB_NAME

    @staticmethod
    def _prepare_index_dir(root: Path, db_path: Path) -> None:
        folder = db_path.parent
        folder.mkdir(parents=True, exist_ok=True)
        ignore = folder / ".gitignore"
        # an empty one is what a kill between creating and writing it left: written again, and atomically
        if folder.is_relative_to(root) and (not ignore.exists() or ignore.stat().st_size == 0):
            partial = folder / f".gitignore.{uuid.uuid4().hex}.tmp"
            partial.write_text("*\n", encoding="utf-8")
            partial.replace(ignore)

    def close(self) -> None:
        """Give this session's unsaved buffers back to the disk, release the writer lock and close."""
        if self.lock.held:
            try:
                self._restore_buffers(self.store, lambda session: session == self.session)
            except (SpyglassError, OSError, apsw.Error) as e:  # the next writer restores them instead
                log.warning("could not restore the disk's text of open buffers: %s", e)
        self.buffers.clear()
        if self.embedder is not None:
            self.embedder.close()
        self.lock.release()
        self.store.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- paths -----------------------------------------------------------------------------------
    def relpath(self, path: str | Path) -> str:
        """A POSIX path relative to the root; refuses anything that resolves outside it."""
        if "\x00" in str(path):
            raise OutsideWorkspace(f"{str(path)!r} is not a path in the workspace (it holds a NUL byte)")
        p = Path(path)
        full = (p if p.is_absolute() else self.root / p).resolve()
        if not full.is_relative_to(self.root):
            raise OutsideWorkspace(f"{path} is outside the workspace {self.root}")
        return full.relative_to(self.root).as_posix()

    # -- writing ---------------------------------------------------------------------------------
    def _indexer(self) -> Indexer:
        return Indexer(self.root, self.store, self.settings, self.embedder)

    def acquire_writer(self, timeout: float = 0.0, on_wait=None) -> None:
        """Take the writer lock; the first thing a new writer does is put back the disk's text of buffers
        whose session has ended (only a lock holder writes buffers, so any but ours are from the past)."""
        if self.lock.held:
            return
        try:
            self.lock.acquire(timeout, on_wait)
        except OSError as e:
            if access.is_denied(e):
                raise access.index_denied(self.db_path, True, e) from e
            raise
        self._restore_buffers(self.store, lambda session: session != self.session)

    def _restore_ended_sessions_as_reader(self) -> None:
        """A reader (``spyglass search``) finding buffers of an ended session restores them itself when
        nobody holds the writer lock; a holder that is alive restored them when it took the lock."""
        if not self.store.open_buffers():
            return
        try:
            self.lock.acquire()
        except (IndexLocked, OSError):
            return
        try:
            store = Store(self.db_path, create=False)
            try:
                self._restore_buffers(store, lambda _session: True)
            finally:
                store.close()
        except (SpyglassError, OSError, apsw.Error) as e:  # a read-only index folder, say: search anyway
            log.warning("could not restore the disk's text of files an ended editor session had open: %s", e)
        finally:
            self.lock.release()

    def _restore_buffers(self, store: Store, whose: Callable[[str], bool]) -> list[str]:
        """Re-index from the disk every file holding the unsaved buffer of a session ``whose`` accepts."""
        paths = sorted(p for p, session in store.open_buffers().items() if whose(session))
        indexer = Indexer(self.root, store, self.settings, None)
        for rel in paths:
            try:
                indexer.update_path(rel, embed=False)
            except OSError as e:  # unreadable now: better no text than text that is in no file
                log.warning("cannot read %s to restore it: %s", rel, e)
                store.delete_file(rel)
        if paths:
            log.info("restored the disk's text of %d file(s) an editor had open: %s", len(paths), ", ".join(paths))
        return paths

    @_damage_is_index_corrupt
    def index(
        self,
        progress: ProgressFn | None = None,
        cancel: Cancel | None = None,
        embed: bool = True,
        history: bool = True,
    ) -> IndexReport:
        """Bring the whole index up to date with the disk (takes the writer lock); ``embed=False`` leaves
        the new spans' vectors for :meth:`embed_pending`, ``history=False`` the history for
        :meth:`sync_history`."""
        self.acquire_writer()
        report = self._indexer().sync(progress, cancel, embed=embed)
        for rel, text in list(self.buffers.items()):  # the disk must not win over unsaved editor text
            self._indexer().update_path(rel, text, embed=False, session=self.session)
        if history and not report.cancelled:
            history_report = self.sync_history(cancel)
            report.history_commits, report.history_added = history_report.commits, history_report.added
            report.seconds["history"] = history_report.seconds
            report.seconds["total"] = report.seconds.get("total", 0.0) + history_report.seconds
        return report

    @_damage_is_index_corrupt
    def sync_history(self, cancel: Cancel | None = None) -> HistoryReport:
        """Bring the index's copy of the repository's recent history up to HEAD (``history_commits``)."""
        self.acquire_writer()
        stop = (lambda: cancel.is_set()) if cancel is not None else None
        depth = self.settings.history_commits
        try:
            return sync_history(self.store, self.root, depth, cancel=stop, source=self.history_source)
        except (IndexCorrupt, apsw.Error):
            raise
        except Exception as e:  # git said something we could not read: the code index must not fail for it
            log.exception("reading the git history failed")
            with self.store.atomic():
                self.store.set_meta("history_error", f"reading the git history failed: {e}")
            return HistoryReport(error=str(e))  # complete: not tried again until HEAD moves

    @_damage_is_index_corrupt
    def update_file(
        self, path: str | Path, text: str | None = None, embed: bool = True, old_tree: Any = None
    ) -> IndexReport:
        """Re-index one file from disk, or from an unsaved buffer's ``text`` (``old_tree``: the buffer's
        previous syntax tree, edited to match, for an incremental parse; the new one is in the report)."""
        rel = self.relpath(path)
        if text is None:
            self.buffers.pop(rel, None)
        else:
            self.buffers[rel] = text
        self.acquire_writer()
        return self._indexer().update_path(rel, text, embed=embed, old_tree=old_tree, session=self.session)

    @_damage_is_index_corrupt
    def embed_pending(
        self,
        progress: ProgressFn | None = None,
        cancel: Cancel | None = None,
        texts_per_write: int | None = None,
    ) -> IndexReport:
        """Embed spans that have no vector yet; ``cancel`` is checked every ``texts_per_write`` texts."""
        self.acquire_writer()
        report = IndexReport()
        self._indexer().embed_pending(report, progress, cancel, texts_per_write)
        return report

    # -- reading ---------------------------------------------------------------------------------
    @_damage_is_index_corrupt
    def search(
        self,
        query: str,
        k: int = 10,
        filters: SearchFilters | None = None,
        min_score: float | None = None,
        cut: bool = True,
        max_tokens: int | None = None,
        per_file: int | None = None,
        tier: Tier | None = None,
    ) -> SearchAnswer:
        """Ranked spans for ``query`` plus the index's freshness.

        ``max_tokens`` bounds the estimated tokens of all results together (``truncated`` says whether it
        cut something); ``per_file`` bounds the results from one file (1 ranks files by their best span).
        ``tier`` (fast, balanced, deep; default: the ``[search] tier`` setting) trades cost for depth.
        ``cut=False`` keeps the whole ranking (no confidence floor, no per-file limit), for evaluation."""
        kwargs: dict[str, Any] = {"cut": cut, "max_tokens": max_tokens, "tier": tier or self.settings.search.tier}
        if min_score is not None:
            kwargs["min_score"] = min_score
        if per_file is not None:
            kwargs["per_file"] = per_file
        outcome = self.searcher.search(query, k=k, filters=filters, **kwargs)
        index = SearchedIndex(**vars(self.freshness()), mode=outcome.mode, note=outcome.note or None)
        hits = [self._clean_hit(h) for h in outcome.hits]
        return SearchAnswer(query, hits, outcome.truncated, index, outcome.tier, outcome.elapsed_ms)

    @property
    def can_ask(self) -> bool:
        """Whether an LLM is configured for :meth:`ask`."""
        return bool(self.settings.llm_url.strip())

    @_damage_is_index_corrupt
    def ask(self, question: str, k: int = 8, filters: SearchFilters | None = None) -> AskAnswer:
        """An answer from the configured LLM, grounded in the best spans for ``question`` (see asking.py);
        raises LlmUnavailable when none is configured, allowed or answering."""
        check_endpoint(self.settings)  # before searching: a refusal costs nothing
        found = self.search(question, k=k, filters=filters, max_tokens=self.settings.llm_context_tokens)
        return ask_llm(self.settings, question, found.results)

    @_damage_is_index_corrupt
    def history(
        self, query: str, k: int = 10, path: str | Path | None = None, max_tokens: int | None = None
    ) -> HistoryAnswer:
        """Commits that answer "when and why did X change": full text over messages, touched paths and
        definitions, a commit that changed what the query names first; ``path`` keeps commits touching
        that file or folder (inside the workspace)."""
        rel = self.relpath(path) if path not in (None, "") else None
        rel = None if rel == "." else rel
        reader = HistoryReader(self.store)
        commits, truncated = reader.search(query, k=k, path=rel, max_tokens=max_tokens)
        return HistoryAnswer(query, commits, truncated, reader.state())

    @_damage_is_index_corrupt
    def history_state(self) -> HistoryState:
        return HistoryReader(self.store).state()

    @_damage_is_index_corrupt
    def hot_files(self, n: int = 10) -> list[HotFile]:
        """The files the indexed commits touched most (the hot spots)."""
        return HistoryReader(self.store).hot_files(n)

    @_damage_is_index_corrupt
    def symbols(self, query: str, k: int = 50, semantic: bool = True) -> list[SymbolMatch]:
        """Definitions for a symbol picker: exact and fuzzy name matches first, then semantic ones."""
        return [
            SymbolMatch(self._summary(m.span), m.score, m.match)
            for m in find_symbols(self.searcher, query, k, semantic)
        ]

    @_damage_is_index_corrupt
    def span_at(self, path: str | Path, line: int) -> SpanSummary | None:
        """The innermost indexed span covering 1-based ``line`` of ``path`` (unsaved text included)."""
        span = span_at(self.searcher, self.relpath(path), line)
        return self._summary(span) if span else None

    @_damage_is_index_corrupt
    def related(self, path: str | Path, line: int, k: int = 3) -> Related:
        """The span at ``path``:``line`` and up to ``k`` related spans (uses, similar, documents)."""
        span = span_at(self.searcher, self.relpath(path), line)
        if span is None:
            return Related(None, [])
        related = [self._related_item(r, span.name) for r in related_spans(self.searcher, span, k)]
        return Related(self._summary(span), related)

    def _related_item(self, r: RelatedSpan, name: str) -> RelatedItem:
        """A related span with ``preview`` (one line of it) and ``line`` (that line's 1-based number in the
        file: for a use, the line where it is used)."""
        preview, line = _preview(r.span, name), r.span.start_line
        if r.text_line is not None:
            lines = split_lines(r.span.text)
            preview = lines[r.text_line].strip()[:160] if r.text_line < len(lines) else preview
            text = self._current_text(r.span.path)
            found = file_line(r.span.text, r.text_line, text, r.span.start_line, r.span.end_line) if text else None
            line = found or line
        preview = self._secrets_of(r.span.path).clean(preview) if self.redact else preview
        return RelatedItem(self._summary(r.span), r.relation, r.score, preview, line)

    @_damage_is_index_corrupt
    def context(self, path: str | Path, line: int) -> LineContext:
        """What surrounds 1-based ``line`` of ``path`` (unsaved text included): the enclosing definition
        (``span``, None outside any, with ``message`` saying why), the file's ``imports`` and the indexed
        definitions the enclosing one refers to (``references``)."""
        rel = self.relpath(path)
        found = line_context(self.searcher, rel, line, self._asked_text(rel))
        imports = [self._secrets_of(rel).clean(i) for i in found.imports] if self.redact else found.imports
        return LineContext(
            path=found.path,
            line=found.line,
            language=found.language,
            span=self._summary(found.span) if found.span else None,
            imports=imports,
            references=[self._summary(s) for s in found.references],
            message=found.message,
        )

    # -- secrets ---------------------------------------------------------------------------------
    def _secrets_of(self, rel: str) -> FileSecrets:
        """The secrets of ``rel``'s current text, kept for the last ``SECRETS_KEPT`` files while the file is
        unchanged (redoing it costs a regex pass over the whole file). Only files whose excerpts an answer
        holds come here: files the index holds, or that a client named and the index takes (``_asked_text``)."""
        key = self._version_of(rel)
        with self._secrets_lock:
            cached = self._secrets.get(rel)
            if cached is not None and key is not None and cached[0] == key:
                self._secrets.move_to_end(rel)
                return cached[1]
        found = self._find_secrets(rel)
        with self._secrets_lock:
            self._secrets[rel] = (key, found)
            while len(self._secrets) > SECRETS_KEPT:
                self._secrets.popitem(last=False)
        return found

    def _find_secrets(self, rel: str) -> FileSecrets:
        """The secrets of ``rel``'s current text: those the index found while indexing it when the text is
        the one indexed (its content hash, so an edit since is never missed), else found now."""
        if rel in self.buffers:
            data = self.buffers[rel].encode("utf-8", "surrogatepass")
        else:
            try:
                data = read_inside(self.root, rel)
            except (FileNotFoundError, IsADirectoryError, NotADirectoryError, Escaped):
                return FileSecrets("")
        kept = self.store.file_secrets(rel)
        if kept is not None and kept[0] == content_hash(data):
            found = FileSecrets.from_json(kept[1])
            if found is not None:
                return found
        return FileSecrets(code_view(rel, data).decode("utf-8", "replace"))

    def _version_of(self, rel: str) -> tuple | None:
        """What says a file's text changed without reading it: an open buffer's text, or the disk's size
        and mtime; None when it is gone."""
        if rel in self.buffers:
            return ("buffer", self.buffers[rel])
        try:
            st = (self.root / rel).stat()
        except OSError:
            return None
        return ("disk", st.st_size, st.st_mtime_ns)

    def _summary(self, span: StoredSpan) -> SpanSummary:
        """A span's summary, its name, signature and doc redacted (a Markdown heading is its name)."""
        summary = SpanSummary.of(span)
        if not self.redact:
            return summary
        clean = self._secrets_of(span.path).clean
        return replace(
            summary,
            name=clean(summary.name),
            symbol=clean(summary.symbol),
            signature=clean(summary.signature),
            doc=clean(summary.doc),
            container=clean(summary.container) if summary.container else summary.container,
        )

    def _clean_hit(self, hit: SearchHit) -> SearchHit:
        """A search hit with its snippet, matching line and symbol redacted."""
        if not self.redact:
            return hit
        clean = self._secrets_of(hit.path).clean
        return replace(
            hit,
            snippet=clean(hit.snippet),
            symbol=clean(hit.symbol),
            match_line=MatchLine(hit.match_line.number, clean(hit.match_line.text)),
        )

    def _current_text(self, rel: str) -> str | None:
        """The text of an indexed file as it is now, as the index reads it (a notebook's code: notebooks.py): an
        open buffer's, else the disk's (None when gone)."""
        if rel in self.buffers:
            text = self.buffers[rel]
            if is_notebook(rel):
                return code_view(rel, text.encode("utf-8", "surrogatepass")).decode("utf-8", "surrogatepass")
            return text
        try:
            return code_view(rel, read_inside(self.root, rel)).decode("utf-8", "replace")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, Escaped):
            return None

    def _asked_text(self, rel: str) -> str | None:
        """The current text of a file a client names (a span ID, a path), only when it is one the index
        takes: a made-up ID for ``.env`` or ``id_rsa``, which the index leaves out, reads nothing."""
        reason = check_path(self.root, rel, self.settings)
        # an unsaved new buffer is read; an unreadable file raises, naming the file and the permission
        if reason in (None, UNREADABLE) or (reason == MISSING and rel in self.buffers):
            return self._current_text(rel)
        return None

    @_damage_is_index_corrupt
    def span(self, span_id: str, context_lines: int = 0) -> SpanLookup:
        """The current text of a span, found by its ID, and whether it is current, moved or stale;
        with ``context_lines``, up to that many lines before and after it too (``text_start_line`` and
        ``text_end_line`` say which lines the text covers)."""
        found, lines = self._locate_span(span_id)
        if context_lines <= 0 or found.status == "missing":
            return self._clean_lookup(found)
        start = max(1, found.start_line - context_lines)
        end = min(len(lines), found.end_line + context_lines)
        text = "\n".join(lines[start - 1 : end])
        return self._clean_lookup(replace(found, text=text, text_start_line=start, text_end_line=max(start, end)))

    def _clean_lookup(self, found: SpanLookup) -> SpanLookup:
        """A span's text and symbol redacted."""
        if not self.redact or found.status == "missing":
            return found
        clean = self._secrets_of(found.path).clean
        return replace(found, text=clean(found.text), symbol=clean(found.symbol) if found.symbol else found.symbol)

    def _locate_span(self, span_id: str) -> tuple[SpanLookup, list[str]]:
        """The span's lookup and the current lines of its file ([] when the file is gone)."""
        ref = parse_span_id(span_id)
        rel = self.relpath(ref.path)
        text = self._asked_text(rel)
        if text is None:
            known = (state := self.store.file_state(rel)) is not None and state.skip_reason is None
            message = f"{rel} no longer exists" if known else f"no such file in the index or the workspace: {rel}"
            return SpanLookup(span_id, "missing", rel, ref.start_line, ref.end_line, None, None, None, "", message), []
        spans = parse_spans(rel, text.encode("utf-8", "surrogatepass"), self.settings).spans
        lines = split_lines(text)

        def lookup(status: SpanStatus, s: Span, message: str) -> SpanLookup:
            body = "\n".join(lines[s.start_line - 1 : s.end_line])
            return SpanLookup(
                span_id, status, rel, s.start_line, s.end_line, s.span_id(rel), s.kind, s.qualname, body, message
            )

        same_hash = [s for s in spans if s.text_hash.startswith(ref.hash_prefix)]
        for s in same_hash:
            if (s.start_line, s.end_line) == (ref.start_line, ref.end_line):
                return lookup("current", s, "the span is unchanged"), lines
        if same_hash:
            s = min(same_hash, key=lambda s: abs(s.start_line - ref.start_line))
            message = f"the span's text is unchanged but now at lines {s.start_line}-{s.end_line}"
            return lookup("moved", s, message), lines
        # changed: prefer the symbol that used to be there, else whatever covers those lines now
        old = self.store.con.execute("SELECT qualname, kind FROM spans WHERE span_id=?", (span_id,)).fetchone()
        if old:
            same_symbol = [s for s in spans if (s.qualname, s.kind) == tuple(old)]
            if same_symbol:
                s = min(same_symbol, key=lambda s: abs(s.start_line - ref.start_line))
                return lookup("stale", s, f"{s.qualname} has changed since this ID was issued"), lines
        end = min(ref.end_line, len(lines))
        body = "\n".join(lines[ref.start_line - 1 : end])
        gone = SpanLookup(
            span_id,
            "stale",
            rel,
            ref.start_line,
            end,
            None,
            None,
            None,
            body,
            "the text at these lines has changed since this ID was issued",
        )
        return gone, lines

    @_damage_is_index_corrupt
    def freshness(self) -> Freshness:
        """A cheap summary for every answer: how much is indexed and embedded, and since when."""
        counts = self.store.counts()
        spans, embedded = counts["spans"], counts["embedded"]
        last = self.store.last_change()
        return Freshness(
            files=counts["files"],
            spans=spans,
            embedded=embedded,
            embedded_fraction=round(embedded / spans, 4) if spans else 1.0,
            pending_embeddings=spans - embedded,
            model=self.store.get_meta("model_id"),
            last_update=_iso(last) if last else None,
        )

    @_damage_is_index_corrupt
    def status(self) -> Status:
        """Coverage and freshness, including files changed on disk since the last sync."""
        counts = self.store.detail_counts()
        skipped = json.loads(self.store.get_meta("skipped_by_rules", "{}") or "{}")
        for reason, n in self.store.skipped_counts().items():
            skipped[reason] = skipped.get(reason, 0) + n
        by_rules = json.loads(self.store.get_meta("skipped_paths_by_rules", "[]") or "[]")
        skipped_files = sorted([*map(tuple, by_rules), *self.store.skipped_files()])
        syntax_errors = self.store.files_with_syntax_errors()
        commit, branch = gitinfo.head(self.root)
        return Status(
            **vars(self.freshness()),
            root=str(self.root),
            index_path=str(self.db_path),
            index_bytes=sum(
                p.stat().st_size
                for p in self.db_path.parent.glob(self.db_path.name + "*")
                if p.is_file() and ".corrupt-" not in p.name
            ),
            schema_version=self.store.schema_version(),
            languages=self.store.languages(),
            skipped=dict(sorted(skipped.items())),
            skipped_total=sum(skipped.values()),
            skipped_files=[SkippedFile(path, reason) for path, reason in skipped_files],
            files_with_syntax_errors=len(syntax_errors),
            syntax_error_files=syntax_errors,
            cached_vectors=counts["cached_vectors"],
            configured_model=self.embedder.model_id if self.embedder else None,
            writer=self.lock.holder(),
            git_head=commit,
            git_branch=branch,
            history=self.history_state(),
            hot_files=self.hot_files(),
            warnings=list(self.warnings),
            changed_since_update=self._changes_on_disk(),
        )

    def _changes_on_disk(self) -> DiskChanges:
        found = discover(self.root, self.settings)
        known = self.store.file_states()
        new = modified = 0
        for entry in found.files:
            state = known.pop(entry.path, None)
            if state is None:
                new += 1
            elif (state.size, state.mtime_ns) != (entry.size, entry.mtime_ns):
                modified += 1
        return DiskChanges(new=new, modified=modified, deleted=len(known))


def _preview(span: StoredSpan, name: str) -> str:
    """One line of ``span`` to show beside a link: the first naming ``name`` as a word, else its first
    non-blank line."""
    lines = [ln.strip() for ln in span.text.splitlines() if ln.strip()]
    word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)") if name else None
    for ln in lines:
        if word is not None and word.search(ln):
            return ln[:160]
    return lines[0][:160] if lines else ""


def _priors(settings: PriorSettings) -> Priors:
    return (
        Priors(
            tests=settings.tests,
            prose=settings.prose,
            examples=settings.examples,
            declarations=settings.declarations,
        )
        if settings.enabled
        else NO_PRIORS
    )


def _iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")
