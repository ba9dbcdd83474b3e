"""ask (issue 22): a real llama.cpp server with a small model, and a recording endpoint for what is sent."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tests.llmserver import Recorder, free_port, llama_server

from spyglass.engine import LlmUnavailable, Workspace
from spyglass.engine.asking import cited_ids, is_loopback

FIXTURE = Path(__file__).parents[1] / "fixtures" / "shop"
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def shop(tmp_path) -> Path:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    (root / "shop" / "github.py").write_text(
        'def coupon_service_client():\n    """Talk to the coupon service."""\n'
        f'    github_token = "{TOKEN}"\n    return github_token\n'
    )
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.index()
    return root


def _ws(root: Path, **settings) -> Workspace:
    return Workspace.open(root, overrides={"embed": False, **settings})


@pytest.mark.slow
def test_a_real_local_model_answers_from_the_spans_search_found(shop):
    with llama_server() as url, _ws(shop, llm_url=url) as ws:
        found = ws.ask("What discount does a coupon code give?", k=4)
    assert found.answer.strip() and found.sources and found.elapsed_ms > 0
    given = [h.id for h in found.sources]
    assert any("compute_discount" in (h.symbol or "") for h in found.sources)
    assert set(found.cited) <= set(given)


def test_what_is_sent_holds_the_spans_and_no_secret(shop):
    recorder = Recorder()
    try:
        with _ws(shop, llm_url=recorder.url, llm_model="tiny") as ws:
            found = ws.ask("coupon service client token", k=5)
    finally:
        recorder.close()
    [body] = recorder.bodies
    sent = "\n".join(m["content"] for m in body["messages"])
    assert body["model"] == "tiny" and body["temperature"] == 0
    assert "coupon_service_client" in sent and TOKEN not in sent and "[REDACTED:" in sent
    assert all(f"[{h.id}]" in sent for h in found.sources)
    assert found.answer == "It is [ID]." and found.cited == [] and found.model == "recorder"


def test_cited_ids_are_only_the_ones_given_in_order_of_mention():
    class Hit:
        def __init__(self, span_id):
            self.id = span_id

    given = [Hit("a.py:1-2#aaaaaaaaaa"), Hit("b.py:3-9#bbbbbbbbbb")]
    text = "See [b.py:3-9#bbbbbbbbbb] and a.py:1-2#aaaaaaaaaa, not [c.py:1-1#cccccccccc]."
    assert cited_ids(text, given) == ["b.py:3-9#bbbbbbbbbb", "a.py:1-2#aaaaaaaaaa"]


def test_code_goes_to_no_other_machine_unless_allowed(shop):
    assert is_loopback("http://127.0.0.1:8080/v1") and is_loopback("http://localhost:11434/v1")
    assert is_loopback("http://[::1]:8080/v1") and not is_loopback("http://127.0.0.1.example.com/v1")
    assert not is_loopback("http://10.0.0.5:8080/v1")
    with _ws(shop, llm_url="http://example.com/v1") as ws, pytest.raises(LlmUnavailable, match="allow_remote_llm"):
        ws.ask("anything")
    unroutable = "http://192.0.2.1:9/v1"  # TEST-NET-1: allowed, then nobody answers
    with _ws(shop, llm_url=unroutable, allow_remote_llm=True, llm_timeout=0.5) as ws:
        with pytest.raises(LlmUnavailable, match="192.0.2.1"):
            ws.ask("anything")


def test_a_down_endpoint_a_redirect_and_no_configuration_are_clear_errors(shop):
    with _ws(shop, llm_url=f"http://127.0.0.1:{free_port()}/v1") as ws:
        with pytest.raises(LlmUnavailable, match="cannot be reached"):
            ws.ask("anything")
    recorder = Recorder(status=307, location="http://example.com/v1/chat/completions")
    try:
        with _ws(shop, llm_url=recorder.url) as ws, pytest.raises(LlmUnavailable, match="HTTP 307"):
            ws.ask("anything")
    finally:
        recorder.close()
    with _ws(shop) as ws:
        assert not ws.can_ask
        with pytest.raises(LlmUnavailable, match="llm_url"):
            ws.ask("anything")
