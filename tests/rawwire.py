"""Real ``spyglass mcp`` and ``spyglass lsp`` processes driven with raw bytes, and hypothesis strategies for
hostile messages: what tests/test_jsonrpc.py, tests/mcp_server/test_wire.py, tests/lsp/test_wire.py and
bench/reliability_wire.py share.

A server's output is checked frame by frame as it arrives: every frame must be a JSON-RPC 2.0 message (an
object with ``"jsonrpc": "2.0"`` that is a request, a notification, or a response with exactly one of
result and error), or it is counted in ``invalid``. Answers are kept by id; an id answered twice is counted
in ``duplicates``. Requests the server sends (LSP: progress, configuration) are answered with null.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

TIMEOUT = 30.0  # seconds for an answer that is owed: longer is a hang
FUZZ_IDS = itertools.count(10**6)  # fuzzed messages' ids: never reused, above the fixed ones tests send


# -- what is owed ----------------------------------------------------------------------------------------
def readable_id(value: Any) -> bool:
    """Whether a request's id can be answered: a string of whole Unicode or a finite number."""
    if isinstance(value, str):
        return not re.search(r"[\ud800-\udfff]", value)
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def owed_id(text: str) -> tuple[bool, Any]:
    """(True, id) when ``text`` is a request with a readable id (or has one and is no response either),
    which must get exactly one answer."""
    try:
        message = json.loads(_shallow(text))
    except (ValueError, RecursionError):
        return False, None
    if not isinstance(message, dict) or "id" not in message or not readable_id(message["id"]):
        return False, None
    if "method" in message or not ("result" in message or "error" in message):
        return True, message["id"]
    return False, None


def _shallow(text: str) -> str:
    """``text`` with each run of n '[' closed by n ']' (what :func:`deep` makes) read as one empty array, so
    that a message too deep for ``json.loads`` can still be read here."""
    return re.sub(r"(\[+)(\]+)", lambda m: "[]" if len(m[1]) == len(m[2]) else m[0], text)


