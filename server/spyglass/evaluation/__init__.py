"""Retrieval-quality evaluation (``spyglass eval``).

This package sits above the engine: it may import ``spyglass.engine.*``, the engine never imports it.

- ``dataset``: evaluation queries with gold locations (our JSONL format, and the SWE-bench Lite adapter).
- ``metrics``: pure scoring: roll-up of ranked spans into file/module/function lists, Acc@k, MRR, nDCG.
- ``report``: JSON reports, Markdown tables, published reference rows and report-to-report comparison.
- ``crash``: not retrieval quality but reliability: the kill -9 harness around real ``spyglass index``
  processes (bench/reliability_crash.py, tests/cli/test_crash_safety.py).
"""
