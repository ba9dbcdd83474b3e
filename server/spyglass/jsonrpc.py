"""JSON-RPC 2.0 for the two servers: the error a message is owed when the protocol library cannot take it.

The mcp SDK and pygls each drop a message they cannot validate without answering it (a lone surrogate, params
that are not an object, a wrong type deep in the params, nesting deeper than their parsers go), and the
client then waits forever. Each server's wire (``lsp/wire.py``, ``mcp/wire.py``) hands such a message here
and writes the answer :func:`refusal` gives: -32700 for text that is not JSON, -32600 for a message that is
not a request, -32601 for a method name that is not text, -32602 for params the method cannot take, with the
request's id when it can be read and ``null`` when it cannot, as JSON-RPC 2.0 asks. A notification or a
response is owed nothing. No front end, no engine: the servers import this module and nothing else here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null")
_STRUCTURAL = re.compile(r'["\[\]{}]')
_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True)
class Refusal:
    """The error answer to one request: ``id`` is the request's, or None when it could not be read."""

    id: str | int | float | None
    code: int
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": self.id, "error": {"code": self.code, "message": self.message}}


def refusal(text: str | bytes, *, strict_ids: bool = False, array_params: bool = True, why: str = "") -> Refusal | None:
    """The error owed to ``text``, one message its server's library refused, or None (a notification or a
    response: JSON-RPC answers neither). An id is a string or a number (JSON-RPC's null is refused: MCP and
    LSP both forbid it); ``strict_ids``: never a fraction either (MCP). ``array_params``: params may be an
    array (JSON-RPC's by-position params; MCP wants an object). ``why``: what the library found wrong in the
    params, when it says (never the values)."""
    try:
        message: Any = json.loads(text)
    except RecursionError:  # deeper than Python's parser goes: read the top level alone
        message = _top_level(text.decode("utf-8", "replace") if isinstance(text, bytes) else text)
        if message is None:
            return Refusal(None, PARSE_ERROR, "Parse error: the message is not JSON")
    except ValueError:  # not JSON (UnicodeDecodeError is one too)
        return Refusal(None, PARSE_ERROR, "Parse error: the message is not JSON")
    if not isinstance(message, dict):
        return Refusal(None, INVALID_REQUEST, "Invalid Request: a message is a JSON object")
    return _refusal(message, strict_ids=strict_ids, array_params=array_params, why=why)


def framing_refusal(text: str | bytes, why: str) -> Refusal | None:
    """The parse error owed to ``text``, the body of a frame whose header was broken (``why``): with its id
    when it is a request whose id reads, None for a notification or a response, id null for the rest."""
    try:
        message: Any = json.loads(text)
    except RecursionError:
        message = _top_level(text.decode("utf-8", "replace") if isinstance(text, bytes) else text)
    except ValueError:
        message = None
    if not isinstance(message, dict):
        return Refusal(None, PARSE_ERROR, f"Parse error: {why}")
    if "method" not in message and ("result" in message or "error" in message):
        return None  # a response
    if "method" in message and "id" not in message:
        return None  # a notification
    id_ = readable_id(message.get("id"))
    return Refusal(id_, PARSE_ERROR, f"Parse error: {why}")