def valid_frame(message: Any) -> bool:
    """A JSON-RPC 2.0 request, notification or response."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return False
    if "method" in message:
        return isinstance(message["method"], str) and "result" not in message and "error" not in message
    if "id" not in message or ("result" in message) == ("error" in message):
        return False
    error = message.get("error")
    return error is None or (
        isinstance(error, dict) and isinstance(error.get("code"), int) and isinstance(error.get("message"), str)
    )


def _key(id_: Any) -> str:
    return json.dumps(id_)


# -- a server process ------------------------------------------------------------------------------------
@dataclass
class Counts:
    frames: int = 0
    invalid: list[str] = field(default_factory=list)
    duplicates: list[Any] = field(default_factory=list)


class RawProcess:
    """A server on stdio: ``send`` writes raw bytes; a reader thread checks and files what comes back."""

    def __init__(self, args: list[str], root: Path, log: Path):
        env = {**os.environ, "SPYGLASS_EMBED": "false"}  # lexical only: these tests are about the wire
        self._log = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spyglass", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            cwd=root,
            env=env,
        )
        self.counts = Counts()
        self._answers: dict[str, list[Any]] = {}
        self._arrived = threading.Condition()
        self._write = threading.Lock()
        self._next = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # subclasses: how frames are cut and written
    def _frames(self, stream):  # pragma: no cover - abstract
        raise NotImplementedError

    def frame(self, body: bytes) -> bytes:  # pragma: no cover - abstract
        raise NotImplementedError

    def _read(self) -> None:
        for raw in self._frames(self.proc.stdout):
            self.counts.frames += 1
            try:
                message = json.loads(raw)
            except (ValueError, RecursionError):
                message = None
            if not valid_frame(message):
                self.counts.invalid.append(repr(raw[:200]))
                continue
            if "method" in message:
                if "id" in message:  # the server asks the client: a null answer will do
                    self.send(self.frame(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}).encode()))
                continue
            with self._arrived:
                answers = self._answers.setdefault(_key(message["id"]), [])
                answers.append(message)
                if len(answers) > 1 and message["id"] is not None:  # null: each unreadable id's answer
                    self.counts.duplicates.append(message["id"])
                self._arrived.notify_all()
        with self._arrived:
            self._arrived.notify_all()

    def send(self, data: bytes) -> None:
        with self._write:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def new_id(self) -> int:
        self._next += 1
        return 10**9 + self._next  # above any id a fuzzed message carries

    def answer(self, id_: Any, timeout: float = TIMEOUT) -> dict | None:
        """The first answer to ``id_``, waiting up to ``timeout`` s; None if none came (or the server ended)."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while not self._answers.get(_key(id_)):
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return None
                self._arrived.wait(min(left, 0.5))
            return self._answers[_key(id_)][0]

    def answers_to(self, id_: Any) -> int:
        with self._arrived:
            return len(self._answers.get(_key(id_), []))

    def call(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> dict | None:
        """A well-formed request, and its answer."""
        id_ = self.new_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            message["params"] = params
        self.send(self.frame(json.dumps(message).encode()))
        return self.answer(id_, timeout)

    def notify(self, method: str, params: Any = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(self.frame(json.dumps(message).encode()))

    def normal(self) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def wait_indexed(self, timeout: float = 60.0) -> bool:
        """Wait until a normal request finds what the fixture holds (the index is built)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.normal():
                return True
            time.sleep(0.2)
        return False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(5)
        self.proc.stdout.close()
        self._log.close()


class RawMcp(RawProcess):
    """``spyglass mcp ROOT``: one JSON message a line."""

    def __init__(self, root: Path, log: Path):
        super().__init__(["mcp", str(root)], root, log)

    def _frames(self, stream):
        for line in stream:
            if line.strip():
                yield line

    def frame(self, body: bytes) -> bytes:
        return body + b"\n"

    def start(self) -> dict | None:
        info = {"name": "rawwire", "version": "1"}
        answer = self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info})
        self.notify("notifications/initialized")
        return answer

    def normal(self) -> bool:
        """A normal request answers as it should (the fixture's compute_discount is found)."""
        answer = self.call("tools/call", {"name": "find_symbol", "arguments": {"name": "compute_discount"}})
        result = (answer or {}).get("result") or {}
        hits = (result.get("structuredContent") or {}).get("results") or []
        return not result.get("isError") and any(h.get("symbol") == "compute_discount" for h in hits)


class RawLsp(RawProcess):
    """``spyglass lsp``: Content-Length framing."""

    def __init__(self, root: Path, log: Path):
        self.root = root
        super().__init__(["lsp"], root, log)

    def _frames(self, stream):
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length" and value.strip().isdigit():
                    length = int(value.strip())
            if length is None:
                self.counts.invalid.append("a frame without Content-Length")
                continue
            yield stream.read(length)

    def frame(self, body: bytes) -> bytes:
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def start(self) -> dict | None:
        uri = self.root.as_uri()
        folders = [{"uri": uri, "name": self.root.name}]
        answer = self.call(
            "initialize", {"processId": None, "rootUri": uri, "capabilities": {}, "workspaceFolders": folders}
        )
        self.notify("initialized", {})
        return answer

    def normal(self) -> bool:
        """A normal request answers as it should (the fixture's compute_discount is found)."""
        answer = self.call("workspace/symbol", {"query": "compute_discount"})
        return any(s.get("name") == "compute_discount" for s in (answer or {}).get("result") or [])


# -- hostile messages ------------------------------------------------------------------------------------
SURROGATES = ["\ud800", "a\udfffb", "\udc00\ud800", "x" * 10 + "\ud83d"]
DEEP = re.compile(r'"@deep(\d+)@"')


def deep(depth: int) -> str:
    """A placeholder for an array nested ``depth`` deep, spliced in by :func:`render` (json.dumps cannot
    write one past its own recursion limit)."""
    return f"@deep{depth}@"


def render(message: Any) -> str:
    """``message`` as JSON text (lone surrogates escaped, as JSON allows), deep placeholders spliced in."""
    text = json.dumps(message)
    return DEEP.sub(lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), text)


strings = st.one_of(
    st.text(max_size=30),
    st.sampled_from(SURROGATES),
    st.sampled_from(["", "file:///", "file:///etc/passwd", "../../x", "\x00", "\u202e", "%00", "🙂" * 5]),
    st.integers(10_000, 300_000).map(lambda n: "x" * n),  # a huge string
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    strings,
)


def _nested(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4))


values = st.recursive(scalars, _nested, max_leaves=12) | st.integers(150, 3000).map(deep)
ids = st.one_of(
    st.just("int"),
    st.just("str"),
    st.just("float"),
    st.none(),
    st.dictionaries(st.text(max_size=3), scalars, max_size=2),
    st.lists(scalars, max_size=2),
    st.booleans(),
    st.sampled_from(["\ud800", "emoji"]),
    st.just("absent"),
)


def _message(jsonrpc: Any, id_: Any, method: Any, params: Any, counter: int) -> dict:
    message: dict[str, Any] = {}
    if jsonrpc != "absent":
        message["jsonrpc"] = jsonrpc
    if id_ == "int":
        message["id"] = counter
    elif id_ == "str":
        message["id"] = f"id-{counter}"
    elif id_ == "float":
        message["id"] = counter + 0.5
    elif id_ == "emoji":
        message["id"] = f"🙂{counter}"
    elif id_ != "absent":
        message["id"] = id_
    if method != "absent":
        message["method"] = method
    if params != "absent":
        message["params"] = params
    return message


def messages(methods: list[str], params_for: dict[str, st.SearchStrategy]) -> st.SearchStrategy[dict]:
    """Messages with every part hostile now and then: the version, the id's type, the method (known ones,
    unknown ones, not a string), params (plausible for the method, any JSON value, huge, deep, absent)."""
    method = st.one_of(
        st.sampled_from(methods),
        st.sampled_from(methods),
        st.text(max_size=20),
        st.sampled_from(["\ud800", "absent", "rpc.discover", "$/unknown"]),
        st.integers() | st.none() | st.lists(st.integers(), max_size=2),
    )

    @st.composite
    def build(draw) -> dict:
        name = draw(method)
        plausible = params_for.get(name) if isinstance(name, str) else None
        params = draw(
            values | st.just("absent") if plausible is None else st.one_of(plausible, values, st.just("absent"))
        )
        jsonrpc = draw(st.sampled_from(["2.0"] * 8 + ["1.0", 2, "absent"]))
        id_ = draw(st.one_of(st.sampled_from(["int", "str", "float"]), ids))
        return {"jsonrpc": jsonrpc, "id": id_, "method": name, "params": params}

    return build()


def text_of(shape: dict, counter: int) -> str:
    """The message text for a drawn shape, with fresh ids (``counter``) for the id kinds int, str, float."""
    return render(_message(shape["jsonrpc"], shape["id"], shape["method"], shape["params"], counter))


corruptions = st.one_of(
    st.just("none"),
    st.just("none"),
    st.just("none"),
    st.just("truncate"),
    st.just("bad-utf8"),
    st.just("not-json"),
)


def corrupt(text: str, how: str) -> bytes:
    """The message's bytes, broken as ``how`` says (the oracle reads what was sent, so a break that leaves a
    request readable still owes it an answer)."""
    data = text.encode("utf-8", "surrogatepass")
    if how == "truncate":
        return data[: max(1, len(data) // 2)]
    if how == "bad-utf8":
        return data.replace(b'"2.0"', b'"2.0\xff\xfe"', 1) if b'"2.0"' in data else b"\xff" + data
    if how == "not-json":
        return b"{" + data
    return data


def owed_after(data: bytes) -> tuple[bool, Any]:
    """What ``data``, as the server reads it (UTF-8, bad bytes replaced), owes: a request with a readable id."""
    return owed_id(data.decode("utf-8", "replace"))


# -- each server's methods, and params that look right ------------------------------------------------
MCP_TOOLS = ["search_code", "find_symbol", "get_span", "get_context", "search_history", "index_status", "reindex"]
MCP_METHODS = ["ping", "tools/list", "tools/call", "resources/list", "prompts/list", "logging/setLevel",
               "completion/complete", "notifications/initialized", "notifications/cancelled", "initialize"]  # fmt: skip

mcp_arguments = st.fixed_dictionaries(
    {},
    optional={
        "query": values, "name": values, "id": values, "path": values, "line": values, "k": values,
        "paths": values, "max_tokens": values, "globs": values,
    },
)  # fmt: skip
MCP_PARAMS = {
    "tools/call": st.fixed_dictionaries(
        {"name": st.sampled_from(MCP_TOOLS) | values, "arguments": mcp_arguments | values}
    ),
    "logging/setLevel": st.fixed_dictionaries({"level": values}),
    "notifications/cancelled": st.fixed_dictionaries({"requestId": values}),
}


# Not fuzzed: initialize and workspace/didChangeConfiguration (they reopen folders with what they are given),
# shutdown and exit (they end the session; tested on a server of their own).
LSP_METHODS = [
    "textDocument/hover", "textDocument/documentSymbol", "workspace/symbol", "spyglass/search",
    "spyglass/related", "spyglass/span", "spyglass/status", "spyglass/reindex", "textDocument/didOpen",
    "textDocument/didChange", "textDocument/didClose", "textDocument/didSave", "$/cancelRequest",
    "$/setTrace", "initialized", "window/workDoneProgress/cancel",
]  # fmt: skip
lsp_position = st.fixed_dictionaries({"line": values | st.integers(0, 2**40), "character": values | st.integers(0, 99)})
lsp_document = st.fixed_dictionaries({"uri": values | st.sampled_from(["file:///nowhere/x.py", "untitled:1"])})
LSP_PARAMS = {
    "textDocument/hover": st.fixed_dictionaries(
        {"textDocument": lsp_document | values, "position": lsp_position | values}
    ),
    "spyglass/related": st.fixed_dictionaries({"textDocument": lsp_document, "position": lsp_position}),
    "spyglass/search": st.fixed_dictionaries({"query": values}, optional={"k": values, "filters": values}),
    "spyglass/span": st.fixed_dictionaries({"id": values}),
    "workspace/symbol": st.fixed_dictionaries({"query": values}),
    "textDocument/didOpen": st.fixed_dictionaries(
        {
            "textDocument": st.fixed_dictionaries(
                {"uri": values, "languageId": values, "version": values, "text": values}
            )
        }
    ),
    "$/cancelRequest": st.fixed_dictionaries({"id": values}),
}


# -- LSP framing, right and wrong ---------------------------------------------------------------------
FRAMINGS = st.sampled_from(["ok"] * 8 + ["abc", "-5", "none", "empty", "bare", "lower", "extra", "short"])


def framed(data: bytes, how: str) -> tuple[bytes, bytes]:
    """The bytes to send for body ``data`` framed as ``how``, and the body the server reads from them."""
    headers = {
        "ok": b"Content-Length: %d\r\n\r\n" % len(data),
        "abc": b"Content-Length: abc\r\n\r\n",
        "-5": b"Content-Length: -5\r\n\r\n",
        "none": b"Content-Type: application/vscode-jsonrpc\r\n\r\n",
        "empty": b"\r\n",
        "bare": b"",
        "lower": b"content-length: %d\r\n\r\n" % len(data),
        "extra": b"Content-Length: %d\r\nContent-Type: x\r\n\r\n" % len(data),
        "short": b"Content-Length: %d\r\n\r\n" % (len(data) // 2),
    }
    return headers[how] + data, data[: len(data) // 2] if how == "short" else data


FIXTURE = Path(__file__).parent / "fixtures" / "shop"


@contextmanager
def serving(kind: type[RawProcess], folder: Path) -> Iterator[RawProcess]:
    """A server of ``kind`` over a copy of the shop fixture in ``folder``, indexed, closed at the end."""
    root = folder / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    server = kind(root, folder / f"{kind.__name__.lower()}.log")
    try:
        assert server.start() is not None
        assert server.wait_indexed()
        yield server
    finally:
        server.close()


def assert_still_sound(server: RawProcess) -> None:
    """Alive, wrote only valid frames, answered no id twice, and still answers a normal request."""
    assert server.alive()
    assert not server.counts.invalid, server.counts.invalid[:3]
    assert not server.counts.duplicates, server.counts.duplicates[:3]
    assert server.normal()


def with_fresh_id(server: RawProcess, body: str | bytes) -> bytes:
    """``body`` with its id 7 made fresh (ids are never reused on one server)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    return re.sub(rb'"id": ?7([,}])', lambda m: b'"id": %d%s' % (server.new_id(), m.group(1)), data, count=1)
