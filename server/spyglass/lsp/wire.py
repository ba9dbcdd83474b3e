"""The language server's wire: LSP frames read here rather than by pygls' loop, so that every request is
answered and a broken frame costs only itself.

pygls (2.1) reads each body through its message types (a ``json.loads`` object hook) and, when they refuse
it (a null position, a line past 2**31, params of the wrong type, a request without params), logs it and
answers nothing: the client waits forever. It also takes a frame's length only from a header line that is
exactly ``Content-Length: <digits>``; after ``Content-Length: abc``, ``-5`` or none, each later body is glued
to the next header and nothing is answered again. Here:

- :class:`Frames` cuts the byte stream into bodies. A header block ends at a blank line and its last
  Content-Length gives the body's length; a block with no usable one starts a broken frame, whose body runs
  to the next ``Content-Length`` header or to the end of a complete JSON value, and is answered with a parse
  error when it is a request.
- :class:`Wire` reads each body as pygls does and hands it to pygls; what pygls' types refuse is answered
  with the error ``spyglass.jsonrpc.refusal`` gives. A request without params gets ``params: null`` (JSON-RPC
  lets params be left out), and one sent after ``shutdown`` gets -32600, as LSP asks (pygls drops it).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, BinaryIO

import cattrs
from pygls.protocol import JsonRPCProtocol

from ..jsonrpc import INVALID_REQUEST, Refusal, framing_refusal, readable_id, refusal

log = logging.getLogger(__name__)

MAX_BODY = 256 * 2**20  # a longer Content-Length is taken for a broken header
MAX_HEADER = 64 * 2**10  # header bytes without a blank line: not a header
_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([^\r\n]*)", re.IGNORECASE)
_DIGITS = re.compile(rb"[0-9]{1,12}")
_NOT_SPACE = re.compile(rb"[^ \t\r\n]")


@dataclass(frozen=True)
class Frame:
    body: bytes
    broken: str = ""  # why the frame's header could not be used; empty for a good frame


class Frames:
    """Bodies out of the bytes of an LSP stream, fed in pieces as they arrive."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._need: int | None = None  # the body's length, once its header is read
        self._broken = ""  # why the last header was unusable: its body runs to the next header
        self._scanned = 0  # how far a broken body has been searched for the next header

    def feed(self, data: bytes) -> list[Frame]:
        self._buf += data
        frames = []
        while (frame := self._next()) is not None:
            frames.append(frame)
        return frames

    def _next(self) -> Frame | None:
        if self._need is not None:
            return self._body()
        if self._broken:
            return self._broken_body()
        if self._buf.startswith(b"\r\n"):  # an empty header block
            del self._buf[:2]
            self._broken = "no Content-Length header"
            return self._broken_body()
        first = _NOT_SPACE.search(self._buf)
        if first is not None and first.group() in (b"{", b"["):  # a body without any header
            self._broken = "no Content-Length header"
            return self._broken_body()
        end = self._buf.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buf) > MAX_HEADER:  # no header at all: a body sent bare
                self._broken = "no Content-Length header"
                return self._broken_body()
            return None
        head = bytes(self._buf[:end])
        del self._buf[: end + 4]
        lengths = _LENGTH.findall(head)  # the last one: text before it is what is left of a torn frame
        value = lengths[-1].strip() if lengths else b""
        if _DIGITS.fullmatch(value) and int(value) <= MAX_BODY:
            self._need = int(value)
            return self._body()
        self._broken = f"bad Content-Length header {value[:20]!r}" if lengths else "no Content-Length header"
        return self._broken_body()

    def _body(self) -> Frame | None:
        assert self._need is not None
        if len(self._buf) < self._need:
            return None
        body = bytes(self._buf[: self._need])
        del self._buf[: self._need]
        self._need = None
        return Frame(body)

    def _broken_body(self) -> Frame | None:
        """The body of a frame whose header was unusable, once its end is known: the next header, or the
        end of a complete JSON value (so a broken request sent last is still answered)."""
        m = _LENGTH.search(self._buf, max(0, self._scanned - 20))
        if m is not None:
            return self._end_broken(m.start())
        self._scanned = len(self._buf)
        if bytes(self._buf[-64:]).rstrip().endswith((b"}", b"]")) and _complete(bytes(self._buf)):
            return self._end_broken(len(self._buf))
        if len(self._buf) > MAX_BODY:  # garbage without end: let it go
            del self._buf[:]
            self._scanned = 0
        return None

    def _end_broken(self, end: int) -> Frame:
        body = bytes(self._buf[:end])
        del self._buf[:end]
        frame = Frame(body, self._broken)
        self._broken = ""
        self._scanned = 0
        return frame


