"""`spyglass search` and `spyglass span` protect a human's terminal like the agents' answers: secrets in
indexed files print as [REDACTED:<kind>] unless --show-secrets asks for them."""

import json
from pathlib import Path

from clirun import run

import planted_secrets as planted


def test_search_and_span_redact_unless_asked(tmp_path: Path):
    root = planted.write_corpus(tmp_path / "planted")
    run("index", "--no-embed", "-q", cwd=root)
    out = run("search", "twilio auth token", "-k", "3", cwd=root).stdout
    assert "[REDACTED:secret]" in out and planted.TWILIO_TOKEN not in out
    found = json.loads(run("search", "twilio auth token", "-k", "3", "--json", cwd=root).stdout)
    assert planted.leaks(json.dumps(found), ignore="twilio auth token") == []
    # the module span holds the token (send_sms only names it)
    found = json.loads(run("search", "twilio auth token", "--kind", "module", "--json", cwd=root).stdout)
    hit = next(r for r in found["results"] if r["path"] == "app/sms.py")
    assert planted.leaks(json.dumps(found), ignore="twilio auth token") == []
    span = run("span", hit["id"], cwd=root).stdout
    assert planted.TWILIO_TOKEN not in span and "[REDACTED" in span
    assert planted.TWILIO_TOKEN in run("span", hit["id"], "--show-secrets", cwd=root).stdout
    assert planted.TWILIO_TOKEN in run("search", "twilio auth token", "--show-secrets", cwd=root).stdout
