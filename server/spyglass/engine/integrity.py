"""A read of one index file that says whether it is sound, and what it holds (the crash-safety checks).

:func:`check_index` runs SQLite's ``PRAGMA integrity_check``, FTS5's own ``integrity-check`` on both
full-text tables, and the cross-table invariants the store keeps inside each transaction: every span
belongs to an indexed file, no file holds the same span twice, each span and each indexed file has
exactly one full-text row, and the vector table holds one vector per embedded span and nothing else.
It also returns the index's contents (files with their content hash, spans with their embed hash) so
that a caller can compare two indexes of the same tree (a recovered one and a clean build).

FTS5's check is run as the ``INSERT`` FTS5 asks for, so the file must be writable: check a copy when the
index must stay exactly as it is (after a kill, before the next run recovers it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apsw
import sqlite_vec

from .migrations import SCHEMA_VERSION

SpanKey = tuple[str, str, str]
"""(path, span id, embed hash): one span, with what its vector was made from."""


@dataclass
class IndexCheck:
    problems: list[str] = field(default_factory=list)
    """Every broken rule, as a sentence; empty when the index is sound."""
    files: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    """path -> (content hash, skip reason) of every file row."""
    spans: Counter[SpanKey] = field(default_factory=Counter)
    """How many times each span is stored (1 in a sound index)."""
    unembedded: int = 0
    """Spans still waiting for their vector."""
    vectors: int = 0
    version: int = 0
    """The schema version (0: no Spyglass table yet)."""

    @property
    def sound(self) -> bool:
        return not self.problems

    @property
    def duplicated(self) -> int:
        """Spans stored more than once (each extra copy counts)."""
        return sum(n - 1 for n in self.spans.values() if n > 1)


def _connect(path: Path) -> apsw.Connection:
    con = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READWRITE)
    con.set_busy_timeout(30_000)
    con.enable_load_extension(True)
    con.load_extension(sqlite_vec.loadable_path())
    con.enable_load_extension(False)
    return con


def _one(con: apsw.Connection, sql: str) -> Any:
    row = con.execute(sql).fetchone()
    return row[0] if row else None


def _ids(con: apsw.Connection, sql: str) -> set[int]:
    return {int(r[0]) for r in con.execute(sql)}


def _differ(problems: list[str], what: str, have: set[int], want: set[int], of: str) -> None:
    if have - want:
        problems.append(f"{len(have - want)} {what} row(s) without {of}")
    if want - have:
        problems.append(f"{len(want - have)} {of} without {what} row(s)")


def check_index(path: Path | str, *, unfinished_ok: bool = False) -> IndexCheck:
    """Check the index file at ``path`` (opened read-write; nothing is changed) and read what it holds.

    ``unfinished_ok``: an index whose schema is not (yet) complete is sound (a kill while the first run
    created it leaves no table, or the first migrations only: the next run goes on from there); its
    pages are still checked."""
    check = IndexCheck()
    problems = check.problems
    try:
        con = _connect(Path(path))
    except apsw.Error as e:
        problems.append(f"cannot open: {e}")
        return check
    try:
        _check(con, check, unfinished_ok)
    except apsw.Error as e:
        problems.append(f"{type(e).__name__}: {e}")
    finally:
        con.close()
    return check


def _check(con: apsw.Connection, check: IndexCheck, unfinished_ok: bool) -> None:
    problems = check.problems
    rows = [r[0] for r in con.execute("PRAGMA integrity_check")]
    if rows != ["ok"]:
        problems.extend(f"integrity_check: {r}" for r in rows[:20])
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and "schema_migrations" not in tables:  # what the store takes for another program's file
        problems.append(f"tables but no schema_migrations: {sorted(tables)[:5]}")
        return
    check.version = int(_one(con, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations") or 0) if tables else 0
    if check.version != SCHEMA_VERSION:
        if not unfinished_ok or check.version > SCHEMA_VERSION:
            problems.append(f"schema version {check.version}, expected {SCHEMA_VERSION}")
        return
    for table in ("spans_fts", "files_fts"):
        try:
            con.execute(f"INSERT INTO {table}({table}) VALUES('integrity-check')")
        except apsw.Error as e:
            problems.append(f"{table} integrity-check: {e}")

    for path, content_hash, skip in con.execute("SELECT path, content_hash, skip_reason FROM files"):
        check.files[path] = (content_hash, skip)
    for path, span_id, embed_hash in con.execute(
        "SELECT f.path, s.span_id, s.embed_hash FROM spans s JOIN files f ON f.id = s.file_id"
    ):
        check.spans[(path, span_id, embed_hash)] += 1
    if check.duplicated:
        problems.append(f"{check.duplicated} span(s) stored twice")
    orphans = _one(
        con,
        "SELECT COUNT(*) FROM spans s LEFT JOIN files f ON f.id = s.file_id WHERE f.id IS NULL OR f.skip_reason "
        "IS NOT NULL",
    )
    if orphans:
        problems.append(f"{orphans} span(s) of a missing or skipped file")

    spans = _ids(con, "SELECT id FROM spans")
    _differ(problems, "spans_fts", _ids(con, "SELECT rowid FROM spans_fts"), spans, "span")
    indexed = _ids(con, "SELECT id FROM files WHERE skip_reason IS NULL")
    _differ(problems, "files_fts", _ids(con, "SELECT rowid FROM files_fts"), indexed, "indexed file")

    embedded = _ids(con, "SELECT id FROM spans WHERE embedded = 1")
    check.unembedded = len(spans) - len(embedded)
    if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'span_vectors'").fetchone():
        vectors = _ids(con, "SELECT rowid FROM span_vectors")
        check.vectors = len(vectors)
        _differ(problems, "span_vectors", vectors, embedded, "embedded span")
    elif embedded:
        problems.append(f"{len(embedded)} span(s) marked embedded but there is no vector table")
