"""A buffer's unsaved text belongs to the language server session that sent it: however the session ends
(shutdown and exit, its input closed, SIGTERM, Ctrl-C, kill -9), the CLI then finds the disk's text, not
the buffer's, and the index is free for the next writer. Each test runs a real `spyglass lsp` process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .rawclient import RawServer, indexed

FIXTURE = Path(__file__).parents[1] / "fixtures" / "shop"
LEXICAL = {**os.environ, "SPYGLASS_EMBED": "false"}


def spyglass(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "spyglass", *args], cwd=root, env=LEXICAL, capture_output=True, text=True, timeout=120
    )


def symbols_found(root: Path, query: str) -> list[str]:
    out = spyglass(root, "search", query, "--json")
    assert out.returncode == 0, out.stderr
    return [r["symbol"] for r in json.loads(out.stdout)["results"]]


def _shutdown(server: RawServer) -> None:
    server.send("shutdown", None, request=True)
    server.send("exit", None)
    server.proc.stdin.close()


ENDINGS = {
    "shutdown and exit": (_shutdown, 0),
    "input closed without shutdown": (lambda s: s.proc.stdin.close(), 0),
    "SIGTERM": (lambda s: s.proc.send_signal(signal.SIGTERM), 0),
    "SIGINT (Ctrl-C)": (lambda s: s.proc.send_signal(signal.SIGINT), 0),
    "kill -9": (lambda s: s.proc.kill(), -signal.SIGKILL),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_unsaved_text_goes_when_the_session_ends(shop: Path, tmp_path: Path, ending: str):
    server = RawServer(shop, tmp_path / "server.log")
    try:
        server.start()
        path = shop / "shop" / "shipping.py"
        unsaved = path.read_text(encoding="utf-8").replace("def shipping_cost(", "def parcel_insurance_fee(")
        server.open_unsaved(path, unsaved)
        assert indexed(shop, "parcel_insurance_fee"), server.log()

        end, code = ENDINGS[ending]
        end(server)
        assert server.wait_exit(60) == code, server.log()
    finally:
        server.close()

    assert "parcel_insurance_fee" not in symbols_found(shop, "parcel_insurance_fee")
    assert symbols_found(shop, "shipping_cost")[0] == "shipping_cost"
    again = spyglass(shop, "index")  # the writer lock is free
    assert again.returncode == 0, again.stderr
