"""The real `spyglass` command in a subprocess: exit codes, JSON contract, human output."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from clirun import run

from spyglass.engine.store import Store


def test_search_honours_a_token_budget(polyglot: Path):
    run("index", "--json", "--no-embed", cwd=polyglot)
    full = json.loads(run("search", "total price of the cart lines", "-k", "10", "--json", cwd=polyglot).stdout)
    small = json.loads(
        run("search", "total price of the cart lines", "-k", "10", "--max-tokens", "120", "--json", cwd=polyglot).stdout
    )
    assert len(full["results"]) >= 2 and small["truncated"] is True
    chars = sum(len(h["path"]) + len(h["symbol"]) + len(h["snippet"]) + 60 for h in small["results"])
    assert 1 <= len(small["results"]) < len(full["results"]) and chars <= 120 * 4
    assert small["results"][0]["id"] == full["results"][0]["id"]
    bad = run("search", "cart", "--max-tokens", "0", cwd=polyglot, check_code=2)
    assert bad.returncode == 2 and "--max-tokens" in bad.stderr


def test_index_search_span_status_round_trip(polyglot: Path):
    out = run("index", "--json", cwd=polyglot)
    report = json.loads(out.stdout)
    assert report["report"]["parsed"] >= 16 and report["index"]["embedded_fraction"] == 1.0

    result = json.loads(run("search", "shopping cart total", "-k", "3", "--json", cwd=polyglot).stdout)
    assert set(result) == {"query", "results", "truncated", "index", "tier", "elapsed_ms"}
    assert result["tier"] == "balanced" and result["elapsed_ms"] > 0
    assert 1 <= len(result["results"]) <= 3 and result["truncated"] is False
    hit = result["results"][0]
    assert {"id", "path", "start_line", "end_line", "kind", "symbol", "language", "score", "snippet"} <= set(hit)
    assert not hit["path"].startswith("/") and "\\" not in hit["path"]
    assert result["index"]["mode"] == "hybrid" and result["index"]["spans"] > 0

    span = json.loads(run("span", hit["id"], "--json", cwd=polyglot).stdout)
    assert span["status"] == "current" and span["text"]

    status = json.loads(run("status", "--json", cwd=polyglot).stdout)
    assert status["files"] == report["index"]["files"] and status["changed_since_update"]["modified"] == 0
    assert status["skipped"]["index dir"] == 1

    human = run("search", "shopping cart total", "-k", "2", cwd=polyglot).stdout
    assert "cart.js:" in human and "score" in human
    assert "files" in run("status", cwd=polyglot).stdout


def test_search_from_a_subfolder_finds_the_index_above(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    sub = polyglot / "nested"
    sub.mkdir()
    result = json.loads(run("search", "cart", "--json", cwd=sub).stdout)
    assert result["results"] and result["index"]["mode"] == "lexical"


def test_no_results_is_success_with_an_empty_list(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    result = json.loads(run("search", "qqqzzz xyzzyplugh", "--json", cwd=polyglot).stdout)
    assert result["results"] == []
    assert "No confident results" in run("search", "qqqzzz xyzzyplugh", cwd=polyglot).stdout


def test_missing_index_exits_3_and_says_how_to_build_it(tmp_path: Path):
    for cmd in (["search", "x"], ["status"], ["span", "a.py:1-2#0123456789"]):
        proc = run(*cmd, cwd=tmp_path, check_code=3)
        assert "spyglass index" in proc.stderr and proc.stdout == ""


def test_usage_errors_exit_2(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    assert "span ID" in run("span", "nonsense", cwd=polyglot, check_code=2).stderr
    run("search", "x", "-k", "0", cwd=polyglot, check_code=2)
    run("frobnicate", cwd=polyglot, check_code=2)


def test_corrupt_and_future_indexes(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    db = polyglot / ".spyglass" / "index.db"
    store = Store(db)
    store.con.execute("INSERT INTO schema_migrations VALUES(999, 0)")
    store.close()
    assert "newer" in run("search", "cart", cwd=polyglot, check_code=3).stderr
    assert "newer" in run("index", "--no-embed", cwd=polyglot, check_code=3).stderr
    run("index", "--no-embed", "--rebuild", "-q", cwd=polyglot)

    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    db.write_bytes(os.urandom(64 * 1024))
    assert "--rebuild" in run("status", cwd=polyglot, check_code=3).stderr
    proc = run("index", "--no-embed", cwd=polyglot)
    assert "damaged" in proc.stderr
    assert json.loads(run("search", "cart", "--json", cwd=polyglot).stdout)["results"]


def test_bad_model_fails_clearly_but_lexical_search_works(polyglot: Path):
    proc = run("index", "--model", "/no/such/model", cwd=polyglot, check_code=1)
    assert "/no/such/model" in proc.stderr and "lexical" in proc.stderr
    result = json.loads(run("search", "cart", "--json", cwd=polyglot).stdout)
    assert result["results"] and result["index"]["mode"] == "lexical"


def test_second_writer_reports_the_holder(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys,time; from spyglass.engine.lock import WriterLock;"
            "l=WriterLock(sys.argv[1]); l.acquire(); print('held', flush=True); time.sleep(60)",
            str(polyglot / ".spyglass" / "writer.lock"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        proc = run("index", "--no-embed", cwd=polyglot, check_code=4)
        assert str(holder.pid) in proc.stderr
        assert json.loads(run("status", "--json", cwd=polyglot).stdout)["writer"]["pid"] == holder.pid
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    run("index", "--no-embed", "-q", cwd=polyglot)


def test_kill_9_mid_run_leaves_an_index_the_next_run_completes(polyglot: Path):
    total = 300 + sum(1 for p in polyglot.iterdir() if p.is_file())  # the fixture's files and the generated
    for i in range(300):
        (polyglot / f"gen_{i:03}.py").write_text(f"def generated_{i}(x):\n    '''Number {i}.'''\n    return x + {i}\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "spyglass", "index", "-q"],
        cwd=polyglot,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    db = polyglot / ".spyglass" / "index.db"
    deadline = time.monotonic() + 120
    files = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                store = Store(db, readonly=True)
                files = store.counts()["files"]
                store.close()
            except Exception:  # noqa: BLE001 - the writer may still be creating it
                files = 0
            if files:
                break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert files > 0
    status = json.loads(run("status", "--json", cwd=polyglot).stdout)  # readable after the kill
    assert status["files"] > 0
    report = json.loads(run("index", "--json", cwd=polyglot).stdout)["report"]
    assert report["parsed"] < total  # what was committed before the kill is not redone
    final = json.loads(run("status", "--json", cwd=polyglot).stdout)
    assert final["files"] == total and final["embedded_fraction"] == 1.0


def test_console_script_and_module_agree(tmp_path: Path):
    exe = Path(sys.executable).parent / "spyglass"
    env = {**os.environ, "COLUMNS": "200"}
    a = subprocess.run([str(exe), "--help"], capture_output=True, text=True, check=True, env=env).stdout
    b = run("--help", cwd=tmp_path).stdout
    assert a == b and "index" in a and "eval" in a


def test_a_glob_scopes_the_search_before_ranking(scoped_workspace: Path, transport_functions: tuple):
    run("index", "--no-embed", "-q", cwd=scoped_workspace)
    proc = run("search", "timeout", "--glob", "pkg/transports/*", "--json", cwd=scoped_workspace)
    results = json.loads(proc.stdout)["results"]
    assert len(results) > 1 and all(r["path"].startswith("pkg/transports/") for r in results)
    assert set(transport_functions) <= {r["symbol"] for r in results}
