"""Checks that the team's SWE-bench gold files are the ones docs/quality.md reports on (a benchmark-data
check, not a test: tests never read outside the repository).

    python bench/datasets.py [BENCH_DIR]      # default: ../shared/bench beside the repository

Prints each subset's size and exits 1 if one differs from the figures below.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from spyglass.evaluation.dataset import LOCAGENT_EXCLUDED, from_swebench

SMALL_REPOS = {"flask", "requests", "pytest", "seaborn", "xarray", "pylint", "sphinx"}
SMALL_PER_REPO = {"flask": 3, "requests": 6, "pytest": 16, "seaborn": 4, "xarray": 5, "pylint": 6, "sphinx": 16}


def main() -> int:
    default = Path(__file__).resolve().parents[1].parent / "shared" / "bench"
    swebench = Path(sys.argv[1] if len(sys.argv) > 1 else default) / "swebench"
    lite_file = swebench / "swebench_lite_all_gold.jsonl"
    lite = from_swebench(lite_file)
    lite_ids = {q.id for q in from_swebench(lite_file, only_locagent_274=False)}
    small = from_swebench(lite_file, repos=SMALL_REPOS)
    verified = from_swebench(
        swebench / "swebench_verified_gold_files.jsonl", repos=SMALL_REPOS | {"sympy", "astropy"}, exclude=lite_ids
    )
    excluded = set(json.loads((swebench / "locagent_excluded_26.json").read_text(encoding="utf-8")))
    checks = {
        "Lite-274": (len(lite), 274),
        "Lite (all rows)": (len(lite_ids), 300),
        "Lite small repositories": (len(small), 56),
        "Lite sympy": (len(from_swebench(lite_file, repos={"sympy/sympy"})), 66),
        "Verified minus Lite, nine repositories": (len(verified), 169),
        "LocAgent's excluded ids = ours": (excluded == LOCAGENT_EXCLUDED, True),
        "small repositories per repository": (Counter(q.repo.split("/")[1] for q in small) == SMALL_PER_REPO, True),
    }
    bad = 0
    for name, (got, want) in checks.items():
        ok = got == want
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {name}: {got}" + ("" if ok else f" (expected {want})"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
