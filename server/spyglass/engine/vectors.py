"""Exact kNN over an in-memory copy of the live vectors, for processes that answer many queries.

sqlite-vec 0.1.9 has no ANN index: its kNN is a brute-force scan, several times slower than one numpy
matrix product over the same vectors (see docs/benchmarks.md). A long-running process (language server,
MCP server, benchmark) keeps the vectors in memory and stays exact and fresh: before each query it reads
the store's vector log and applies only the spans added or removed since (a reload only when the model
changed or it fell behind the trimmed log). A one-shot CLI search uses sqlite-vec directly instead, since
loading every vector would cost more than one scan.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from .store import Store


class VectorCache:
    def __init__(self, store: Store):
        self.store = store
        self._seq = -1  # last vector_log entry applied; -1: nothing loaded yet
        self._ids = np.zeros(0, dtype=np.int64)
        self._mat = np.zeros((0, 0), dtype=np.float32)
        self._order = np.zeros(0, dtype=np.int64)  # positions of _ids in rowid order, for lookups
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
                self._ids, self._mat = self.store.vectors()
            else:
                net = dict(changes)  # the last change of each span wins
                # drop every span that changed, then add back the ones that have a vector now: applying
                # a change twice (a reload raced with a write) is harmless
                keep = ~np.isin(self._ids, np.fromiter(net, dtype=np.int64, count=len(net)))
                new_ids, new_mat = self.store.vectors([span for span, added in net.items() if added])
                if self._mat.size == 0:
                    self._ids, self._mat = new_ids, new_mat
                else:
                    self._ids = np.concatenate([self._ids[keep], new_ids])
                    self._mat = np.concatenate([self._mat[keep], new_mat]) if len(new_ids) else self._mat[keep]
            self._order = np.argsort(self._ids, kind="stable")
            self._seq = last

    def rows(self, rowids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, matrix) of those of ``rowids`` that have a vector, like ``Store.vectors``."""
        self.refresh()
        with self._lock:  # one consistent snapshot, not arrays from two refreshes
            ids, mat, order = self._ids, self._mat, self._order
        wanted = np.asarray(list(rowids), dtype=np.int64)
        if not len(ids) or not len(wanted):
            return np.zeros(0, dtype=np.int64), np.zeros((0, mat.shape[1] if mat.ndim == 2 else 0), dtype=np.float32)
        pos = np.minimum(np.searchsorted(ids[order], wanted), len(ids) - 1)
        found = order[pos][ids[order[pos]] == wanted]
        return ids[found], mat[found]

    def knn(self, vectors: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(span rowid, cosine distance) of the ``k`` nearest vectors, like ``Store.knn``.

        ``vectors`` is one query vector or several (one per row): a span's distance is then its smallest.
        """
        self.refresh()
        with self._lock:
            ids, mat = self._ids, self._mat
        if not len(ids):
            return []
        sims = mat @ np.atleast_2d(np.asarray(vectors, dtype=np.float32)).T
        sims = sims.max(axis=1)
        k = min(k, len(ids))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top])]
        return [(int(ids[i]), float(1.0 - sims[i])) for i in top]


def best_mean_by_key(keys: Sequence[str], sims: np.ndarray, n: int) -> dict[str, float]:
    """For each key (a file), the sum of its ``n`` best similarities divided by ``n``: a file with several
    spans close to the query scores higher than one with a single close span (or fewer than ``n`` spans)."""
    best: dict[str, list[float]] = {}
    for i in np.argsort(-np.asarray(sims), kind="stable"):
        top = best.setdefault(keys[i], [])
        if len(top) < n:
            top.append(float(sims[i]))
    return {key: max(0.0, sum(top) / n) for key, top in best.items()}
