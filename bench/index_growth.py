"""How much the index grows per edit, and in which table (a benchmark, not a test; docs/reliability.md).

    python bench/index_growth.py [--edits 1500] [--every 500]

A copy of tests/fixtures/shop is indexed (with the model), then one file of ``gen/`` is written or deleted
per edit and re-indexed, as an editor's saves would be; every ``--every`` edits the database's size and
its biggest tables (SQLite's ``dbstat``, in KB) are printed.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

import apsw

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from spyglass.engine import Workspace  # noqa: E402


def size(db: Path) -> int:
    """The database and its write-ahead log, in bytes."""
    return sum(f.stat().st_size for f in (db, db.with_name(db.name + "-wal")) if f.exists())


def tables(db: Path) -> dict[str, int]:
    con = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        rows = con.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6").fetchall()
    finally:
        con.close()
    return {str(name): int(size) // 1024 for name, size in rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=1500)
    ap.add_argument("--every", type=int, default=500)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="spyglass-growth-")) / "shop"
    shutil.copytree(REPO / "tests" / "fixtures" / "shop", root, ignore=shutil.ignore_patterns(".spyglass"))
    (root / "gen").mkdir()
    rng = random.Random(7)
    with Workspace.open(root, writer=True, memory_vectors=True) as ws:
        ws.index()
        start = size(ws.db_path)
        print(f"start: {start // 1024} KB {tables(ws.db_path)}")
        for n in range(1, args.edits + 1):
            path = root / "gen" / f"m{rng.randrange(50):02}.py"
            if path.exists() and rng.random() < 0.3:
                path.unlink()
            else:
                path.write_text(f"def edit_fn_{n}(x):\n    '''Edit number {n}.'''\n    return x + {n}\n")
            ws.update_file(path)
            if n % args.every == 0:
                now = size(ws.db_path)
                print(f"{n} edits: {now // 1024} KB ({(now - start) / n / 1024:.1f} KB an edit) {tables(ws.db_path)}")
    shutil.rmtree(root.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
