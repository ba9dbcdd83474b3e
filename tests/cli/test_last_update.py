"""`spyglass status` run beside a server: its `last update` advances with every change the server applies
(a file changed on disk, an unsaved edit), not only with full syncs."""

import json
import os
import subprocess
import sys
from pathlib import Path

from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace

LONG_AGO = 1_000_000_000.0  # 2001-09-09T01:46:40+00:00


def status(root: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "spyglass", "status", "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SPYGLASS_EMBED": "false"},
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _pretend_last_change_was_long_ago(ws: Workspace) -> None:
    for key in ("last_sync", "last_change"):
        ws.store.set_meta(key, str(LONG_AGO))


def test_last_update_advances_with_each_change_a_server_applies(polyglot: Path):
    live = LiveIndex(Workspace.open(polyglot, writer=True, overrides={"embed": False}), watch=False).start()
    try:
        assert live.wait_idle(60)
        _pretend_last_change_was_long_ago(live.ws)
        assert status(polyglot)["last_update"] == "2001-09-09T01:46:40+00:00"

        (polyglot / "inventory.py").write_text("def restock_everything():\n    return 1\n", encoding="utf-8")
        live.request_sync([polyglot / "inventory.py"]).result(60)  # what the watcher does on a change
        after_file = status(polyglot)["last_update"]
        assert after_file > "2001-09-09T01:46:40+00:00"

        _pretend_last_change_was_long_ago(live.ws)
        live.buffer_changed(polyglot / "inventory.py", "def restock_nothing():\n    return 0\n")
        assert live.wait_idle(60)
        assert status(polyglot)["last_update"] > "2001-09-09T01:46:40+00:00"
    finally:
        live.stop()
