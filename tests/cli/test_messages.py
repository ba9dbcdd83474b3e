"""Error messages a new user meets: said once, leading with what is wrong, never hard-wrapped off a terminal."""

import json
import os
import subprocess
import sys
from pathlib import Path


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}  # rich's width off a terminal
    env["SPYGLASS_PROGRESS_INTERVAL"] = "3600"  # only errors on stderr, however slow the machine
    return subprocess.run(
        [sys.executable, "-m", "spyglass", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


def test_a_missing_model_folder_is_said_once_and_first(polyglot: Path):
    proc = run("index", "--model", "/nope", cwd=polyglot)
    assert proc.returncode == 1
    assert proc.stderr.startswith("spyglass: model folder /nope does not exist"), proc.stderr
    assert proc.stderr.count("does not exist") == 1 and "Repo id" not in proc.stderr, proc.stderr


def test_an_empty_index_file_is_no_index_yet(polyglot: Path):
    db = polyglot / ".spyglass" / "index.db"
    db.parent.mkdir()
    db.write_bytes(b"")
    proc = run("search", "cart", cwd=polyglot)
    assert proc.returncode == 3 and "schema version" not in proc.stderr, proc.stderr
    assert "empty" in proc.stderr and "`spyglass index`" in proc.stderr, proc.stderr
    built = run("index", "--no-embed", "--json", cwd=polyglot)
    assert built.returncode == 0 and json.loads(built.stdout)["report"]["parsed"] >= 16, built.stderr


def test_errors_are_not_wrapped_off_a_terminal(tmp_path: Path):
    deep = tmp_path / ("a-folder-with-a-rather-long-name-" * 3) / "project"
    deep.mkdir(parents=True)
    proc = run("search", "cart", cwd=deep)
    assert proc.returncode == 3
    assert proc.stderr.count("\n") == 1 and "run `spyglass index` to build" in proc.stderr, proc.stderr


def test_a_span_of_a_file_never_indexed_is_not_said_to_be_gone(polyglot: Path):
    assert run("index", "--no-embed", "-q", cwd=polyglot).returncode == 0
    never = json.loads(run("span", "nowhere/never.py:1-3#0123456789", "--json", cwd=polyglot).stdout)
    assert never["status"] == "missing" and "no such file" in never["message"], never
    assert "no longer exists" not in never["message"]
    hit = json.loads(run("search", "cart total", "--json", cwd=polyglot).stdout)["results"][0]
    (polyglot / hit["path"]).unlink()
    gone = json.loads(run("span", hit["id"], "--json", cwd=polyglot).stdout)
    assert gone["status"] == "missing" and "no longer exists" in gone["message"], gone
