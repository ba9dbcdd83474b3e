"""The repository's own hygiene: lint, format, and no stray stdout writes in server code."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=REPO, capture_output=True, text=True)


def test_ruff_lint_is_clean():
    proc = _ruff("check", "server", "tests", "bench")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean():
    proc = _ruff("format", "--check", "server", "tests", "bench")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_types_check():
    """mypy, configured in pyproject.toml ([tool.mypy]: the server package, with pydantic's plugin)."""
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_engine_never_writes_to_stdout():
    # stdout carries JSON-RPC for the LSP and MCP front ends: the engine must not touch it (what it may
    # import is checked in test_floors.py)
    for path in (REPO / "server" / "spyglass" / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*print\(", text, re.M), f"print() in {path}"
        assert "sys.stdout" not in text, f"sys.stdout in {path}"


def test_tests_read_nothing_beside_the_repository():
    """A fresh clone has nothing beside it: tests/conftest.py makes any read of ../ fail the test."""
    from conftest import OutsideRepository

    for attempt in (
        lambda: open(REPO.parent / "shared" / "DESIGN.md", encoding="utf-8"),
        lambda: os.listdir(REPO.parent),
        lambda: os.scandir(REPO / ".." / "shared"),
    ):
        with pytest.raises(OutsideRepository, match="tests may not read outside the repository"):
            attempt()
    assert (REPO / "README.md").read_text(encoding="utf-8").startswith("# Spyglass")  # inside: allowed
