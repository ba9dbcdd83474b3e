import numpy as np
import pytest

from spyglass.engine.search.vectors import StoreVectors, VectorCache, best_mean_by_key
from spyglass.engine.spans import Span
from spyglass.engine.store import SpanRecord, Store

DIMS = 8


def _record(path: str, i: int) -> SpanRecord:
    text = f"def f{i}(): pass"
    span = Span("function", f"f{i}", f"f{i}", "", "", None, "python", i + 1, i + 1, 0, len(text), text)
    return SpanRecord(span, span.span_id(path), f"{path}-{i}", (f"f{i}", path, "", text, ""))


def _write(store: Store, path: str, n: int, rng: np.random.Generator) -> None:
    store.write_file(
        path,
        size=n,
        mtime_ns=n,
        language="python",
        content_hash=f"{path}{n}",
        parse_errors=False,
        records=[_record(path, i) for i in range(n)],
    )
    vecs = rng.normal(size=(n, DIMS)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    store.store_embeddings((f"{path}-{i}", vecs[i]) for i in range(n))


def _same(cache: VectorCache, store: Store, rng: np.random.Generator) -> None:
    for _ in range(5):
        q = rng.normal(size=DIMS).astype(np.float32)
        q /= np.linalg.norm(q)
        ours = cache.knn(q, 10)
        theirs = StoreVectors(store).knn(q, 10)
        assert [r for r, _ in ours] == [r for r, _ in theirs]
        assert np.allclose([d for _, d in ours], [d for _, d in theirs], atol=1e-5)
    # the file-level signal: the same from memory as from the stored vectors
    files = store.file_ids(["a.py", "b.py", "c.py"])
    owners = dict(store.embedded_spans_of(list(files)))
    ids, mat = store.vectors(list(owners))
    q = rng.normal(size=DIMS).astype(np.float32)
    want = best_mean_by_key([owners[int(i)] for i in ids], mat @ q, 3)
    for index in (cache, StoreVectors(store)):
        got = index.file_similarity(q, list(files), 3)
        assert got.keys() == want.keys() and all(got[f] == pytest.approx(want[f], abs=1e-5) for f in want)


def test_cache_matches_sqlite_vec_through_adds_deletes_and_a_model_change(tmp_path):
    rng = np.random.default_rng(0)
    writer = Store(tmp_path / "i.db")
    writer.ensure_vector_table("m", DIMS)
    _write(writer, "a.py", 30, rng)
    reader = Store(tmp_path / "i.db", readonly=True)  # another process, reading while the writer works
    cache = VectorCache(reader)
    _same(cache, reader, rng)
    assert len(cache) == 30

    _write(writer, "b.py", 20, rng)  # added
    _write(writer, "a.py", 10, rng)  # replaced: 30 spans out, 10 in
    writer.delete_file("b.py")
    _write(writer, "c.py", 5, rng)
    _same(cache, reader, rng)
    assert len(cache) == 15

    writer.ensure_vector_table("other-model", DIMS)  # everything dropped, then re-embedded
    fresh = rng.normal(size=(10, DIMS)).astype(np.float32)
    writer.store_embeddings((f"a.py-{i}", fresh[i] / np.linalg.norm(fresh[i])) for i in range(10))
    _same(cache, reader, rng)
    assert len(cache) == 10


def test_cache_recovers_when_the_log_was_trimmed(tmp_path):
    rng = np.random.default_rng(1)
    store = Store(tmp_path / "i.db")
    store.ensure_vector_table("m", DIMS)
    _write(store, "a.py", 10, rng)
    cache = VectorCache(store)
    assert len(cache.knn(np.ones(DIMS, dtype=np.float32), 3)) == 3
    for n in (12, 14):
        _write(store, "a.py", n, rng)
    store.trim_vector_log(keep=5)
    _same(cache, store, rng)
    assert len(cache) == 14


def test_empty_index(tmp_path):
    store = Store(tmp_path / "i.db")
    assert VectorCache(store).knn(np.ones(DIMS, dtype=np.float32), 5) == []


def test_best_mean_by_key_rewards_several_close_spans_and_divides_by_n():
    keys = ["a", "a", "a", "a", "b", "c"]
    sims = np.array([0.9, 0.1, 0.5, 0.4, 0.95, -0.3], dtype=np.float32)
    got = best_mean_by_key(keys, sims, 3)
    assert got["a"] == pytest.approx((0.9 + 0.5 + 0.4) / 3)
    assert got["b"] == pytest.approx(0.95 / 3)  # one close span is weaker evidence than three
    assert got["c"] == 0.0  # never negative
    assert best_mean_by_key([], np.zeros(0), 3) == {}


def test_embedded_spans_of_lists_only_embedded_spans_of_the_named_files(tmp_path):
    rng = np.random.default_rng(2)
    store = Store(tmp_path / "i.db")
    store.ensure_vector_table("m", DIMS)
    _write(store, "a.py", 3, rng)
    _write(store, "b.py", 2, rng)
    store.write_file(
        "c.py",
        size=1,
        mtime_ns=1,
        language="python",
        content_hash="c",
        parse_errors=False,
        records=[_record("c.py", 0)],
    )  # indexed, never embedded
    got = store.embedded_spans_of(["a.py", "c.py", "missing.py"])
    assert sorted(path for _, path in got) == ["a.py"] * 3
    assert store.embedded_spans_of([]) == []
