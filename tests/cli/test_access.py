"""A workspace the user cannot write or read: a clear error naming the path and the way out (--db,
index_dir), a non-zero exit, never a traceback. The commands run subject to file permissions even as root."""

import json
import os
import subprocess
import sys
from pathlib import Path


def spyglass(prefix: list[str], *args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "spyglass", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )


def clear_error(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode not in (0, None), proc.stdout
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("spyglass: "), proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr
    return proc.stderr


def test_indexing_a_read_only_workspace_says_where_to_put_the_index(polyglot, tmp_path, unprivileged, read_only):
    read_only(polyglot)
    proc = spyglass(unprivileged, "index", "--no-embed", cwd=polyglot)
    clear_error(proc, str(polyglot / ".spyglass"), "permission denied", "--db", "index_dir")
    assert not (polyglot / ".spyglass").exists()

    elsewhere = tmp_path / "elsewhere" / "index.db"
    done = spyglass(unprivileged, "index", "--no-embed", "--db", str(elsewhere), cwd=polyglot)
    assert done.returncode == 0, done.stderr
    found = spyglass(unprivileged, "search", "cart total", "--db", str(elsewhere), cwd=polyglot)
    assert found.returncode == 0 and "cart" in found.stdout, found.stderr
    by_setting = spyglass(
        unprivileged, "search", "cart total", cwd=polyglot, env={"SPYGLASS_INDEX_DIR": str(elsewhere.parent)}
    )
    assert by_setting.returncode == 0 and "cart" in by_setting.stdout, by_setting.stderr


def test_an_index_in_a_read_only_workspace_is_searched_but_not_written(polyglot, unprivileged, read_only):
    assert spyglass([], "index", "--no-embed", "-q", cwd=polyglot).returncode == 0
    read_only(polyglot)
    found = spyglass(unprivileged, "search", "cart total", cwd=polyglot)
    assert found.returncode == 0 and "cart" in found.stdout, found.stderr
    proc = spyglass(unprivileged, "index", "--no-embed", cwd=polyglot)
    clear_error(proc, str(polyglot / ".spyglass" / "index.db"), "--db", "index_dir")


def test_an_unreadable_index_or_workspace_is_named(polyglot, unprivileged):
    assert spyglass([], "index", "--no-embed", "-q", cwd=polyglot).returncode == 0
    db = polyglot / ".spyglass" / "index.db"
    db.chmod(0)
    try:
        proc = spyglass(unprivileged, "search", "cart", cwd=polyglot)
        clear_error(proc, str(db), "permission denied")
    finally:
        db.chmod(0o644)
    hit = json.loads(spyglass([], "search", "cart total", "--json", cwd=polyglot).stdout)["results"][0]
    source = polyglot / hit["path"]
    source.chmod(0)
    try:
        clear_error(spyglass(unprivileged, "span", hit["id"], cwd=polyglot), str(source), "permission denied")
    finally:
        source.chmod(0o644)
    polyglot.chmod(0)
    try:
        for args in (["index", str(polyglot)], ["search", "cart", "--root", str(polyglot)]):
            proc = spyglass(unprivileged, *args, "--no-embed" if args[0] == "index" else "-k3", cwd=polyglot.parent)
            clear_error(proc, str(polyglot), "permission denied")
    finally:
        polyglot.chmod(0o755)
