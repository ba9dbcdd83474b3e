"""The span vectors the vector signals search: a :class:`VectorIndex`, served by sqlite-vec's scan over the
store (:class:`StoreVectors`) or by an exact in-memory copy (:class:`VectorCache`).

sqlite-vec 0.1.9 has no ANN index: its kNN is a brute-force scan, several times slower than one numpy
matrix product over the same vectors (see docs/benchmarks.md). A long-running process (language server,
MCP server, benchmark) keeps the vectors in memory and stays exact and fresh: before each query it reads
the store's vector log and applies only the spans added or removed since (a reload only when the model
changed or it fell behind the trimmed log). A one-shot CLI search uses sqlite-vec directly instead, since
loading every vector would cost more than one scan.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np

from ..store import Scope, Store


class VectorIndex(Protocol):
    """Nearest spans to a query vector, and how close whole files are to it."""

    def knn(self, vectors: np.ndarray, k: int, scope: Scope | None = None) -> list[tuple[int, float]]:
        """(span rowid, cosine distance) of the ``k`` nearest embedded spans (in ``scope``), best first;
        ``vectors`` is one query vector or several (one per row): a span's distance is then its smallest."""
        ...

    def file_similarity(self, vector: np.ndarray, paths: Iterable[str], n: int) -> dict[str, float]:
        """How close each of these files is to the query: ``best_mean_by_key`` of its ``n`` best span
        similarities, over all of its embedded spans; by path."""
        ...


class StoreVectors:
    """The vectors as the store keeps them: sqlite-vec's scan, nothing held in memory."""

    def __init__(self, store: Store):
        self.store = store

    def knn(self, vectors: np.ndarray, k: int, scope: Scope | None = None) -> list[tuple[int, float]]:
        return self.store.knn(vectors, k, scope)

    def file_similarity(self, vector: np.ndarray, paths: Iterable[str], n: int) -> dict[str, float]:
        owners = dict(self.store.embedded_spans_of(sorted(paths)))
        ids, mat = self.store.vectors(list(owners))
        sims = (mat @ np.atleast_2d(np.asarray(vector, dtype=np.float32)).T).max(axis=1) if len(ids) else []
        return best_mean_by_key([owners[int(i)] for i in ids], sims, n)


class VectorCache:
    """An exact in-memory copy of the store's vectors, kept fresh from its vector log."""

    def __init__(self, store: Store):
        self.store = store
        self._seq = -1  # last vector_log entry applied; -1: nothing loaded yet
        self._ids = np.zeros(0, dtype=np.int64)
        self._files = np.zeros(0, dtype=np.int64)  # the file id of each span, for file-level signals
        self._mat = np.zeros((0, 0), dtype=np.float32)
        self._last: tuple[tuple[int, bytes], np.ndarray] | None = None  # the last query's similarities
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._ids)

    def refresh(self) -> None:
        """Apply what changed in the index since the last call."""
        with self._lock:
            first, last = self.store.vector_log_bounds()
            if last == self._seq:
                return
            changes = [] if self._seq < 0 or first > self._seq + 1 else self.store.vector_changes(self._seq)
            if self._seq < 0 or first > self._seq + 1 or any(span < 0 for span, _ in changes):
                ids, mat = self.store.vectors()
                files = self.store.span_files(ids)
            else:
                net = dict(changes)  # the last change of each span wins
                # drop every span that changed, then add back the ones that have a vector now: applying
                # a change twice (a reload raced with a write) is harmless
                keep = ~np.isin(self._ids, np.fromiter(net, dtype=np.int64, count=len(net)))
                new_ids, new_mat = self.store.vectors([span for span, added in net.items() if added])
                new_files = self.store.span_files(new_ids)
                if self._mat.size == 0:
                    ids, mat, files = new_ids, new_mat, new_files
                else:
                    ids = np.concatenate([self._ids[keep], new_ids])
                    files = np.concatenate([self._files[keep], new_files])
                    mat = np.concatenate([self._mat[keep], new_mat]) if len(new_ids) else self._mat[keep]
            self._ids, self._files, self._mat, self._seq = ids, files, mat, last

    def _similarities(self, vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rowids, file ids, similarity) of every vector to the query: its best over the query's rows.
        The last query's answer is kept, so kNN and the file-level signal share one matrix product."""
        self.refresh()
        query = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        with self._lock:  # one consistent snapshot, not arrays from two refreshes
            ids, files, mat, seq, last = self._ids, self._files, self._mat, self._seq, self._last
        key = (seq, query.tobytes())
        if last is not None and last[0] == key:
            return ids, files, last[1]
        sims = (mat @ query.T).max(axis=1) if len(ids) else np.zeros(0, dtype=np.float32)
        self._last = (key, sims)
        return ids, files, sims

    def knn(self, vectors: np.ndarray, k: int, scope: Scope | None = None) -> list[tuple[int, float]]:
        """As :meth:`VectorIndex.knn`, from memory."""
        ids, _, sims = self._similarities(vectors)
        if scope is not None:
            mask = np.isin(ids, self.store.span_ids_in(scope))
            ids, sims = ids[mask], sims[mask]
        if not len(ids):
            return []
        k = min(k, len(ids))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top])]
        return [(int(ids[i]), float(1.0 - sims[i])) for i in top]

    def file_similarity(self, vector: np.ndarray, paths: Iterable[str], n: int) -> dict[str, float]:
        """As :meth:`VectorIndex.file_similarity`, from the kNN's similarities to every span (already
        computed for the same query)."""
        by_id = {file_id: path for path, file_id in self.store.file_ids(sorted(paths)).items()}
        _, files, sims = self._similarities(vector)
        mask = np.isin(files, np.asarray(list(by_id), dtype=np.int64))
        scores = best_mean_by_key(files[mask], sims[mask], n)
        return {by_id[file_id]: score for file_id, score in scores.items()}


def best_mean_by_key(keys: Sequence | np.ndarray, sims: Sequence[float] | np.ndarray, n: int) -> dict:
    """For each key (a file), the sum of its ``n`` best similarities divided by ``n``, never below 0: a file
    with several spans close to the query scores higher than one with a single close span (or fewer than
    ``n`` spans)."""
    keys, sims = np.asarray(keys), np.asarray(sims, dtype=np.float64)
    if not len(keys):
        return {}
    unique, codes = np.unique(keys, return_inverse=True)
    order = np.lexsort((-sims, codes))  # by key, best first within a key
    codes, sims = codes[order], sims[order]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    rank = np.arange(len(codes)) - np.repeat(starts, np.diff(np.r_[starts, len(codes)]))
    keep = rank < n
    totals = np.bincount(codes[keep], weights=sims[keep], minlength=len(unique))
    return {key: max(0.0, float(total) / n) for key, total in zip(unique.tolist(), totals, strict=True)}
