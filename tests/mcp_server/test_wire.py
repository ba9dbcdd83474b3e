"""Hostile bytes on a real ``spyglass mcp`` process's stdin (issue 21, class 2): every request with a readable
id gets exactly one answer (an error where it must), every line the server writes is JSON-RPC 2.0, the
process never exits, and a normal request still answers afterwards. One server serves the whole module."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from rawwire import (
    FUZZ_IDS,
    MCP_METHODS,
    MCP_PARAMS,
    RawMcp,
    assert_still_sound,
    corrupt,
    corruptions,
    deep,
    messages,
    owed_after,
    render,
    serving,
    text_of,
    with_fresh_id,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(RawMcp, tmp_path_factory.mktemp("wire")) as server:
        yield server


@pytest.fixture
def mcp(server: RawMcp):
    """The module's server; after each test it is still alive, wrote only valid frames, answered no id twice
    and still answers a normal request."""
    yield server
    assert_still_sound(server)


def request(mcp: RawMcp, body: str | bytes) -> dict | None:
    """Send ``body`` with its id 7 made fresh, and wait for the answer it is owed."""
    data = with_fresh_id(mcp, body)
    mcp.send(mcp.frame(data))
    owed, id_ = owed_after(data)
    return mcp.answer(id_) if owed else None


def call(tool: str, arguments, id_: int = 7) -> str:
    return render(
        {"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    )


# The failures the independent suite found, then the other hostile shapes the issue names.
CASES = {
    "lone surrogate in a tool argument": (call("search_code", {"query": "\ud800"}), -32602),
    "lone surrogate in the tool name": (call("\ud800", {}), -32602),
    "lone surrogate in a key": (call("search_code", {"q\udc00": "x"}), -32602),
    "params an array": ('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":[1,2]}', -32602),
    "params a string": ('{"jsonrpc":"2.0","id":7,"method":"tools/list","params":"x"}', -32602),
    "params a number": ('{"jsonrpc":"2.0","id":7,"method":"ping","params":5}', -32602),
    "params null": ('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":null}', -32602),
    "unknown method": ('{"jsonrpc":"2.0","id":7,"method":"no/such"}', -32601),
    "method not a string": ('{"jsonrpc":"2.0","id":7,"method":5}', -32600),
    "no jsonrpc": ('{"id":7,"method":"ping"}', -32600),
    "jsonrpc 1.0": ('{"jsonrpc":"1.0","id":7,"method":"ping"}', -32600),
    "no method": ('{"jsonrpc":"2.0","id":7}', -32600),
    "unknown tool": (call("no_such_tool", {}), None),
    "tool arguments of the wrong type": (call("search_code", {"query": 5, "k": "many"}), None),
    "params nested 100,000 deep": (call("search_code", deep(100_000)), -32602),
    "an argument nested 100,000 deep": (call("search_code", {"query": deep(100_000)}), -32602),
    "a 10 MB argument": (call("search_code", {"query": "x " * 5_000_000}), None),
    "bad UTF-8 in a string": (b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"\xff\xfe"}}', None),
}


@pytest.mark.parametrize("body,code", CASES.values(), ids=CASES.keys())
def test_a_hostile_request_gets_one_answer(mcp: RawMcp, body, code):
    answer = request(mcp, body)
    assert answer is not None
    if code is None:  # a tool's own failure is a result the model reads, or an SDK error
        assert "result" in answer or "error" in answer
    else:
        assert answer["error"]["code"] == code


# ids: JSON-RPC echoes a string or a number; an id it cannot read (null, an object, true) gets an error with
# id null; MCP takes strings and integers only, so a fraction is refused with its own id.
IDS_CASES = {
    "int": ("5", 5, "result"),
    "negative int": ("-3", -3, "result"),
    "string": ('"abc"', "abc", "result"),
    "empty string": ('""', "", "result"),
    "float": ("1.5", 1.5, "error"),
    "big int": ("123456789012345678901234567890", 123456789012345678901234567890, "result"),
}


@pytest.mark.parametrize("id_text,id_,kind", IDS_CASES.values(), ids=IDS_CASES.keys())
def test_ids_of_every_readable_type_are_echoed(mcp: RawMcp, id_text, id_, kind):
    mcp.send(mcp.frame(b'{"jsonrpc":"2.0","id":%s,"method":"ping"}' % id_text.encode()))
    answer = mcp.answer(id_)
    assert answer is not None and kind in answer
    assert answer["id"] == id_ and type(answer["id"]) is type(id_)


@pytest.mark.parametrize("id_text", ["null", '{"a":1}', "[1]", "true", '"\\ud800"'])
def test_an_unreadable_id_is_answered_with_id_null(mcp: RawMcp, id_text):
    before = mcp.answers_to(None)
    mcp.send(mcp.frame(b'{"jsonrpc":"2.0","id":%s,"method":"ping"}' % id_text.encode()))
    assert mcp.call("ping") is not None  # answered in order: the error for the bad id came first
    assert mcp.answers_to(None) == before + 1


@pytest.mark.parametrize(
    "line",
    ["{bad json", "[]", "[1, 2]", "5", '"text"', "null", "{}", '{"jsonrpc":"2.0"}', "\x00\x01", "}{", "{" * 10_000],
)
def test_malformed_json_gets_a_parse_error_or_invalid_request_with_id_null(mcp: RawMcp, line):
    before = mcp.answers_to(None)
    mcp.send(mcp.frame(line.encode()))
    assert mcp.call("ping") is not None
    assert mcp.answers_to(None) == before + 1


@pytest.mark.parametrize(
    "line",
    [
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":[]}}}',
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":"\\ud800"}',
        '{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}',
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":null,"progress":"x"}}',
        '{"jsonrpc":"2.0","method":"no/such/notification","params":5}',
        '{"jsonrpc":"2.0","id":99999,"result":{"unexpected":true}}',  # a response to nothing
        '{"jsonrpc":"2.0","id":99998,"error":{"code":"x"}}',
    ],
)
def test_a_bad_notification_or_response_gets_no_answer_and_harms_nothing(mcp: RawMcp, line):
    frames = mcp.counts.frames
    mcp.send(mcp.frame(line.encode()))
    assert mcp.call("ping") is not None
    assert mcp.counts.frames == frames + 1  # the ping's answer alone


# no shrinking: each step of it would wait out a hang; the failing example is shown as it was drawn
@settings(
    max_examples=150, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck)
)
@given(shape=messages(MCP_METHODS, MCP_PARAMS), how=corruptions)
def test_fuzzed_messages_each_get_exactly_one_answer(mcp: RawMcp, shape, how):
    data = corrupt(text_of(shape, next(FUZZ_IDS)), how)
    mcp.send(mcp.frame(data))
    owed, id_ = owed_after(data)
    if owed:
        assert mcp.answer(id_) is not None, data[:300]
    assert mcp.call("ping") is not None, data[:300]  # alive, and answering in time
    assert not mcp.counts.invalid and not mcp.counts.duplicates


def test_requests_before_initialize_are_answered(tmp_path: Path, shop: Path):
    server = RawMcp(shop, tmp_path / "mcp.log")
    try:
        for line in ('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', call("search_code", {"query": "\ud800"}, 2)):
            server.send(server.frame(line.encode()))
        assert server.answer(1) is not None and server.answer(2)["error"]["code"] == -32602
        assert server.start() is not None and server.wait_indexed()
        assert not server.counts.invalid and not server.counts.duplicates
    finally:
        server.close()


def test_the_answer_text_for_a_surrogate_names_the_problem(mcp: RawMcp):
    answer = request(mcp, call("find_symbol", {"name": "a\ud800"}))
    assert "lone surrogate" in answer["error"]["message"]
    assert json.dumps(answer).isascii()
