"""A language server process driven over raw JSON-RPC, for tests that end it the hard way (a signal, kill -9,
closing its input), which a protocol client library would rather do for us."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from spyglass.engine.store import Store


class RawServer:
    """``spyglass lsp`` on stdio; what it writes to stdout is discarded, its log goes to ``log``."""

    def __init__(self, root: Path, log: Path):
        env = {**os.environ, "SPYGLASS_EMBED": "false"}  # lexical only: these tests are about the text
        self.root = root
        self._log = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spyglass", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            cwd=root,
            env=env,
        )
        self._id = 0

    def send(self, method: str, params: dict | None, request: bool = False) -> None:
        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self._id += 1
            message["id"] = self._id
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def start(self) -> None:
        uri = self.root.as_uri()
        folders = [{"uri": uri, "name": self.root.name}]
        self.send(
            "initialize",
            {"processId": os.getpid(), "rootUri": uri, "capabilities": {}, "workspaceFolders": folders},
            True,
        )
        self.send("initialized", {})

    def open_unsaved(self, path: Path, text: str) -> None:
        """didOpen with the disk's text, then a didChange to ``text`` that is never saved."""
        uri = path.as_uri()
        disk = path.read_text(encoding="utf-8") if path.exists() else ""
        self.send(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": disk}}
        )
        self.send(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]},
        )

    def wait_exit(self, timeout: float = 60.0) -> int:
        try:
            return self.proc.wait(timeout)
        finally:
            self._log.close()

    def close(self) -> None:
        """Kill the process if it still runs, and close its pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        self._log.close()

    def log(self) -> str:
        return Path(self._log.name).read_text(encoding="utf-8", errors="replace")


def indexed(root: Path, name: str, timeout: float = 60.0) -> bool:
    """Wait (up to ``timeout`` seconds) until the index of ``root`` holds a span named ``name``."""
    db = root / ".spyglass" / "index.db"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            try:
                store = Store(db, readonly=True)
                try:
                    if store.spans_named_exactly([name]):
                        return True
                finally:
                    store.close()
            except Exception:  # being created or migrated right now
                pass
        time.sleep(0.1)
    return False
