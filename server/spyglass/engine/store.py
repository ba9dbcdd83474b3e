"""The index: one SQLite file (apsw) with files, spans, FTS5 full text and sqlite-vec vectors.

WAL mode, so readers see a consistent snapshot while the single writer commits in batches; an interrupted
run leaves a valid index that the next run completes. Connections are per thread (apsw connections must
not be shared across threads without care, and MCP/LSP handlers run on worker threads).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, cast

import apsw
import numpy as np
import sqlite_vec

from . import access
from .errors import IndexCorrupt, IndexFromFuture, IndexMissing, IndexOutdated, IndexUnusable
from .migrations import FILE_TEXT_COLUMNS, MIGRATIONS, SCHEMA_VERSION, SPAN_TEXT_COLUMNS
from .spans import Kind, Span

log = logging.getLogger(__name__)

SPAN_COLUMNS = (
    "s.id, s.span_id, s.kind, s.name, s.qualname, s.signature, s.doc, s.parent, s.language, "
    "s.start_line, s.end_line, s.start_byte, s.end_byte, s.text, s.text_hash, s.embedded, f.path"
)


class Counts(TypedDict):
    """How much is indexed (``Store.counts``): files (not those skipped after reading), spans, and spans
    that have their vector."""

    files: int
    spans: int
    embedded: int


class DetailCounts(TypedDict):
    """Slower figures for status reports (``Store.detail_counts``): vectors kept in the embedding cache."""

    cached_vectors: int


@dataclass(frozen=True, slots=True)
class StoredSpan:
    """A span as the index holds it, with the path of its file."""

    rowid: int
    span_id: str
    kind: Kind
    name: str
    qualname: str
    signature: str
    doc: str
    parent: str | None
    language: str
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    text: str
    text_hash: str
    embedded: bool
    path: str


@dataclass(frozen=True, slots=True)
class FileState:
    id: int
    path: str
    size: int
    mtime_ns: int
    content_hash: str | None
    skip_reason: str | None


@dataclass(slots=True)
class SpanRecord:
    """A parsed span ready to write: its ID, its embedding-cache key and its full-text columns."""

    span: Span
    span_id: str
    embed_hash: str
    fts: tuple[str, str, str, str, str]  # the SPAN_TEXT_COLUMNS: name, path, doc, body, terms


@dataclass(frozen=True, slots=True)
class PendingEmbedding:
    embed_hash: str
    kind: str
    qualname: str
    signature: str
    doc: str
    text: str
    path: str
    secrets: str | None = None  # the file's kept findings (redact.FileSecrets.to_json), to embed them out


@dataclass(frozen=True, slots=True)
class Scope:
    """The spans a search may see: those of ``file_ids`` (None: every file) of these ``kinds`` and
    ``languages`` (empty: any). Every retriever applies it in SQL before ranking, so a scoped search ranks
    the scope's candidates against each other, not against the whole index."""

    file_ids: tuple[int, ...] | None = None
    kinds: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()

    def spans_sql(self) -> tuple[str, list[Any]]:
        """``SELECT id FROM spans WHERE ...`` for the spans in scope, and its parameters."""
        conditions, args = [], []
        for column, values in (("file_id", self.file_ids), ("kind", self.kinds), ("language", self.languages)):
            if values is not None and (values or column == "file_id"):
                conditions.append(f"{column} IN (SELECT value FROM json_each(?))")
                args.append(json.dumps(list(values)))
        return "SELECT id FROM spans WHERE " + (" AND ".join(conditions) or "1"), args


def _within(scope: Scope | None, column: str, files: bool = False) -> tuple[str, list[Any]]:
    """`` AND column IN (...)``: the spans in ``scope`` (``files``: the files with a span in scope)."""
    if scope is None:
        return "", []
    sql, args = scope.spans_sql()
    if files:
        sql = sql.replace("SELECT id FROM", "SELECT DISTINCT file_id FROM", 1)
    return f" AND {column} IN ({sql})", args


_CORRUPT = (apsw.CorruptError, apsw.NotADBError)
_DENIED = (apsw.ReadOnlyError, apsw.PermissionsError)


def _row(con: apsw.Connection, sql: str, args: tuple = ()) -> tuple[Any, ...]:
    """The one row a query always returns (an aggregate, or a row just written)."""
    row = con.execute(sql, args).fetchone()
    if row is None:
        raise IndexUnusable(f"the index returned no row for {sql!r}")
    return row


def _scalar(con: apsw.Connection, sql: str, args: tuple = ()) -> Any:
    """The first column of the one row a query always returns."""
    return _row(con, sql, args)[0]


