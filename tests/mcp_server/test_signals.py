"""`spyglass mcp` started in a terminal ends cleanly on Ctrl-C (SIGINT) and SIGTERM: it exits by itself with
code 0 and leaves the index free for the next writer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spyglass.engine.lock import WriterLock

LEXICAL = {**os.environ, "SPYGLASS_EMBED": "false"}


def _owner_pid(lock: WriterLock, timeout: float = 60.0) -> int | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if lock.path.exists() and (holder := lock.holder()):
            return holder.get("pid")
        time.sleep(0.1)
    return None


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_signal_ends_the_server_and_frees_the_index(shop: Path, tmp_path: Path, sig: int):
    lock = WriterLock(shop / ".spyglass" / "writer.lock")
    with (tmp_path / "mcp.log").open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spyglass", "mcp", str(shop)],
            stdin=subprocess.PIPE,  # a terminal that stays open: no end of input
            stdout=subprocess.DEVNULL,
            stderr=log,
            env=LEXICAL,
        )
        try:
            assert _owner_pid(lock) == proc.pid
            proc.send_signal(sig)
            try:
                code = proc.wait(60)
            except subprocess.TimeoutExpired:
                code = "still running after 60 s"
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdin.close()
    assert code == 0, (tmp_path / "mcp.log").read_text(encoding="utf-8", errors="replace")
    assert lock.holder() is None
    again = subprocess.run(
        [sys.executable, "-m", "spyglass", "index", str(shop)], env=LEXICAL, capture_output=True, timeout=120
    )
    assert again.returncode == 0, again.stderr
