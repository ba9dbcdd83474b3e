"""The real `spyglass` command in a subprocess, for the CLI tests."""

import os
import subprocess
import sys
from pathlib import Path


def run(*args: str, cwd: Path, check_code: int | None = 0) -> subprocess.CompletedProcess:
    """``python -m spyglass ARGS`` in ``cwd`` with a wide terminal; its exit code must be ``check_code``
    (None: any)."""
    proc = subprocess.run(
        [sys.executable, "-m", "spyglass", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )
    if check_code is not None:
        assert proc.returncode == check_code, proc.stderr + proc.stdout
    return proc
