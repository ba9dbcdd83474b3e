"""spyglass.jsonrpc: the error owed to a message a protocol library refused, read as JSON-RPC 2.0 asks."""

from __future__ import annotations

import pytest

from spyglass.jsonrpc import Refusal, framing_refusal, refusal

DEEP = "[" * 100_000 + "]" * 100_000
REQUEST = '{"jsonrpc":"2.0","id":7,"method":"m","params":%s}'
CASES = {
    "not JSON": ("{bad", {}, Refusal(None, -32700, "")),
    "not UTF-8": (b'{"id":"\xff"}', {}, Refusal(None, -32700, "")),
    "an array": ("[]", {}, Refusal(None, -32600, "")),
    "a number": ("5", {}, Refusal(None, -32600, "")),
    "no method": ('{"jsonrpc":"2.0","id":7}', {}, Refusal(7, -32600, "")),
    "a response": ('{"jsonrpc":"2.0","id":7,"result":1}', {}, None),
    "an error response": ('{"jsonrpc":"2.0","id":7,"error":{}}', {}, None),
    "a notification": ('{"jsonrpc":"2.0","method":"m","params":5}', {}, None),
    "id null": ('{"jsonrpc":"2.0","id":null,"method":"m"}', {}, Refusal(None, -32600, "")),
    "id an object": ('{"jsonrpc":"2.0","id":{},"method":"m"}', {}, Refusal(None, -32600, "")),
    "id true": ('{"jsonrpc":"2.0","id":true,"method":"m"}', {}, Refusal(None, -32600, "")),
    "id a lone surrogate": ('{"jsonrpc":"2.0","id":"\\ud800","method":"m"}', {}, Refusal(None, -32600, "")),
    "id a fraction, MCP": ('{"jsonrpc":"2.0","id":1.5,"method":"m"}', {"strict_ids": True}, Refusal(1.5, -32600, "")),
    "id a string": (REQUEST.replace("7", '"x"') % "5", {}, Refusal("x", -32602, "")),
    "jsonrpc 1.0": ('{"jsonrpc":"1.0","id":7,"method":"m"}', {}, Refusal(7, -32600, "")),
    "method a number": ('{"jsonrpc":"2.0","id":7,"method":5}', {}, Refusal(7, -32600, "")),
    "method a lone surrogate": ('{"jsonrpc":"2.0","id":7,"method":"\\ud800"}', {}, Refusal(7, -32601, "")),
    "params a string": (REQUEST % '"x"', {}, Refusal(7, -32602, "")),
    "params an array, MCP": (REQUEST % "[1]", {"array_params": False}, Refusal(7, -32602, "")),
    "params with a lone surrogate": (REQUEST % '{"q":"\\ud800"}', {}, Refusal(7, -32602, "lone surrogate")),
    "params nested 100,000 deep": (REQUEST % DEEP, {}, Refusal(7, -32602, "")),
    "params deep, id last": (
        '{"jsonrpc":"2.0","method":"m","params":' + DEEP + ',"id":"z"}',
        {},
        Refusal("z", -32602, ""),
    ),
    "deep and not JSON": ('{"jsonrpc":"2.0","id":7,"params":' + DEEP, {}, Refusal(None, -32700, "")),
    "what the library said": (REQUEST % "{}", {"why": "position: expected int"}, Refusal(7, -32602, "expected int")),
}


@pytest.mark.parametrize("text,options,expected", CASES.values(), ids=CASES.keys())
def test_the_error_owed_to_a_refused_message(text, options, expected):
    answer = refusal(text, **options)
    if expected is None:
        assert answer is None
    else:
        assert (answer.id, answer.code) == (expected.id, expected.code)
        assert expected.message in answer.message
        assert answer.as_json() == {
            "jsonrpc": "2.0",
            "id": answer.id,
            "error": {"code": answer.code, "message": answer.message},
        }


FRAMING = {
    "a request": ('{"jsonrpc":"2.0","id":7,"method":"m"}', Refusal(7, -32700, "")),
    "a notification": ('{"jsonrpc":"2.0","method":"m"}', None),
    "a response": ('{"jsonrpc":"2.0","id":7,"result":null}', None),
    "not JSON": ("garbage", Refusal(None, -32700, "")),
    "deep": ('{"id":7,"method":"m","params":' + DEEP + "}", Refusal(7, -32700, "")),
}


@pytest.mark.parametrize("text,expected", FRAMING.values(), ids=FRAMING.keys())
def test_a_frame_with_a_broken_header_owes_a_parse_error(text, expected):
    answer = framing_refusal(text, "bad header")
    if expected is None:
        assert answer is None
    else:
        assert (answer.id, answer.code) == (expected.id, expected.code) and "bad header" in answer.message
