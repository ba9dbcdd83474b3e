"""The owner of an index answers other processes (engine/owner.py): a real LiveIndex, a real Unix socket."""

import os
import socket
import stat
import time
from pathlib import Path

import pytest

from spyglass.engine import owner
from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}
NEW_FILE = "def reconcile_ledger_totals(entries):\n    return sum(e.amount for e in entries)\n"


@pytest.fixture
def live(polyglot: Path):
    ws = Workspace.open(polyglot, writer=True, overrides=LEXICAL)
    index = LiveIndex(ws, watch=False).start()  # no watcher: only the update asked for sees the new file
    assert index.wait_idle(60)
    yield index
    index.stop()


def test_the_owner_brings_the_index_up_to_date_for_another_process(live: LiveIndex):
    index_dir = live.ws.db_path.parent
    path = owner.socket_path(index_dir)
    near = index_dir / "owner.sock"
    assert path == near or len(os.fsencode(near)) > owner.MAX_SOCKET_PATH  # a long temporary folder: /tmp
    assert stat.S_ISSOCK(path.stat().st_mode) and stat.S_IMODE(path.stat().st_mode) == 0o600
    (live.ws.root / "ledger.py").write_text(NEW_FILE, encoding="utf-8")

    phases = []
    done = owner.update_index(index_dir, progress=lambda phase, n, total: phases.append(phase))

    assert done["pid"] == os.getpid()
    assert done["report"]["added"] == 1 and done["report"]["seen"] == done["index"]["files"]
    assert {"scan", "parse"} <= set(phases)
    hits = live.ws.search("reconcile_ledger_totals", k=3).results
    assert hits and hits[0].symbol == "reconcile_ledger_totals"
    live.stop()
    assert not path.exists()  # a clean exit removes the socket


def test_a_stale_socket_is_refused_then_replaced_by_the_next_owner(polyglot: Path):
    ws = Workspace.open(polyglot, writer=True, overrides=LEXICAL)
    path = owner.socket_path(ws.db_path.parent)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))
    stale.close()  # like an owner killed with -9: the file stays, nobody listens
    with pytest.raises(owner.OwnerUnavailable) as refused:
        owner.update_index(path.parent)
    assert not refused.value.listening

    index = LiveIndex(ws, watch=False).start()
    try:
        assert index.wait_idle(60)
        assert owner.update_index(path.parent)["report"]["seen"] > 0
    finally:
        index.stop()


def test_a_listener_that_never_answers_is_reported(tmp_path: Path):
    path = owner.socket_path(tmp_path)
    silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    silent.bind(str(path))
    silent.listen(1)  # connections queue, nobody accepts them
    try:
        with pytest.raises(owner.OwnerUnavailable, match="did not answer") as unanswered:
            owner.update_index(tmp_path, timeout=0.3)
        assert unanswered.value.listening
    finally:
        silent.close()


def test_a_socket_path_too_long_for_unix_moves_to_a_private_folder(tmp_path: Path):
    deep = tmp_path / ("d" * 60) / ("e" * 60) / ".spyglass"
    path = owner.socket_path(deep)
    assert path.parent == Path("/tmp") / f"spyglass-{os.getuid()}" and len(os.fsencode(path)) < 100
    assert path == owner.socket_path(deep) != owner.socket_path(deep.parent / "other")
    deep.mkdir(parents=True)
    served = owner.serve(deep, lambda progress: {"report": {}, "index": {}})
    assert served is not None
    try:
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert owner.update_index(deep)["event"] == "done"
    finally:
        served.close()
    assert not path.exists()


@pytest.mark.slow
def test_the_update_waits_for_the_vectors(polyglot: Path):
    ws = Workspace.open(polyglot, writer=True)
    index = LiveIndex(ws, watch=False).start()
    path = owner.socket_path(ws.db_path.parent)
    try:
        deadline = time.monotonic() + 60
        while not path.exists():  # the writer thread listens once it owns the index
            assert time.monotonic() < deadline and index.state != "error", index.error
            index.wait_idle(0.05)
        done = owner.update_index(path.parent)  # asked while the model still loads
        assert done["report"]["model_error"] is None
        assert done["index"]["spans"] > 0 and done["index"]["pending_embeddings"] == 0
    finally:
        index.stop()