def _complete(text: bytes) -> bool:
    """Whether ``text`` is one whole JSON value (so a broken frame sent last is answered without waiting)."""
    try:
        json.loads(text.decode("utf-8", "replace"))
    except RecursionError:
        return True
    except ValueError:
        return False
    return True


class Wire:
    """Hands each body to pygls' protocol, and answers what pygls would leave unanswered."""

    def __init__(self, protocol: JsonRPCProtocol):
        self.protocol = protocol
        self.frames = Frames()
        self.stopping = False  # a shutdown request came: only exit is taken now
        self.refused = 0
        self._top: dict[str, Any] = {}

    def feed(self, data: bytes) -> None:
        for frame in self.frames.feed(data):
            if frame.broken:
                if frame.body.strip():
                    log.info("a frame with a broken header: %s", frame.broken)
                    text = frame.body.decode("utf-8", "replace")
                    self._answer(framing_refusal(text, f"{frame.broken}; frame skipped"))
            else:
                self.take(frame.body.decode("utf-8", "replace"))

    def take(self, text: str) -> None:
        """Hand one message to pygls, or answer it when pygls cannot take it."""
        self._top = {}
        try:
            message = json.loads(text, object_hook=self._structure)
        except Exception as e:  # not JSON, too deep, or refused by pygls' types
            self._answer(refusal(text, why=_why(e)))
            return
        if getattr(message, "jsonrpc", None) != "2.0" or not _envelope_ok(self._top):
            self._answer(refusal(text))
            return
        is_request = getattr(message, "method", None) is not None and hasattr(message, "id")
        if not is_request and "id" in self._top and "method" in self._top:  # an id on a notification's method
            id_ = readable_id(self._top["id"])
            self._answer(Refusal(id_, INVALID_REQUEST, f"Invalid Request: {message.method!r} is a notification"))
            return
        if self.stopping and is_request and message.method != "exit":
            self._answer(Refusal(readable_id(message.id), INVALID_REQUEST, "Invalid Request: the server is shut down"))
            return
        try:
            self.protocol.handle_message(message)
        except Exception:  # pygls answers a request's failure itself; this is a notification's or worse
            log.exception("could not handle a message")
        if is_request and message.method == "shutdown":
            self.stopping = True

    def _structure(self, data: dict[str, Any]) -> Any:
        self._top = data  # the hook sees the outermost object last
        if "jsonrpc" in data and "method" in data and "params" not in data:
            data["params"] = None  # params may be left out; pygls' generic message types need the field
        return self.protocol.structure_message(data)

    def _answer(self, answer: Refusal | None) -> None:
        if answer is None:
            return
        self.refused += 1
        log.info("refused a request: %s", answer.message)
        writer = self.protocol.writer
        if writer is None:
            return
        body = json.dumps(answer.as_json()).encode("utf-8")
        written = writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        if inspect.isawaitable(written):
            asyncio.ensure_future(written)


def _why(error: Exception) -> str:
    """What pygls' types found wrong (paths and expected types, never the values), when they say."""
    cause = error.__cause__
    if isinstance(cause, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(cause)[:3])
    return ""


def _envelope_ok(message: dict[str, Any]) -> bool:
    """Whether the outermost object is a JSON-RPC 2.0 message pygls can take: a string method, and an id
    that is a string or a number (pygls keys its futures by the id, so an object breaks them, and writes an
    error answer to id null without its id)."""
    if message.get("jsonrpc") != "2.0":
        return False
    if "method" in message and not isinstance(message["method"], str):
        return False
    return "id" not in message or readable_id(message["id"]) is not None


async def serve(protocol: JsonRPCProtocol, stdin: BinaryIO, executor: Executor) -> None:
    """Read ``stdin`` (on ``executor``: reads block) and serve what it holds until it ends."""
    wire = Wire(protocol)
    loop = asyncio.get_running_loop()
    read = getattr(stdin, "read1", stdin.read)
    try:
        while data := await loop.run_in_executor(executor, read, 65536):
            wire.feed(data)
    finally:
        if wire.refused:
            log.info("%d message(s) refused this session", wire.refused)