class Store:
    """One workspace index. ``readonly`` stores never migrate or write."""

    def __init__(self, path: Path, *, readonly: bool = False, create: bool = True) -> None:
        self.path = Path(path)
        self.readonly = readonly
        if not self.path.exists():
            if readonly or not create:
                raise IndexMissing(f"no index at {self.path}: run `spyglass index` to build one")
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        # every open connection and the thread it is for: a thread that ended gives its connection back
        self._all: list[tuple[threading.Thread, apsw.Connection]] = []
        self._lock = threading.Lock()
        self._immutable = False
        try:
            self._migrate()
        except _CORRUPT as e:
            raise IndexCorrupt(
                f"the index at {self.path} is damaged or not a Spyglass index ({e}); "
                "rebuild it with `spyglass index --rebuild`"
            ) from e
        except _DENIED as e:
            raise access.index_denied(self.path, not readonly, e) from e

    # -- connections -----------------------------------------------------------------------------
    @property
    def con(self) -> apsw.Connection:
        con = getattr(self._local, "con", None)
        if con is None:
            con = self._connect()
            self._local.con = con
        return con

    def _connect(self) -> apsw.Connection:
        try:
            return self._open()
        except apsw.ReadOnlyError:
            if not self.readonly or self._immutable:
                raise
            # a reader in a folder it may not write cannot create the -shm file WAL needs; no writer is at
            # work (it would have made one), so read the file as it stands
            log.info("the folder of %s is not writable: reading the index as immutable", self.path)
            self._immutable = True
            return self._open()

    def _open(self) -> apsw.Connection:
        flags = apsw.SQLITE_OPEN_READONLY if self.readonly else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
        name = str(self.path)
        if self._immutable:
            flags |= apsw.SQLITE_OPEN_URI
            name = f"{self.path.as_uri()}?immutable=1"
        try:
            con = apsw.Connection(name, flags=flags)
        except apsw.CantOpenError as e:
            try:
                self.path.open("rb").close()
            except OSError as denied:
                if access.is_denied(denied):
                    raise access.index_denied(self.path, not self.readonly, denied) from e
            raise IndexUnusable(f"cannot open the index at {self.path}: {e}") from e
        try:
            self._configure(con)
        except BaseException:
            con.close()
            raise
        with self._lock:
            ended = [c for thread, c in self._all if not thread.is_alive()]
            self._all = [(thread, c) for thread, c in self._all if thread.is_alive()]
            self._all.append((threading.current_thread(), con))
        for old in ended:  # a server's worker threads come and go: their connections must not pile up
            with contextlib.suppress(apsw.Error):
                old.close()
        return con

    def _configure(self, con: apsw.Connection) -> None:
        con.set_busy_timeout(30_000)
        con.enable_load_extension(True)
        con.load_extension(sqlite_vec.loadable_path())
        con.enable_load_extension(False)
        try:
            if not self.readonly:
                con.execute("PRAGMA journal_mode=WAL")
                con.execute("PRAGMA synchronous=NORMAL")
            con.execute("PRAGMA mmap_size=268435456")
            con.execute("PRAGMA cache_size=-65536")
        except _CORRUPT as e:
            raise IndexCorrupt(
                f"the index at {self.path} is damaged or not a Spyglass index ({e}); "
                "rebuild it with `spyglass index --rebuild`"
            ) from e

    def close(self) -> None:
        with self._lock:
            for _, con in self._all:
                with contextlib.suppress(apsw.Error):
                    con.close()
            self._all.clear()
        self._local = threading.local()

    @contextlib.contextmanager
    def atomic(self) -> Iterator[apsw.Connection]:
        """A transaction (a savepoint when nested): all or nothing."""
        with self.con as con:
            yield con

    # -- schema ----------------------------------------------------------------------------------
    def _migrate(self) -> None:
        con = self.con
        have = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_migrations" in have:
            current = _scalar(con, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        elif have:
            raise IndexCorrupt(f"{self.path} is an SQLite file but not a Spyglass index; move it away or pass --db")
        elif self.readonly:  # 0 bytes, or an SQLite file with nothing in it: no index was ever written
            raise IndexMissing(
                f"the index at {self.path} is empty (no Spyglass index was ever written to it): "
                "run `spyglass index` to build one"
            )
        else:
            current = 0
        if current > SCHEMA_VERSION:
            raise IndexFromFuture(
                f"the index at {self.path} has schema version {current}, newer than this Spyglass "
                f"understands ({SCHEMA_VERSION}): upgrade Spyglass, or run `spyglass index --rebuild`"
            )
        if current == SCHEMA_VERSION:
            return
        if self.readonly:
            raise IndexOutdated(
                f"the index at {self.path} has schema version {current}, older than {SCHEMA_VERSION}: "
                "run `spyglass index` to upgrade it"
            )
        with self.atomic() as c:
            c.execute("CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY, applied_at REAL)")
        for version in range(current + 1, SCHEMA_VERSION + 1):
            # one writer at a time (BEGIN IMMEDIATE waits for another process migrating the same index),
            # and a step that process applied meanwhile is not applied twice
            con.execute("BEGIN IMMEDIATE")
            try:
                if _scalar(con, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations") < version:
                    MIGRATIONS[version - 1](con)
                    con.execute("INSERT INTO schema_migrations VALUES(?, ?)", (version, time.time()))
                    log.info("index schema migrated to version %d", version)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        self._compact_if_mostly_free()

    def _compact_if_mostly_free(self) -> None:
        """VACUUM after a migration that left most pages free (a rebuilt table); readers keep reading."""
        free, pages = _scalar(self.con, "PRAGMA freelist_count"), _scalar(self.con, "PRAGMA page_count")
        if pages and free * 3 > pages:
            try:
                self.con.execute("VACUUM")
                log.info("index compacted: %d of %d pages were free", free, pages)
            except apsw.Error as e:  # busy: the space is reused by later writes anyway
                log.info("index not compacted (%s)", e)

    def schema_version(self) -> int:
        return _scalar(self.con, "SELECT MAX(version) FROM schema_migrations")

    # -- meta ------------------------------------------------------------------------------------
    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.con.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (key, value))

    # -- files -----------------------------------------------------------------------------------
    def file_states(self) -> dict[str, FileState]:
        rows = self.con.execute("SELECT id, path, size, mtime_ns, content_hash, skip_reason FROM files")
        return {r[1]: FileState(*r) for r in rows}

    def file_state(self, path: str) -> FileState | None:
        row = self.con.execute(
            "SELECT id, path, size, mtime_ns, content_hash, skip_reason FROM files WHERE path=?", (path,)
        ).fetchone()
        return FileState(*row) if row else None

    def forget_contents(self) -> None:
        """Make the next sync re-read and re-parse every indexed file (vectors come back from the cache)."""
        self.con.execute("UPDATE files SET content_hash = NULL, mtime_ns = -1 WHERE skip_reason IS NULL")

    def forget_skips(self, reason: str) -> None:
        """Make the next sync read again the files skipped for ``reason`` after they were read."""
        self.con.execute("UPDATE files SET mtime_ns = -1 WHERE skip_reason = ?", (reason,))

    def touch_file(self, path: str, size: int, mtime_ns: int, buffer_session: str | None = None) -> None:
        """Record a new (size, mtime) for a file whose content hash did not change (and where the text
        came from: the disk, or the unsaved buffer of ``buffer_session``)."""
        with self.atomic() as con:
            con.execute("UPDATE files SET size=?, mtime_ns=? WHERE path=?", (size, mtime_ns, path))
            self._set_origin(con, path, buffer_session)

    def record_skip(self, path: str, size: int, mtime_ns: int, reason: str) -> None:
        with self.atomic() as con:
            self._delete_spans_of(con, path)
            self._mark_documented(con, path)
            self._set_origin(con, path, None)
            self._changed(con)
            con.execute(
                "INSERT INTO files(path, size, mtime_ns, content_hash, skip_reason, indexed_at) "
                "VALUES(?,?,?,NULL,?,?) ON CONFLICT(path) DO UPDATE SET size=excluded.size, "
                "mtime_ns=excluded.mtime_ns, content_hash=NULL, skip_reason=excluded.skip_reason, "
                "language=NULL, parse_errors=0, indexed_at=excluded.indexed_at, secrets=NULL",
                (path, size, mtime_ns, reason, time.time()),
            )

    def write_file(
        self,
        path: str,
        *,
        size: int,
        mtime_ns: int,
        language: str,
        content_hash: str,
        parse_errors: bool,
        records: Sequence[SpanRecord],
        file_fts: tuple[str, str, str] = ("", "", ""),
        buffer_session: str | None = None,
        secrets: str | None = None,
        doc_files: Sequence[str] = (),
        mark_documented: bool = True,
    ) -> int:
        """Replace a file's spans and full text; reuse cached vectors. Returns how many were reused.

        ``file_fts`` is the whole file's (path words, text, sub-word terms) for file-level BM25;
        ``buffer_session`` the session whose unsaved editor buffer the text is (None: the disk's text);
        ``secrets`` the secrets found in the text (``redact.FileSecrets.to_json``); ``doc_files`` the files
        its documentation was read from (docfiles.py); ``mark_documented``: the files whose docs are read
        from this one are to be parsed again (False: its text is the one they read)."""
        with self.atomic() as con:
            self._delete_spans_of(con, path)
            if mark_documented:
                self._mark_documented(con, path)
            con.executemany(
                "INSERT OR IGNORE INTO doc_includes(source, included) VALUES(?,?)", [(path, d) for d in doc_files]
            )
            self._set_origin(con, path, buffer_session)
            self._changed(con)
            con.execute(
                "INSERT INTO files(path, language, size, mtime_ns, content_hash, skip_reason, parse_errors, "
                "indexed_at, secrets) VALUES(?,?,?,?,?,NULL,?,?,?) ON CONFLICT(path) DO UPDATE SET "
                "language=excluded.language, size=excluded.size, mtime_ns=excluded.mtime_ns, "
                "content_hash=excluded.content_hash, skip_reason=NULL, parse_errors=excluded.parse_errors, "
                "indexed_at=excluded.indexed_at, secrets=excluded.secrets",
                (path, language, size, mtime_ns, content_hash, int(parse_errors), time.time(), secrets),
            )
            file_id = _scalar(con, "SELECT id FROM files WHERE path=?", (path,))
            con.execute("INSERT INTO files_fts(rowid, path, body, terms) VALUES(?,?,?,?)", (file_id, *file_fts))
            for rec in records:
                s = rec.span
                con.execute(
                    "INSERT INTO spans(file_id, span_id, kind, name, qualname, signature, doc, parent, language, "
                    "start_line, end_line, start_byte, end_byte, text, text_hash, embed_hash) "
                    "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        file_id,
                        rec.span_id,
                        s.kind,
                        s.name,
                        s.qualname,
                        s.signature,
                        s.doc,
                        s.parent,
                        s.language,
                        s.start_line,
                        s.end_line,
                        s.start_byte,
                        s.end_byte,
                        s.text,
                        s.text_hash,
                        rec.embed_hash,
                    ),
                )
                con.execute(
                    "INSERT INTO spans_fts(rowid, name, path, doc, body, terms) VALUES(?,?,?,?,?,?)",
                    (con.last_insert_rowid(), *rec.fts),
                )
            return self._attach_cached_vectors(con, "s.file_id = ?", (file_id,))

    # -- the secrets found in each file -----------------------------------------------------------
    def file_secrets(self, path: str) -> tuple[str, str | None] | None:
        """An indexed file's (content hash, secrets kept for that content: NULL when not found yet)."""
        row = self.con.execute(
            "SELECT content_hash, secrets FROM files WHERE path=? AND skip_reason IS NULL", (path,)
        ).fetchone()
        return (str(row[0]), row[1]) if row and row[0] else None

    def files_without_secrets(self, version: str) -> list[tuple[str, str]]:
        """Indexed files (path, content hash) whose secrets were not found under the rules of ``version``."""
        rows = self.con.execute(
            "SELECT path, content_hash FROM files WHERE skip_reason IS NULL AND content_hash IS NOT NULL "
            "AND (CASE WHEN json_valid(secrets) THEN json_extract(secrets, '$.v') END) IS NOT ?",
            (version,),
        )
        return [(str(p), str(h)) for p, h in rows]

    def set_secrets(self, path: str, content_hash: str, secrets: str) -> None:
        """Keep the secrets found in ``path``'s text, if the index still holds that text (``content_hash``)."""
        with self.atomic() as con:
            con.execute("UPDATE files SET secrets=? WHERE path=? AND content_hash=?", (secrets, path, content_hash))

    def stale_documented(self) -> list[str]:
        """The files to parse again because a file their documentation was read from changed or went
        (docfiles.py; ``_mark_documented``)."""
        rows = self.con.execute(
            "SELECT DISTINCT d.source FROM doc_includes d JOIN files f ON f.path = d.source "
            "WHERE f.content_hash IS NULL AND f.skip_reason IS NULL ORDER BY d.source"
        )
        return [str(source) for (source,) in rows]

    def _mark_documented(self, con: apsw.Connection, path: str) -> None:
        """Mark for parsing again (as a parser upgrade does) the files whose docs were read from ``path``,
        which is being written or removed: in the same transaction, so no crash or cancelled sync between
        the two leaves a doc stale; the next sync, or ``stale_documented``, parses them."""
        con.execute(
            "UPDATE files SET content_hash = NULL, mtime_ns = -1 WHERE skip_reason IS NULL AND path != ? "
            "AND path IN (SELECT source FROM doc_includes WHERE included = ?)",
            (path, path),
        )

    def delete_file(self, path: str) -> None:
        with self.atomic() as con:
            self._delete_spans_of(con, path)
            self._mark_documented(con, path)
            self._set_origin(con, path, None)
            self._changed(con)
            con.execute("DELETE FROM files WHERE path=?", (path,))

    # -- unsaved editor buffers ------------------------------------------------------------------
    def open_buffers(self) -> dict[str, str]:
        """The files whose indexed text is an unsaved editor buffer, with the session that sent each."""
        return {str(path): str(session) for path, session in self.con.execute("SELECT path, session FROM open_buffers")}

    def last_change(self) -> float | None:
        """When the index last changed: a full sync finished or one file's text was written or removed
        (the time any process, a server applying edits included, last wrote; what ``last update`` shows)."""
        times = [
            float(v) for (v,) in self.con.execute("SELECT value FROM meta WHERE key IN ('last_sync', 'last_change')")
        ]
        return max(times) if times else None

    @staticmethod
    def _changed(con: apsw.Connection) -> None:
        """Record that a file's text was just written or removed (``last_change``)."""
        con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('last_change', ?)", (str(time.time()),))

    @staticmethod
    def _set_origin(con: apsw.Connection, path: str, buffer_session: str | None) -> None:
        """Where a file's text came from: the disk (None) or ``buffer_session``'s unsaved buffer."""
        if buffer_session is None:
            con.execute("DELETE FROM open_buffers WHERE path=?", (path,))
        else:
            con.execute(
                "INSERT OR REPLACE INTO open_buffers(path, session, pid, since) VALUES(?,?,?,?)",
                (path, buffer_session, os.getpid(), time.time()),
            )

    def _delete_spans_of(self, con: apsw.Connection, path: str) -> None:
        """Remove a file's spans, their full text and vectors, the file's own full text and what it read."""
        con.execute("DELETE FROM doc_includes WHERE source=?", (path,))
        con.execute("DELETE FROM files_fts WHERE rowid = (SELECT id FROM files WHERE path=?)", (path,))
        ids = [
            r[0] for r in con.execute("SELECT s.id FROM spans s JOIN files f ON f.id=s.file_id WHERE f.path=?", (path,))
        ]
        if not ids:
            return
        has_vec = self.has_vectors()
        for i in ids:
            con.execute("DELETE FROM spans_fts WHERE rowid=?", (i,))
            if has_vec:
                self._remove_vector(con, i)
        con.execute("DELETE FROM spans WHERE file_id=(SELECT id FROM files WHERE path=?)", (path,))

    # -- vectors ---------------------------------------------------------------------------------
    def has_vectors(self) -> bool:
        return bool(self.con.execute("SELECT 1 FROM sqlite_master WHERE name='span_vectors'").fetchone())

    def ensure_vector_table(self, model_id: str, dims: int) -> bool:
        """Make the vector table fit ``model_id``; returns True if it had to be reset (model changed)."""
        current = self.get_meta("model_id")
        if current == model_id and self.has_vectors():
            return False
        with self.atomic() as con:
            reset = current is not None and current != model_id
            con.execute("DROP TABLE IF EXISTS span_vectors")
            con.execute("INSERT INTO vector_log(span, added) VALUES(-1, 0)")
            con.execute(
                f"CREATE VIRTUAL TABLE span_vectors USING vec0(embedding float[{int(dims)}] distance_metric=cosine)"
            )
            if reset:
                con.execute("DELETE FROM embedding_cache")
            con.execute("UPDATE spans SET embedded=0 WHERE embedded=1")
            self.set_meta("model_id", model_id)
            self.set_meta("model_dims", str(dims))
            self._attach_cached_vectors(con, "1", ())
        return reset

    def _attach_cached_vectors(self, con: apsw.Connection, where: str, args: tuple) -> int:
        if not self.has_vectors():
            return 0
        rows = list(
            con.execute(
                f"SELECT s.id, c.vector FROM spans s JOIN embedding_cache c ON c.embed_hash = s.embed_hash "
                f"WHERE s.embedded = 0 AND {where}",
                args,
            )
        )
        for rowid, vector in rows:
            self._add_vector(con, rowid, vector)
        return len(rows)

    @staticmethod
    def _add_vector(con: apsw.Connection, rowid: int, blob: bytes) -> None:
        con.execute("INSERT INTO span_vectors(rowid, embedding) VALUES(?, ?)", (rowid, blob))
        con.execute("UPDATE spans SET embedded=1 WHERE id=?", (rowid,))
        con.execute("INSERT INTO vector_log(span, added) VALUES(?, 1)", (rowid,))

    @staticmethod
    def _remove_vector(con: apsw.Connection, rowid: int) -> None:
        con.execute("DELETE FROM span_vectors WHERE rowid=?", (rowid,))
        con.execute("INSERT INTO vector_log(span, added) VALUES(?, 0)", (rowid,))

    def vector_log_bounds(self) -> tuple[int, int]:
        """(first, last) sequence numbers in the vector log; (0, 0) when it is empty."""
        # two subqueries: SQLite answers a lone MIN or MAX from the key's b-tree, but scans the table for both
        first, last = _row(
            self.con,
            "SELECT COALESCE((SELECT MIN(seq) FROM vector_log), 0), COALESCE((SELECT MAX(seq) FROM vector_log), 0)",
        )
        return int(first), int(last)

    def vector_changes(self, after: int) -> list[tuple[int, int]]:
        """[(span rowid, added)] logged after ``after``, oldest first; span -1 means all were dropped."""
        rows = self.con.execute("SELECT span, added FROM vector_log WHERE seq > ? ORDER BY seq", (after,))
        return [(int(span), int(added)) for span, added in rows]

    def vectors(self, rowids: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, matrix) of the live vectors, all of them or those of ``rowids``."""
        if not self.has_vectors():
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
        if rowids is None:
            rows = self.con.execute("SELECT rowid, embedding FROM span_vectors").fetchall()
        else:
            rows = list(self._select_in("SELECT rowid, embedding FROM span_vectors WHERE rowid IN ({marks})", rowids))
        dims = int(self.get_meta("model_dims", "0") or 0)
        ids_arr = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        mat = np.frombuffer(b"".join(cast(bytes, r[1]) for r in rows), dtype=np.float32).reshape(len(rows), dims)
        return ids_arr, mat

    def trim_vector_log(self, keep: int = 200_000) -> None:
        """Forget old log entries; readers that fell further behind simply reload everything."""
        self.con.execute("DELETE FROM vector_log WHERE seq <= (SELECT MAX(seq) FROM vector_log) - ?", (keep,))

    def pending_embeddings(self, limit: int | None = None) -> list[PendingEmbedding]:
        """One entry per distinct text still to embed (spans sharing a text share a vector)."""
        sql = (
            "SELECT s.embed_hash, s.kind, s.qualname, s.signature, s.doc, s.text, f.path, f.secrets FROM spans s "
            "JOIN files f ON f.id = s.file_id WHERE s.embedded = 0 GROUP BY s.embed_hash"
        )
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [PendingEmbedding(*r) for r in self.con.execute(sql)]

    def count_pending(self) -> int:
        return _scalar(self.con, "SELECT COUNT(*) FROM spans WHERE embedded = 0")

    def store_embeddings(self, items: Iterable[tuple[str, np.ndarray]]) -> int:
        """Cache vectors by embed hash and attach them to every span waiting for that text."""
        now = time.time()
        attached = 0
        with self.atomic() as con:
            for embed_hash, vector in items:
                blob = np.asarray(vector, dtype=np.float32).tobytes()
                con.execute(
                    "INSERT OR REPLACE INTO embedding_cache(embed_hash, vector, used_at) VALUES(?,?,?)",
                    (embed_hash, blob, now),
                )
                ids = [
                    r[0] for r in con.execute("SELECT id FROM spans WHERE embed_hash=? AND embedded=0", (embed_hash,))
                ]
                for rowid in ids:
                    self._add_vector(con, rowid, blob)
                attached += len(ids)
        return attached

    def prune_cache(self, keep_unused: int, every: int = 0) -> int:
        """Drop the oldest cached vectors no span uses, keeping at most ``keep_unused`` of them; with
        ``every``, only once that many vectors were cached since the last time (finding the unused ones
        reads the whole cache: not after each edit)."""
        with self.atomic() as con:
            newest = _scalar(con, "SELECT COALESCE(MAX(id), 0) FROM embedding_cache")
            if every and newest - int(self.get_meta("cache_pruned_at", "0") or 0) < every:
                return 0
            con.execute(
                "DELETE FROM embedding_cache WHERE id IN (SELECT c.id FROM embedding_cache c "
                "WHERE NOT EXISTS (SELECT 1 FROM spans s WHERE s.embed_hash = c.embed_hash) "
                "ORDER BY c.used_at DESC LIMIT -1 OFFSET ?)",
                (keep_unused,),
            )
            dropped = con.changes()
            self.set_meta("cache_pruned_at", str(newest))
            return dropped

    # -- history ---------------------------------------------------------------------------------
    def file_recency(self, half_life: float) -> dict[str, float]:
        """Each file's recent change activity in (0, 1] from the held commits (engine/history): every commit
        touching it adds ``0.5 ** (age / half_life)``, its age counted in commits (the newest is 0); the
        busiest file is 1. Empty without history."""
        rows = self.con.execute(
            "SELECT cf.path, r.age FROM commit_files cf JOIN (SELECT id, ROW_NUMBER() OVER "
            "(ORDER BY time DESC, id DESC) - 1 AS age FROM commits) r ON r.id = cf.commit_id"
        )
        activity: dict[str, float] = {}
        for path, age in rows:
            activity[str(path)] = activity.get(str(path), 0.0) + 0.5 ** (int(cast(int, age)) / half_life)
        top = max(activity.values(), default=0.0)
        return {path: a / top for path, a in activity.items()} if top else {}

    def history_version(self) -> tuple[str | None, int]:
        """What the held history is (the HEAD it was read at, and its last commit's row): changes when it does."""
        last = _scalar(self.con, "SELECT COALESCE(MAX(id), 0) FROM commits")
        return self.get_meta("history_head"), last

    # -- reading ---------------------------------------------------------------------------------
    def knn(self, vectors: np.ndarray, k: int, scope: Scope | None = None) -> list[tuple[int, float]]:
        """(span rowid, cosine distance) of the ``k`` nearest embedded spans (in ``scope``) to one query
        vector, or to the nearest of several (one per row)."""
        if not self.has_vectors():
            return []
        within, args = _within(scope, "rowid")
        best: dict[int, float] = {}
        for vector in np.atleast_2d(np.asarray(vectors, dtype=np.float32)):
            for rowid, distance in self.con.execute(
                f"SELECT rowid, distance FROM span_vectors WHERE embedding MATCH ? AND k = ?{within} ORDER BY distance",
                (vector.tobytes(), int(k), *args),
            ):
                best[rowid] = min(distance, best.get(rowid, distance))
        return sorted(best.items(), key=lambda item: item[1])[:k]

    def _select_in(self, sql: str, values: Iterable[Any], chunk: int = 500) -> Iterator[tuple]:
        """The rows of ``sql``, whose ``{marks}`` is an ``IN`` list, for all ``values``: in chunks of
        ``chunk`` bound parameters, as many as SQLite accepts in one statement."""
        values = list(values)
        for i in range(0, len(values), chunk):
            part = values[i : i + chunk]
            yield from self.con.execute(sql.format(marks=",".join("?" * len(part))), part)

    def span_files(self, rowids: np.ndarray) -> np.ndarray:
        """The file id of each of ``rowids`` (in their order; -1 for a span that is gone)."""
        ids = [int(i) for i in rowids]
        found = dict(self._select_in("SELECT id, file_id FROM spans WHERE id IN ({marks})", ids, chunk=10_000))
        return np.fromiter((found.get(i, -1) for i in ids), dtype=np.int64, count=len(ids))

    def file_ids(self, paths: Sequence[str]) -> dict[str, int]:
        """{path: file id} of the indexed files among ``paths``."""
        return dict(self._select_in("SELECT path, id FROM files WHERE path IN ({marks})", paths))

    def embedded_spans_of(self, paths: Sequence[str]) -> list[tuple[int, str]]:
        """(span rowid, path) of every embedded span of the files at ``paths``."""
        sql = (
            "SELECT s.id, f.path FROM files f JOIN spans s ON s.file_id = f.id "
            "WHERE f.path IN ({marks}) AND s.embedded = 1"
        )
        return list(self._select_in(sql, paths))

    def fts(
        self, match: str, limit: int, scope: Scope | None = None, weights: Mapping[str, float] = SPAN_TEXT_COLUMNS
    ) -> list[tuple[int, float]]:
        """(span rowid, bm25) for an FTS5 MATCH expression, spans in ``scope`` only; bm25 is negative, lower
        is better. ``weights``: each column's BM25 weight by name (a column not named weighs 0)."""
        w = ", ".join(str(float(weights.get(column, 0.0))) for column in SPAN_TEXT_COLUMNS)
        within, args = _within(scope, "rowid")
        return list(
            self.con.execute(
                f"SELECT rowid, bm25(spans_fts, {w}) AS r FROM spans_fts WHERE spans_fts MATCH ?{within} "
                "ORDER BY r LIMIT ?",
                (match, *args, int(limit)),
            )
        )

    def file_fts(self, match: str, limit: int, scope: Scope | None = None) -> list[tuple[str, float]]:
        """(path, bm25) of whole files (with a span in ``scope``) for an FTS5 MATCH expression; bm25 is
        negative, lower is better."""
        within, args = _within(scope, "rowid", files=True)
        w = ", ".join(str(float(x)) for x in FILE_TEXT_COLUMNS.values())
        return list(
            self.con.execute(
                f"SELECT f.path, r FROM (SELECT rowid, bm25(files_fts, {w}) AS r FROM files_fts "
                f"WHERE files_fts MATCH ?{within} ORDER BY r LIMIT ?) JOIN files f ON f.id = rowid ORDER BY r",
                (match, *args, int(limit)),
            )
        )

    def file_heads(self, paths: Sequence[str], scope: Scope | None = None) -> list[StoredSpan]:
        """The outermost first span of each file (its module span or first window): a file's stand-in;
        with ``scope``, the outermost first span in scope."""
        if not paths:
            return []
        marks = ",".join("?" * len(paths))
        within, args = _within(scope, "s.id")
        rows = self.con.execute(
            f"SELECT {SPAN_COLUMNS} FROM spans s JOIN files f ON f.id = s.file_id WHERE f.path IN ({marks}) "
            f"AND s.start_line = 1{within} ORDER BY f.path, s.end_line DESC",
            [*paths, *args],
        )
        heads: dict[str, StoredSpan] = {}
        for r in rows:
            span = StoredSpan(*r)
            heads.setdefault(span.path, span)
        return list(heads.values())

    def files_whose_name_has(self, words: Sequence[str], limit: int = 2000) -> list[str]:
        """Indexed files whose name (last path component) contains one of ``words`` (case-insensitively)."""
        wanted = sorted({w for w in words if w and "/" not in w})
        if not wanted:
            return []
        likes = " OR ".join("path LIKE ? ESCAPE '\\'" for _ in wanted)
        patterns = ["%" + re.sub(r"([%_\\])", r"\\\1", w) + "%" for w in wanted]
        rows = self.con.execute(
            f"SELECT path FROM files WHERE skip_reason IS NULL AND ({likes}) LIMIT ?", [*patterns, limit]
        )
        return [p for (p,) in rows if any(w in p.rsplit("/", 1)[-1].lower() for w in wanted)]

    def files_named(self, names: Sequence[str]) -> list[str]:
        """Indexed files whose name (last path component) is one of ``names``, matched case-sensitively."""
        wanted = sorted({n for n in names if n and "/" not in n})
        if not wanted:
            return []
        likes = " OR ".join("path LIKE ? ESCAPE '\\'" for _ in wanted)
        patterns = ["%/" + re.sub(r"([%_\\])", r"\\\1", name) for name in wanted]
        marks = ",".join("?" * len(wanted))
        rows = self.con.execute(
            f"SELECT path FROM files WHERE skip_reason IS NULL AND (path IN ({marks}) OR {likes})", [*wanted, *patterns]
        )
        return [p for (p,) in rows if p.rsplit("/", 1)[-1] in wanted]

    def term_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """How many spans contain each term (terms absent from the index are left out)."""
        if not terms:
            return {}
        marks = ",".join("?" * len(terms))
        return dict(self.con.execute(f"SELECT term, doc FROM spans_vocab WHERE term IN ({marks})", list(terms)))

    def terms_of(
        self, terms: Mapping[str, Sequence[str]], span: int | None = None, path: str | None = None
    ) -> set[str]:
        """Which of ``terms`` one span (by rowid) or one whole file (by path) contains, as full-text search
        reads it (every column, camelCase sub-words included); a term counts when it or one of its forms
        (the mapping's values) is there."""
        key: int | str | None = span
        if span is not None:
            sql = "SELECT 1 FROM spans_fts WHERE spans_fts MATCH ? AND rowid = ?"
        else:
            sql = "SELECT 1 FROM files_fts WHERE files_fts MATCH ? AND rowid = (SELECT id FROM files WHERE path = ?)"
            key = path
        found = set()
        for term, forms in terms.items():
            match = " OR ".join(f'"{t}"' for t in [term, *forms])
            if self.con.execute(sql, (match, key)).fetchone() is not None:
                found.add(term)
        return found

    def written_beside(self, term: str, phrase: Sequence[str], distance: int = 3) -> bool:
        """Whether some span has ``term`` within ``distance`` tokens of the words of ``phrase`` in a row
        ("Server-Sent Events (SSE)")."""
        words = " ".join(phrase).replace('"', "")
        match = f'NEAR("{words}" "{term.replace(chr(34), "")}", {int(distance)})'
        found = self.con.execute("SELECT 1 FROM spans_fts WHERE spans_fts MATCH ? LIMIT 1", (match,)).fetchone()
        return found is not None

    def terms_starting(self, prefix: str, limit: int = 200) -> list[tuple[str, int]]:
        """(term, spans holding it) of the index's terms that start with ``prefix``."""
        return list(
            self.con.execute(
                "SELECT term, doc FROM spans_vocab WHERE term >= ? AND term < ? LIMIT ?",
                (prefix, prefix + "\U0010ffff", limit),
            )
        )

    def spans_by_rowid(self, rowids: Sequence[int]) -> dict[int, StoredSpan]:
        sql = f"SELECT {SPAN_COLUMNS} FROM spans s JOIN files f ON f.id = s.file_id WHERE s.id IN ({{marks}})"
        return {r[0]: StoredSpan(*r) for r in self._select_in(sql, rowids)}

    def spans_by_name(self, names: Sequence[str], limit: int = 50, scope: Scope | None = None) -> list[StoredSpan]:
        """Spans named (case-insensitively) or qualified-named (exactly) one of ``names``, in ``scope``; those
        whose name has the case asked for first, then modules (files), then the rarer names, so ``limit``
        never drops them for case-only matches, nor a name defined once (a traceback's ``parse_expr``) for
        one defined hundreds of times (its ``doprint``). The order is the index's content alone (path and
        line break ties, never row ids), so the same files give the same answer however they were indexed.
        Only a dotted name is compared with qualified names: an undotted qualified name is the span's name,
        and the name index answers without reading every span."""
        if not names:
            return []
        marks = ",".join("?" * len(names))
        dotted = [n for n in names if "." in n]
        # each lookup through its own index (an OR of the two made SQLite read every span)
        qualified = (
            f" UNION ALL SELECT id FROM spans WHERE qualname IN ({','.join('?' * len(dotted))})" if dotted else ""
        )
        within, args = _within(scope, "s.id")
        hits: list[tuple[int, str, int, str, int]] = self.con.execute(  # type: ignore[assignment]
            "SELECT s.id, s.name, s.kind = 'module', f.path, s.start_line "
            "FROM spans s JOIN files f ON f.id = s.file_id "
            f"WHERE s.id IN (SELECT id FROM spans WHERE name COLLATE NOCASE IN ({marks}){qualified}){within}",
            (*names, *dotted, *args),
        ).fetchall()
        asked = set(names)
        defined = Counter(name for _, name, _, _, _ in hits)
        hits.sort(key=lambda h: (h[1] not in asked, not h[2], defined[h[1]], h[3], h[4]))
        chosen = [h[0] for h in hits[:limit]]
        found = self.spans_by_rowid(chosen)
        return [found[i] for i in chosen if i in found]

    def members_named(
        self, members: Sequence[tuple[str, str]], limit: int = 50, scope: Scope | None = None
    ) -> list[StoredSpan]:
        """Spans named ``member`` inside ``owner`` (``("QueryParams", "merge")``: ``QueryParams.merge``, or
        ``httpx.QueryParams.merge``), case aside; through the name index, then their qualified names."""
        if not members:
            return []
        names = sorted({member for _, member in members})
        marks = ",".join("?" * len(names))
        within, args = _within(scope, "s.id")
        rows: list[tuple[int, str]] = self.con.execute(  # type: ignore[assignment]
            f"SELECT s.id, s.qualname FROM spans s WHERE s.name COLLATE NOCASE IN ({marks}){within} "
            "ORDER BY s.file_id, s.start_line",
            (*names, *args),
        ).fetchall()
        wanted = {f"{owner}.{member}".lower() for owner, member in members}
        chosen = [
            rowid
            for rowid, qualname in rows
            if (q := qualname.lower()) in wanted or any(q.endswith(f".{w}") for w in wanted)
        ][:limit]
        found = self.spans_by_rowid(chosen)
        return [found[i] for i in chosen if i in found]

    def indexed_paths(self) -> dict[str, int]:
        """{path: file id} of every indexed file (skipped ones left out)."""
        return dict(self.con.execute("SELECT path, id FROM files WHERE skip_reason IS NULL"))

    def span_ids_in(self, scope: Scope) -> np.ndarray:
        """The rowids of the spans in ``scope``, sorted."""
        sql, args = scope.spans_sql()
        return np.fromiter((r for (r,) in self.con.execute(sql + " ORDER BY id", args)), dtype=np.int64)

    def spans_named_exactly(self, names: Sequence[str], limit: int = 2000) -> list[StoredSpan]:
        """Spans whose name is one of ``names``, compared case-sensitively (the case-insensitive name
        index finds the candidates; the exact comparison drops ``cart`` when ``Cart`` was asked for)."""
        wanted = sorted({n for n in names if n})
        out: list[StoredSpan] = []
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.con.execute(
                f"SELECT {SPAN_COLUMNS} FROM spans s JOIN files f ON f.id = s.file_id "
                f"WHERE s.name COLLATE NOCASE IN ({marks}) AND s.name IN ({marks}) LIMIT ?",
                (*chunk, *chunk, int(limit) - len(out)),
            )
            out.extend(StoredSpan(*r) for r in rows)
            if len(out) >= limit:
                break
        return out

    def spans_named_like(self, pattern: str, limit: int = 400) -> list[StoredSpan]:
        """Spans whose name matches a LIKE ``pattern`` (case-insensitive, ``\\`` escapes); a pattern without
        a leading ``%`` uses the name index."""
        rows = self.con.execute(
            f"SELECT {SPAN_COLUMNS} FROM spans s JOIN files f ON f.id = s.file_id "
            "WHERE s.name LIKE ? ESCAPE '\\' LIMIT ?",
            (pattern, int(limit)),
        )
        return [StoredSpan(*r) for r in rows]

    def names_between(self, shortest: int, longest: int) -> list[str]:
        """The distinct span names of ``shortest`` to ``longest`` characters (read from the name index)."""
        rows = self.con.execute(
            "SELECT DISTINCT name FROM spans WHERE length(name) BETWEEN ? AND ?", (int(shortest), int(longest))
        )
        return [name for (name,) in rows]

    def spans_by_span_id(self, span_ids: Sequence[str]) -> list[StoredSpan]:
        sql = f"SELECT {SPAN_COLUMNS} FROM spans s JOIN files f ON f.id = s.file_id WHERE s.span_id IN ({{marks}})"
        return [StoredSpan(*r) for r in self._select_in(sql, span_ids)]

    def spans_of_file(self, path: str) -> list[StoredSpan]:
        rows = self.con.execute(
            f"SELECT {SPAN_COLUMNS} FROM spans s JOIN files f ON f.id = s.file_id WHERE f.path = ? "
            "ORDER BY s.start_line, s.end_line DESC",
            (path,),
        )
        return [StoredSpan(*r) for r in rows]

    def counts(self) -> Counts:
        """Files, spans and embedded spans; called on every search, so counted again only when the index
        changed (a commit by another connection moves ``data_version``, one by this connection its changes)."""
        c = self.con
        version = (id(c), _scalar(c, "PRAGMA data_version"), c.total_changes())
        cached = getattr(self._local, "counts", None)  # per thread, as its connection is
        if cached is not None and cached[0] == version:
            return dict(cached[1])  # type: ignore[return-value]
        files = _scalar(c, "SELECT COUNT(*) FROM files WHERE skip_reason IS NULL")
        spans = _scalar(c, "SELECT COUNT(*) FROM spans")
        pending = _scalar(c, "SELECT COUNT(*) FROM spans WHERE embedded = 0")
        counts: Counts = {"files": files, "spans": spans, "embedded": spans - pending}
        self._local.counts = (version, counts)
        return dict(counts)  # type: ignore[return-value]

    def detail_counts(self) -> DetailCounts:
        """Slower figures for status reports."""
        c = self.con
        return {
            "cached_vectors": _scalar(c, "SELECT COUNT(*) FROM embedding_cache"),
        }

    def skipped_counts(self) -> dict[str, int]:
        rows = self.con.execute(
            "SELECT skip_reason, COUNT(*) FROM files WHERE skip_reason IS NOT NULL GROUP BY skip_reason"
        )
        return dict(rows)

    def skipped_files(self) -> list[tuple[str, str]]:
        """(path, reason) of the files the indexer skipped after reading them (too large, binary,
        unreadable), by path."""
        rows = self.con.execute("SELECT path, skip_reason FROM files WHERE skip_reason IS NOT NULL ORDER BY path")
        return [(path, reason) for path, reason in rows]

    def files_with_syntax_errors(self) -> list[str]:
        """Paths of indexed files whose parse met syntax errors (indexed anyway), in order."""
        rows = self.con.execute("SELECT path FROM files WHERE parse_errors > 0 ORDER BY path")
        return [path for (path,) in rows]

    def languages(self) -> dict[str, int]:
        rows = self.con.execute(
            "SELECT language, COUNT(*) FROM files WHERE skip_reason IS NULL GROUP BY language ORDER BY 2 DESC"
        )
        return {lang or "unknown": n for lang, n in rows}
