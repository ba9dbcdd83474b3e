"""`spyglass index` while a server owns the index: a real `spyglass mcp` process, real `spyglass index` runs.

The server never finishes (it follows the workspace), so `index` asks it to bring the index up to date,
shows its progress and prints the usual summary; a server that does not answer is a clear error."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from clirun import run

from spyglass.engine.lock import WriterLock
from spyglass.engine.owner import socket_path
from spyglass.engine.store import Store

LEXICAL = {**os.environ, "SPYGLASS_EMBED": "false"}  # the server indexes without loading the model


def _until(check, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
    return value


def test_index_asks_the_running_mcp_server_and_prints_its_summary(polyglot: Path, tmp_path: Path):
    index_dir = polyglot / ".spyglass"
    with open(tmp_path / "mcp.log", "w", encoding="utf-8") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "spyglass", "mcp", str(polyglot)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env=LEXICAL,
        )
    try:
        lock = WriterLock(index_dir / "writer.lock")
        _until(lambda: (lock.holder() or {}).get("pid") == server.pid, "the server to own the index")
        _until(socket_path(index_dir).exists, "the server to listen")
        (polyglot / "ledger.py").write_text(
            "def reconcile_ledger_totals(entries):\n    return sum(e.amount for e in entries)\n", encoding="utf-8"
        )

        proc = run("index", str(polyglot), cwd=tmp_path)
        assert f"asking the process that owns the index (pid {server.pid}" in proc.stderr
        assert f"Indexed {polyglot}" in proc.stdout and "files:" in proc.stdout

        data = json.loads(run("index", "--json", "-q", str(polyglot), cwd=tmp_path).stdout)
        assert data["updated_by"] == {"pid": server.pid}
        on_disk = sum(1 for p in polyglot.rglob("*") if p.is_file() and ".spyglass" not in p.parts)
        assert data["report"]["seen"] == data["index"]["files"] == on_disk
        hits = json.loads(run("search", "reconcile_ledger_totals", "--json", cwd=polyglot).stdout)["results"]
        assert hits[0]["symbol"] == "reconcile_ledger_totals"

        refused = run("index", "--rebuild", str(polyglot), cwd=tmp_path, check_code=4)
        assert "cannot rebuild" in refused.stderr and str(server.pid) in refused.stderr
        assert json.loads(run("search", "reconcile_ledger_totals", "--json", cwd=polyglot).stdout)["results"]
    finally:
        server.stdin.close()  # end of the MCP stream: the server exits cleanly
        server.wait(60)
    assert server.returncode == 0
    assert not socket_path(index_dir).exists()


# A holder of the lock that is no server ("plain") or speaks the protocol badly: listens without answering
# ("silent"), leaves a socket nobody listens on ("stale"), or accepts and never finishes ("slow").
HOLDER = """
import socket, sys, time
from spyglass.engine.lock import WriterLock
from spyglass.engine.owner import socket_path
index_dir, mode = sys.argv[1], sys.argv[2]
lock = WriterLock(index_dir + "/writer.lock"); lock.acquire()
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); sock.settimeout(60)
if mode != "plain":
    sock.bind(str(socket_path(index_dir)))
if mode in ("plain", "stale"):
    sock.close()
else:
    sock.listen(1)
print("held", flush=True)
if mode == "slow":
    conn, _ = sock.accept(); conn.recv(100)
    conn.sendall(b'{"event": "accepted", "pid": 1}\\n{"event": "progress", "phase": "scan", "done": 0, "total": 0}\\n')
    print("answered", flush=True)
time.sleep(120)
"""


def _holder(polyglot: Path, mode: str) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(polyglot / ".spyglass"), mode], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout.readline().strip() == "held"
    return holder


def _end(holder: subprocess.Popen) -> None:
    holder.kill()
    holder.wait()
    holder.stdout.close()


def test_a_server_that_does_not_answer_is_a_clear_error(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    holder = _holder(polyglot, "silent")
    try:
        proc = run("index", "-q", cwd=polyglot, check_code=4)
        assert "asking the process that owns the index" in proc.stderr
        assert "did not answer" in proc.stderr and str(holder.pid) in proc.stderr
    finally:
        _end(holder)


def test_a_stale_socket_falls_back_to_the_lock(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    holder = _holder(polyglot, "stale")
    try:
        proc = run("index", "-q", cwd=polyglot, check_code=4)
        assert "being written by another process" in proc.stderr and str(holder.pid) in proc.stderr
        assert "asking" not in proc.stderr  # nobody to ask
    finally:
        _end(holder)
    run("index", "--no-embed", "-q", cwd=polyglot)  # the lock is free: a stale socket is no obstacle


def test_rebuild_never_deletes_an_index_another_process_holds(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    db = polyglot / ".spyglass" / "index.db"
    _meta(db, "test_marker", "the old index")
    holder = _holder(polyglot, "plain")
    try:
        proc = run("index", "--rebuild", "--no-embed", cwd=polyglot, check_code=4)
        assert "cannot rebuild" in proc.stderr and str(holder.pid) in proc.stderr
    finally:
        _end(holder)
    assert _meta(db, "test_marker") == "the old index"  # not deleted under its writer
    run("index", "--no-embed", "--rebuild", "-q", cwd=polyglot)
    assert _meta(db, "test_marker") is None


def _meta(db: Path, key: str, value: str | None = None) -> str | None:
    store = Store(db)
    try:
        if value is not None:
            store.set_meta(key, value)
        return store.get_meta(key)
    finally:
        store.close()


def test_ctrl_c_while_waiting_for_the_server_exits_130(polyglot: Path):
    run("index", "--no-embed", "-q", cwd=polyglot)
    holder = _holder(polyglot, "slow")
    try:
        waiting = subprocess.Popen(
            [sys.executable, "-m", "spyglass", "index", "-q"],
            cwd=polyglot,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # Ctrl-C as in a terminal, even when the tests run where SIGINT is ignored (`nohup ... &`)
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        assert holder.stdout.readline().strip() == "answered"
        waiting.send_signal(signal.SIGINT)
        try:
            out, err = waiting.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            waiting.kill()  # never leave it running for a later test to trip over
            out, err = waiting.communicate()
            raise AssertionError(f"`spyglass index` did not stop on Ctrl-C within 60 s; its stderr:\n{err}") from None
        assert waiting.returncode == 130, err
        assert "stopped waiting" in err and "Traceback" not in err
    finally:
        _end(holder)
