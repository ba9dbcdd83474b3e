import apsw
import numpy as np
import pytest

from spyglass.engine.errors import IndexCorrupt, IndexFromFuture, IndexMissing
from spyglass.engine.migrations import MIGRATIONS, SCHEMA_VERSION
from spyglass.engine.spans import Span
from spyglass.engine.store import SpanRecord, Store


def _record(path: str, name: str, text: str, line: int = 1, embed_hash: str | None = None) -> SpanRecord:
    span = Span("function", name, name, f"def {name}()", "", None, "python", line, line + 1, 0, len(text), text)
    return SpanRecord(span, span.span_id(path), embed_hash or f"h-{text}", (name, path, "", text, ""))


def _write(store: Store, path: str, *records: SpanRecord) -> int:
    return store.write_file(
        path, size=1, mtime_ns=1, language="python", content_hash=path, parse_errors=False, records=list(records)
    )


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_fresh_store_is_migrated_to_the_latest_schema(tmp_path):
    store = Store(tmp_path / "i.db")
    assert store.schema_version() == SCHEMA_VERSION
    assert store.con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()
    assert Store(tmp_path / "i.db", readonly=True).schema_version() == SCHEMA_VERSION


def test_missing_index_for_readers(tmp_path):
    with pytest.raises(IndexMissing, match="spyglass index"):
        Store(tmp_path / "nope.db", readonly=True)


def test_index_from_a_newer_version_is_refused(tmp_path):
    store = Store(tmp_path / "i.db")
    store.con.execute("INSERT INTO schema_migrations VALUES(?, 0)", (SCHEMA_VERSION + 1,))
    store.close()
    with pytest.raises(IndexFromFuture, match="newer"):
        Store(tmp_path / "i.db")


@pytest.mark.parametrize("content", [b"garbage" * 1000, b"SQLite format 3\x00" + b"\xff" * 5000])
def test_corrupt_file_gives_a_clear_error(tmp_path, content):
    (tmp_path / "i.db").write_bytes(content)
    with pytest.raises(IndexCorrupt, match="--rebuild"):
        Store(tmp_path / "i.db")


def test_foreign_sqlite_database_is_not_taken_over(tmp_path):
    import apsw

    apsw.Connection(str(tmp_path / "other.db")).execute("CREATE TABLE x(y)")
    with pytest.raises(IndexCorrupt, match="not a Spyglass index"):
        Store(tmp_path / "other.db")


def test_full_text_finds_and_forgets_spans(tmp_path):
    store = Store(tmp_path / "i.db")
    _write(store, "a.py", _record("a.py", "load_config", "def load_config(): read yaml"))
    _write(store, "b.py", _record("b.py", "save", "def save(): write json"))
    hits = store.fts('"yaml" OR "json"', 10)
    assert len(hits) == 2
    _write(store, "a.py", _record("a.py", "load_config", "def load_config(): read toml"))
    assert [r for r, _ in store.fts('"yaml"', 10)] == []
    store.delete_file("b.py")
    assert store.fts('"json"', 10) == []
    assert store.counts()["spans"] == 1


def test_vectors_are_cached_by_embed_hash_and_reused(tmp_path):
    store = Store(tmp_path / "i.db")
    assert store.ensure_vector_table("m1", 3) is False
    _write(store, "a.py", _record("a.py", "f", "text one", embed_hash="H1"))
    assert [p.embed_hash for p in store.pending_embeddings()] == ["H1"]
    assert store.store_embeddings([("H1", _unit(1, 0, 0))]) == 1
    assert store.count_pending() == 0
    # the same text under another path (a rename) takes the cached vector: nothing left to embed
    store.delete_file("a.py")
    reused = _write(store, "moved/a.py", _record("moved/a.py", "f", "text one", embed_hash="H1"))
    assert reused == 1 and store.count_pending() == 0
    rowid, distance = store.knn(_unit(1, 0.1, 0), 5)[0]
    assert store.spans_by_rowid([rowid])[rowid].path == "moved/a.py"
    assert distance < 0.01