def _refusal(message: dict[str, Any], *, strict_ids: bool, array_params: bool, why: str) -> Refusal | None:
    if "method" not in message:
        if "result" in message or "error" in message:
            return None  # a response from the client: nothing to answer
        return Refusal(readable_id(message.get("id")), INVALID_REQUEST, "Invalid Request: no method")
    if "id" not in message:
        return None  # a notification: never answered, even when wrong
    id_ = readable_id(message["id"])
    if id_ is None or (strict_ids and isinstance(id_, float)):  # null: JSON-RPC discourages it, MCP, LSP refuse it
        kinds = "a string or an integer" if strict_ids else "a string or a number"
        return Refusal(id_, INVALID_REQUEST, f"Invalid Request: the id must be {kinds}")
    if message.get("jsonrpc") != "2.0":
        return Refusal(id_, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
    method = message["method"]
    if not isinstance(method, str):
        return Refusal(id_, INVALID_REQUEST, "Invalid Request: the method must be a string")
    if _SURROGATE.search(method):
        return Refusal(id_, METHOD_NOT_FOUND, "Method not found")
    params = message.get("params")
    allowed: tuple[type, ...] = (dict, list) if array_params else (dict,)
    if params is not None and not isinstance(params, allowed):
        kinds = "an object or an array" if array_params else "an object"
        return Refusal(id_, INVALID_PARAMS, f"Invalid params: params must be {kinds}, not {_json_type(params)}")
    return Refusal(id_, INVALID_PARAMS, f"Invalid params for {_shown(method)}: {_why(params, why)}")


def readable_id(value: Any) -> str | int | float | None:
    """``value`` as an id an answer can carry: a string (whole Unicode: a lone surrogate cannot be written
    back) or a number; anything else (null, true, an object, an array) reads as no id."""
    if isinstance(value, str):
        return None if _SURROGATE.search(value) else value
    if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
        return value if abs(value) != float("inf") else None
    return None


def _why(params: Any, why: str) -> str:
    if isinstance(params, dict | list) and _holds_surrogate(params):
        return "a string holds a lone surrogate (e.g. \\ud800), which is not Unicode text"
    if why:
        return why[:300]
    return "a value is missing, of the wrong type, out of range or nested too deeply"


def _holds_surrogate(value: Any) -> bool:
    """Whether any string in ``value`` (keys too) holds a lone surrogate; iterative, for any depth."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _shown(method: str) -> str:
    return repr(method[:80])


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    return "an array" if isinstance(value, list) else "null"


def _top_level(text: str) -> dict[str, Any] | None:
    """The members of the JSON object ``text`` with nested values stood in for by an empty object or array,
    read without recursion so that no depth stops it (the id and method of a request whose params are nested
    100,000 deep). None when ``text`` is not one JSON object."""
    try:
        members, end = _members(text)
    except (ValueError, IndexError):
        return None
    return members if _ws(text, end) == len(text) else None


def _members(text: str) -> tuple[dict[str, Any], int]:
    i = _ws(text, 0)
    if text[i] != "{":
        raise ValueError("not an object")
    members: dict[str, Any] = {}
    i = _ws(text, i + 1)
    if text[i] == "}":
        return members, i + 1
    while True:
        if text[i] != '"':
            raise ValueError("a key must be a string")
        key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
        i = _ws(text, i)
        if text[i] != ":":
            raise ValueError("':' expected")
        members[key], i = _value(text, _ws(text, i + 1))
        i = _ws(text, i)
        if text[i] == "}":
            return members, i + 1
        if text[i] != ",":
            raise ValueError("',' or '}' expected")
        i = _ws(text, i + 1)


def _value(text: str, i: int) -> tuple[Any, int]:
    if text[i] == '"':
        return json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
    if text[i] in "[{":
        return ({} if text[i] == "{" else []), _skip_nested(text, i)
    m = _SCALAR.match(text, i)
    if m is None:
        raise ValueError("a value expected")
    return json.loads(m.group()), m.end()


def _ws(text: str, i: int) -> int:
    """The index of the first character at or after ``i`` that is not JSON whitespace."""
    m = _WS.match(text, i)
    return m.end() if m else i


def _skip_nested(text: str, i: int) -> int:
    """The end of the array or object that starts at ``i``, found by counting brackets outside strings."""
    depth = 0
    while (m := _STRUCTURAL.search(text, i)) is not None:
        c, i = m.group(), m.end()
        if c == '"':
            _, i = json.decoder.scanstring(text, i)  # type: ignore[attr-defined]
        elif c in "[{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unterminated array or object")
