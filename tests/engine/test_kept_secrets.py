"""The secrets of each file are found while indexing and kept in the index (``files.secrets``), so a search
redacts a hit without scanning its whole file again; what is kept is used only for the very text it was found
in (the file's content hash) and only under the rules that found it (the redact module's version).

A real Workspace over real files, lexical search (no model).
"""

from __future__ import annotations

import json
from pathlib import Path

import apsw
import pytest

from spyglass.engine.errors import IndexOutdated
from spyglass.engine.lock import WriterLock
from spyglass.engine.migrations import MIGRATIONS, SCHEMA_VERSION
from spyglass.engine.redact import SECRETS_VERSION, FileSecrets
from spyglass.engine.store import Store
from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}
TOKEN = "ghp_" + "Q7vLm2Xc9RtY4bN8kJ3hG6fD1sA5zP0wE2uI"
SECOND = "glpat-" + "x8Kq2Lm9Vb4Nc7Rt1Yz3"


def _tree(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "client.py").write_text(
        f'GITHUB_TOKEN = "{TOKEN}"\n\n\ndef connect_client():\n    return GITHUB_TOKEN\n'
    )
    (root / "src" / "plain.py").write_text("def add_numbers(a, b):\n    return a + b\n")
    return root


def _kept(ws: Workspace, path: str) -> dict:
    row = ws.store.file_secrets(path)
    assert row is not None
    return json.loads(row[1])


def _shown(ws: Workspace, query: str) -> str:
    hits = ws.search(query, k=10, cut=False).results
    assert hits, query
    return json.dumps([[h.snippet, h.match_line.text, h.symbol] for h in hits]) + json.dumps(
        [ws.span(h.id, context_lines=20).text for h in hits]
    )


def test_indexing_keeps_each_files_secrets(tmp_path: Path):
    with Workspace.open(_tree(tmp_path / "w"), writer=True, overrides=LEXICAL) as ws:
        report = ws.index()
        assert report.files_with_secrets == 1
        kept = _kept(ws, "src/client.py")
        assert kept["v"] == SECRETS_VERSION and kept["count"] == 1
        assert [TOKEN, "github-token"] in kept["pieces"]
        assert _kept(ws, "src/plain.py") == {"v": SECRETS_VERSION}  # scanned, nothing found
        found = FileSecrets.from_json(ws.store.file_secrets("src/client.py")[1])
        assert found is not None and TOKEN not in found.clean(f'x = "{TOKEN}"')
        shown = _shown(ws, "GITHUB_TOKEN connect_client")
        assert TOKEN not in shown and "[REDACTED:github-token]" in shown


def test_a_file_changed_since_indexing_is_redacted_by_its_current_text(tmp_path: Path):
    root = _tree(tmp_path / "w")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        # a second secret written after the index was built: what the index kept does not know it
        (root / "src" / "client.py").write_text(
            f'GITHUB_TOKEN = "{TOKEN}"\nGITLAB_TOKEN = "{SECOND}"\n\n\ndef connect_client():\n    return GITHUB_TOKEN\n'
        )
        shown = _shown(ws, "GITHUB_TOKEN connect_client")
        assert TOKEN not in shown and SECOND not in shown
        assert "[REDACTED:gitlab-token]" in shown
        # the findings used are those of the text as it is now, not those the index kept
        assert dict(ws._secrets_of("src/client.py").pieces).get(SECOND) == "gitlab-token"


def test_secrets_kept_under_other_rules_or_damaged_are_found_again(tmp_path: Path):
    root = _tree(tmp_path / "w")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        ws.store.con.execute("UPDATE files SET secrets='{\"v\": \"older rules\"}' WHERE path='src/client.py'")
        ws.store.con.execute("UPDATE files SET secrets='not json' WHERE path='src/plain.py'")
        assert FileSecrets.from_json(ws.store.file_secrets("src/client.py")[1]) is None
        shown = _shown(ws, "GITHUB_TOKEN connect_client")  # not trusted: the file is scanned again
        assert TOKEN not in shown
        report = ws.index()  # nothing changed on disk; the next sync finds them again under today's rules
        assert report.changed == 0 and report.files_with_secrets == 1
        assert [TOKEN, "github-token"] in _kept(ws, "src/client.py")["pieces"]
        assert _kept(ws, "src/plain.py") == {"v": SECRETS_VERSION}


def test_an_index_from_before_secrets_were_kept_is_upgraded(tmp_path: Path):
    root = _tree(tmp_path / "w")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        db = ws.store.path
    _downgrade(db)
    assert len(MIGRATIONS) == SCHEMA_VERSION
    assert Store(db).schema_version() == SCHEMA_VERSION  # a writer migrates it
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        assert ws.store.file_secrets("src/client.py")[1] is None  # migrated, not found yet
        assert TOKEN not in _shown(ws, "GITHUB_TOKEN connect_client")
        report = ws.index()
        assert report.changed == 0 and report.files_with_secrets == 1
        assert _kept(ws, "src/client.py")["count"] == 1


