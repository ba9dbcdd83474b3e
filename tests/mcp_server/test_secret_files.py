"""Span IDs come from agents, who may make them up: over MCP, an ID naming a secret file that the index left
out (.env.production, id_rsa, .npmrc ...) gets the answer a file that does not exist gets, and no byte of it;
get_context on such a file reads nothing either."""

from __future__ import annotations

import json

import pytest
from mcp import Client

from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace
from spyglass.mcp.app import build_server

SECRET_FILES = {
    ".env.production": "STRIPE_KEY=sk_live_" + "51Habcdefghijklmnopqrstuv\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=npm_" + "abcdefghijklmnopqrstuvwxyz0123456789\n",
    "id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n",
    "deploy/key.pem": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n",
    "config/secrets.yaml": "aws_secret_access_key: wJalrXUtnFEMI/" + "K7MDENG/bPxRfiCYEXAMPLEKEY\n",
    ".netrc": "machine api.example.com login deploy password s3cr3t-" + "netrc-pass\n",
    ".docker/config.json": '{"auths": {"ghcr.io": {"auth": "ZGVwbG95Omdoc' + 'F9hYmNkZWZnaGlqa2xtbm9w"}}}\n',
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp-secrets") / "app"
    (root / ".git").mkdir(parents=True)
    (root / "app.py").write_text("def handler(event):\n    return event\n")
    for rel, text in SECRET_FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    ws = Workspace.open(root, writer=True, memory_vectors=True, overrides={"embed": False})
    live = LiveIndex(ws, watch=False).start()
    assert live.wait_idle(timeout=120)
    built, _session = build_server(live, query_log=tmp_path_factory.mktemp("log") / "queries.jsonl")
    yield built
    live.stop()


async def test_a_made_up_span_id_for_a_secret_file_reads_nothing(server):
    async with Client(server) as client:
        for rel, text in SECRET_FILES.items():
            for span_id in (f"{rel}:1-1#0000000000", f"{rel}:2-2#0000000000", f"{rel}:1-40#ffffffffff"):
                result = await client.call_tool("get_span", {"id": span_id, "context_lines": 20})
                dumped = json.dumps(result.structured_content) + " ".join(
                    c.text for c in result.content if c.type == "text"
                )
                assert not any(line in dumped for line in text.splitlines() if len(line) > 10), span_id
                assert result.is_error or result.structured_content["status"] == "missing", span_id
            context = await client.call_tool("get_context", {"path": rel, "line": 1})
            shown = json.dumps(context.structured_content) + " ".join(
                c.text for c in context.content if c.type == "text"
            )
            assert not any(line in shown for line in text.splitlines() if len(line) > 10), rel
        real = await client.call_tool("get_span", {"id": "app.py:1-2#0000000000"})
        assert "def handler" in json.dumps(real.structured_content)  # a file the index holds is still read
