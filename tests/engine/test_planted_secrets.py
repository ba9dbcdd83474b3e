"""Secrets planted in ordinary indexed files (tests/planted_secrets.py: 40 kinds) never come back through the
engine's answers, which every front end (MCP, LSP, CLI) prints: search hits (snippet, matching line, symbol),
symbol lookups, spans by id (with context lines), the span at a line, related spans and line context.

Whatever the query asks (the secret's name, the comment beside it, half of the value), no planted value, nor
any 12-character slice of it that the query did not itself contain, appears in any answer. A real Workspace
over real files, lexical search (no model) to stay fast. Ordinary code with random-looking but public values
(git SHAs in a lockfile, UUIDs, base64 test data, hashes) is not redacted.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import planted_secrets as planted
from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}


def _dump(answer: object) -> str:
    if answer is None:
        return ""
    return json.dumps(dataclasses.asdict(answer), ensure_ascii=False)  # type: ignore[call-overload]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    root = planted.write_corpus(tmp_path_factory.mktemp("planted"))
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        yield ws


def _queries() -> list[str]:
    out = []
    for p in planted.PLANTED:
        out += list(p.queries)
        out.append(p.value[: len(p.value) // 2])  # half the value
        out.append(p.value[len(p.value) // 2 :])
    return out


def test_every_planted_file_is_indexed(corpus: Workspace):
    paths = {p.path for p in planted.PLANTED}
    indexed = set(corpus.store.file_states())
    assert paths <= indexed, paths - indexed


@pytest.mark.parametrize("query", _queries())
def test_search_never_returns_a_planted_secret(corpus: Workspace, query: str):
    answer = corpus.search(query, k=10, cut=False)
    for hit in answer.results:
        shown = json.dumps([hit.snippet, hit.match_line.text, hit.symbol, hit.id, hit.path])
        assert planted.leaks(shown, ignore=query) == [], (query, hit.path, hit.snippet)
        # the span the hit names, alone and with context lines around it
        for context in (0, 30):
            span = corpus.span(hit.id, context_lines=context)
            assert planted.leaks(_dump(span), ignore=query) == [], (query, hit.id)


@pytest.mark.parametrize("query", _queries())
def test_symbol_lookups_never_return_a_planted_secret(corpus: Workspace, query: str):
    for match in corpus.symbols(query, k=20, semantic=False):
        assert planted.leaks(_dump(match), ignore=query) == [], (query, match.span.symbol)


def test_every_line_of_every_planted_file_is_redacted_in_every_answer(corpus: Workspace):
    for rel, text in planted.corpus_texts().items():
        for line in range(1, text.count("\n") + 2):
            for answer in (corpus.span_at(rel, line), corpus.related(rel, line, k=5), corpus.context(rel, line)):
                assert planted.leaks(_dump(answer)) == [], (rel, line)


def test_markdown_headings_and_pem_fragments_are_redacted(corpus: Workspace):
    names = [m.span.symbol for m in corpus.symbols("Release", k=5, semantic=False)]
    assert any("[REDACTED:github-token]" in n for n in names), names
    ids = [h.id for h in corpus.search("rsa private key signing", k=5, cut=False).results if "signing" in h.path]
    text = corpus.span(ids[0], context_lines=50).text
    assert "[REDACTED:private-key]" in text and planted.RSA_BODY.split("\n")[2] not in text


def test_the_opt_out_shows_the_text_as_it_is(corpus: Workspace):
    corpus.redact = False
    try:
        hits = corpus.search("twilio auth token", k=3, cut=False).results
        assert any(planted.TWILIO_TOKEN in h.snippet for h in hits)
    finally:
        corpus.redact = True


# -- false positives: ordinary code whose random-looking values are not secrets --------------------------------
ORDINARY = {
    "fixtures/lock.json": """{
  "name": "app",
  "lockfileVersion": 3,
  "packages": {
    "node_modules/left-pad": {
      "version": "1.3.0",
      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
      "integrity": "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQdrzI8LE9Kj2pS5NHmb3Es9Kt0Hk4vbq8KDJ0f9dQ8Xl2Q=="
    }
  }
}
""",
    "fixtures/go-sum.yaml": "sum: github.com/gin-gonic/gin v1.9.1 h1:4idEAncQnU5cB7BeOkPtxjfCSye0AAm1R0RVIqJ+Jmg=\n",
    "fixtures/cargo-lock.toml": '[[package]]\nname = "serde"\nversion = "1.0.188"\n'
    'checksum = "cf9e0fcba69a370eed61bcf2b728575f726b50b55990a5d2f2e1ea8a1a5e9b3a"\n',
    "tests/test_codec.py": '''"""Codec tests: base64 data and ids that are not secrets."""
import uuid

SAMPLE = "SGVsbG8sIHdvcmxkISBUaGlzIGlzIGp1c3QgdGVzdCBkYXRhLg=="
REQUEST_ID = uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
COMMIT = "3f786850e387550fdab836ed7e6dc881de23001b"
SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
token_count = 4096
password_field = "password"


def test_roundtrip():
    assert decode(encode(SAMPLE)) == SAMPLE
''',
}
KEPT = [
    "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQdrzI8LE9Kj2pS5NHmb3Es9Kt0Hk4vbq8KDJ0f9dQ8Xl2Q==",
    "h1:4idEAncQnU5cB7BeOkPtxjfCSye0AAm1R0RVIqJ+Jmg=",
    "cf9e0fcba69a370eed61bcf2b728575f726b50b55990a5d2f2e1ea8a1a5e9b3a",
    "SGVsbG8sIHdvcmxkISBUaGlzIGlzIGp1c3QgdGVzdCBkYXRhLg==",
    "123e4567-e89b-12d3-a456-426614174000",
    "3f786850e387550fdab836ed7e6dc881de23001b",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
]


def test_hashes_uuids_and_test_data_are_not_redacted(tmp_path: Path):
    for rel, text in ORDINARY.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    with Workspace.open(tmp_path, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        assert set(ORDINARY) <= set(ws.store.file_states())
        for rel, text in ORDINARY.items():
            lines = range(1, text.count("\n") + 1)
            summaries = [s for s in (ws.span_at(rel, line) for line in lines) if s is not None]
            shown = "".join(_dump(ws.context(rel, line)) for line in lines)
            shown += "".join(_dump(s) + ws.span(s.id, context_lines=50).text for s in summaries)
            assert summaries and "[REDACTED" not in shown, rel
            for value in KEPT:
                assert value in shown or value not in text, (rel, value)
