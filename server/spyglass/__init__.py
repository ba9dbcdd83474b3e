"""Spyglass: local, offline code search over one incremental index, for editors, agents and CI."""

import os

# OpenBLAS worker threads keep spinning after numpy's matrix product in vector search and starve the
# embedding model's own threads: measured on 2 cores, warm search p50 went from 32 ms to 21 ms with one
# BLAS thread (docs/benchmarks.md). Set before numpy is first imported; a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
