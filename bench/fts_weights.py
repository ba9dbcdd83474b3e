"""bench/semble_ablation.py with other BM25 column weights, for issue 20's tuning (a benchmark, not a test).

    python bench/fts_weights.py --spans doc=0.5 [--files path=3] -- \
        ../shared/bench/semble --work W --split tune --only current

The weights of the full-text columns (``SPAN_TEXT_COLUMNS``, ``FILE_TEXT_COLUMNS`` in engine/migrations.py) are
read when a search runs, not stored in the index, so the same warm indexes answer under other weights. Every
argument after ``--`` goes to bench/semble_ablation.py (also for bench/behaviour).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from spyglass.engine import migrations


def _set(table: dict[str, float], pairs: list[str]) -> None:
    for pair in pairs:
        column, _, value = pair.partition("=")
        if column not in table:
            sys.exit(f"no column {column!r}: the columns are {', '.join(table)}")
        table[column] = float(value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spans", action="append", default=[], metavar="COLUMN=WEIGHT")
    ap.add_argument("--files", action="append", default=[], metavar="COLUMN=WEIGHT")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    _set(migrations.SPAN_TEXT_COLUMNS, args.spans)
    _set(migrations.FILE_TEXT_COLUMNS, args.files)
    print(f"spans {migrations.SPAN_TEXT_COLUMNS}, files {migrations.FILE_TEXT_COLUMNS}", file=sys.stderr)
    path = Path(__file__).with_name("semble_ablation.py")
    spec = importlib.util.spec_from_file_location("semble_ablation", path)
    assert spec and spec.loader
    ablation = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ablation)
    sys.argv = [str(path), *(a for a in args.rest if a != "--")]
    ablation.main()


if __name__ == "__main__":
    main()