def _downgrade(db: Path) -> None:
    """Take an index back to schema 5, before secrets were kept (no secrets column, no later index)."""
    con = apsw.Connection(str(db))
    con.execute("ALTER TABLE files DROP COLUMN secrets")
    con.execute("DROP INDEX IF EXISTS spans_qualname")
    con.execute("DROP TABLE commits; DROP TABLE commit_files; DROP TABLE commit_symbols; DROP TABLE commits_fts")
    con.execute("DROP TABLE doc_includes")
    con.execute(  # the cache as schema 1 made it
        "CREATE TABLE old_cache(embed_hash TEXT PRIMARY KEY, vector BLOB NOT NULL, used_at REAL NOT NULL) "
        "WITHOUT ROWID;"
        "INSERT INTO old_cache SELECT embed_hash, vector, used_at FROM embedding_cache;"
        "DROP TABLE embedding_cache; ALTER TABLE old_cache RENAME TO embedding_cache"
    )
    con.execute("DELETE FROM schema_migrations WHERE version > 5")
    con.close()


def test_a_reader_migrates_an_older_index_unless_another_process_writes_it(tmp_path: Path):
    root = _tree(tmp_path / "w")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        db, lock = ws.store.path, ws.lock.path
    _downgrade(db)
    writer = WriterLock(lock)
    writer.acquire()  # another process writes the index: a reader may not migrate it, and says what to do
    try:
        with pytest.raises(IndexOutdated, match="run `spyglass index` to upgrade it"):
            Workspace.open(root, overrides=LEXICAL)
    finally:
        writer.release()
    with Workspace.open(root, overrides=LEXICAL) as ws:  # nobody writes it: the reader migrates, then reads
        assert ws.store.schema_version() == SCHEMA_VERSION and ws.store.readonly
        assert TOKEN not in _shown(ws, "GITHUB_TOKEN connect_client")


def _found_by_value(ws: Workspace, value: str) -> list[str]:
    return [h.path for h in ws.search(value, k=10, cut=False).results]


def test_a_secrets_value_is_not_searchable(tmp_path: Path):
    """What is searched (span and file full text) holds the marker, not the value: an agent that holds part
    of a secret cannot learn that the index holds the rest by searching for it."""
    root = _tree(tmp_path / "w")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        assert _found_by_value(ws, TOKEN) == []
        assert _found_by_value(ws, TOKEN[4:]) == []
        assert "src/client.py" in _found_by_value(ws, "GITHUB_TOKEN")  # its name still finds it


def test_rules_that_find_more_clean_what_is_searched_at_the_next_sync(tmp_path: Path, monkeypatch):
    """An index built under rules that missed a secret (here: rules that find none) had its value searchable;
    once the rules know it, the next sync indexes that file again and the value is no longer found."""
    from spyglass.engine import indexer

    root = _tree(tmp_path / "w")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        with monkeypatch.context() as m:
            m.setattr(indexer, "FileSecrets", lambda text: FileSecrets(""))
            ws.index()
        assert _found_by_value(ws, TOKEN[4:]) == ["src/client.py"]
        ws.store.con.execute('UPDATE files SET secrets=\'{"v": "older rules"}\'')
        report = ws.index()
        assert report.changed == 0 and report.parsed == 1 and report.files_with_secrets == 1
        assert _found_by_value(ws, TOKEN[4:]) == []


def test_what_is_embedded_holds_no_secret(tmp_path: Path, monkeypatch):
    """The text given to the model (a local one, or a remote endpoint) has the file's secrets replaced by their
    markers, as what is searched has; names and docs are stored without them too."""
    from spyglass.engine.embedding import Embedder

    seen: list[str] = []
    real_encode = Embedder.encode

    def recording(self, texts, *args, **kwargs):
        seen.extend(texts)
        return real_encode(self, texts, *args, **kwargs)

    monkeypatch.setattr(Embedder, "encode", recording)
    root = _tree(tmp_path / "w")
    (root / "notes.md").write_text(f"# Deploy\n\n## token {TOKEN}\n\nRotate it monthly.\n")
    with Workspace.open(root, writer=True) as ws:
        ws.index()
        assert seen and not [t for t in seen if TOKEN in t or TOKEN[4:20] in t]
        assert any("[REDACTED:github-token]" in t for t in seen)
        names = [r[0] for r in ws.store.con.execute("SELECT name || qualname || doc FROM spans")]
        assert not [n for n in names if TOKEN in n]
        assert ws.symbols(TOKEN[4:24], semantic=False) == []  # find_symbol cannot be asked for it either
        # markers are not searchable words: full text (the fast tier reads nothing else) finds nothing
        assert ws.search("REDACTED github", tier="fast").results == []
        assert ws.search(TOKEN[4:], tier="fast").results == []