def test_model_change_resets_vectors(tmp_path):
    store = Store(tmp_path / "i.db")
    store.ensure_vector_table("m1", 3)
    _write(store, "a.py", _record("a.py", "f", "x", embed_hash="H1"))
    store.store_embeddings([("H1", _unit(1, 0, 0))])
    assert store.ensure_vector_table("m2", 4) is True
    assert store.count_pending() == 1
    assert store.get_meta("model_id") == "m2"
    assert store.knn(_unit(1, 0, 0, 0), 3) == []


def test_cache_prune_keeps_used_vectors(tmp_path):
    store = Store(tmp_path / "i.db")
    store.ensure_vector_table("m1", 3)
    _write(store, "a.py", _record("a.py", "f", "x", embed_hash="USED"))
    store.store_embeddings([("USED", _unit(1, 0, 0)), ("OLD1", _unit(0, 1, 0)), ("OLD2", _unit(0, 0, 1))])
    assert store.prune_cache(keep_unused=1) == 1
    left = {r[0] for r in store.con.execute("SELECT embed_hash FROM embedding_cache")}
    assert "USED" in left and len(left) == 2


def test_readers_see_committed_state_while_a_write_is_open(tmp_path):
    writer = Store(tmp_path / "i.db")
    _write(writer, "a.py", _record("a.py", "f", "alpha"))
    reader = Store(tmp_path / "i.db", readonly=True)
    with writer.atomic():
        _write(writer, "b.py", _record("b.py", "g", "beta"))
        assert reader.counts()["spans"] == 1  # the open transaction is invisible
    assert reader.counts()["spans"] == 2


def _open_index_files(path) -> int:
    import os

    names = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            names.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return sum(1 for n in names if n == str(path))


def test_threads_that_come_and_go_do_not_pile_up_connections(tmp_path):
    """A server answers on worker threads that a pool starts and ends; each thread reads through its own
    connection, and a thread's end must give it back (a 30-minute soak once held 19 open, and growing)."""
    import threading

    store = Store(tmp_path / "index.db")
    for _ in range(30):
        t = threading.Thread(target=lambda: store.counts())
        t.start()
        t.join()
    store.counts()  # this thread's, after the others ended
    assert _open_index_files(tmp_path / "index.db") <= 3
    store.close()
    assert _open_index_files(tmp_path / "index.db") == 0


def test_the_embedding_cache_of_an_older_index_is_kept_when_it_is_compacted(tmp_path):
    db = tmp_path / "i.db"
    con = apsw.Connection(str(db))
    for migrate in MIGRATIONS[:8]:  # an index of schema 8: the cache WITHOUT ROWID
        migrate(con)
    con.execute("CREATE TABLE schema_migrations(version INTEGER PRIMARY KEY, applied_at REAL)")
    con.executemany("INSERT INTO schema_migrations VALUES(?, 0)", [(v,) for v in range(1, 9)])
    vectors = {f"h{i}": bytes([i]) * 1536 for i in range(50)}
    con.executemany(
        "INSERT INTO embedding_cache VALUES(?, ?, ?)", [(h, v, i) for i, (h, v) in enumerate(vectors.items())]
    )
    con.close()
    store = Store(db)
    assert store.schema_version() == SCHEMA_VERSION
    assert dict(store.con.execute("SELECT embed_hash, vector FROM embedding_cache")) == vectors
    assert (
        store.con.execute("SELECT sql FROM sqlite_master WHERE name='embedding_cache'")
        .fetchone()[0]
        .count("INTEGER PRIMARY KEY")
    )


def test_a_migration_that_frees_most_pages_compacts_the_index(tmp_path):
    db = tmp_path / "i.db"
    con = apsw.Connection(str(db))
    for migrate in MIGRATIONS[:8]:
        migrate(con)
    con.execute("CREATE TABLE schema_migrations(version INTEGER PRIMARY KEY, applied_at REAL)")
    con.executemany("INSERT INTO schema_migrations VALUES(?, 0)", [(v,) for v in range(1, 9)])
    with con:
        con.executemany(
            "INSERT INTO embedding_cache VALUES(?, ?, ?)", [(f"h{i:05}", b"v" * 1536, i) for i in range(2000)]
        )
    con.close()
    before = db.stat().st_size
    Store(db).close()
    assert db.stat().st_size < before / 2  # 7 KB a vector before, 2 KB after; the freed pages returned
