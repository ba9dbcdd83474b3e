"""engine/integrity.check_index: a sound index passes; each kind of damage a crash could leave is named."""

import apsw

from spyglass.engine.integrity import check_index
from spyglass.engine.workspace import Workspace
from spyglass.evaluation.crash import compare


def _indexed(root) -> tuple:
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        return ws.db_path, check_index(ws.db_path)


def test_a_fresh_index_is_sound_and_its_contents_are_read(shop):
    db, check = _indexed(shop)
    assert check.sound, check.problems
    assert check.files and sum(check.spans.values()) > 0
    assert check.duplicated == 0
    assert check.unembedded == sum(check.spans.values())  # lexical only: nothing embedded
    assert compare(check, check_index(db)) == dict.fromkeys(compare(check, check), 0)


def test_rows_missing_or_doubled_across_tables_are_problems(shop):
    db, clean = _indexed(shop)
    con = apsw.Connection(str(db))
    span, file_id = con.execute("SELECT id, file_id FROM spans LIMIT 1").fetchone()
    con.execute("DELETE FROM spans WHERE id=?", (span,))  # its full-text row stays behind
    con.execute(
        "INSERT INTO spans(file_id, span_id, kind, name, qualname, signature, doc, parent, language, start_line, "
        "end_line, start_byte, end_byte, text, text_hash, embed_hash) SELECT file_id, span_id, kind, name, qualname, "
        "signature, doc, parent, language, start_line, end_line, start_byte, end_byte, text, text_hash, embed_hash "
        "FROM spans WHERE file_id=? LIMIT 1",
        (file_id,),
    )
    con.execute("UPDATE spans SET embedded=1 WHERE id=(SELECT MIN(id) FROM spans)")  # but no vector table
    con.close()
    check = check_index(db)
    text = "; ".join(check.problems)
    assert "stored twice" in text
    assert "spans_fts row(s) without span" in text
    assert "marked embedded but there is no vector table" in text
    diff = compare(check, clean)
    assert diff["lost_spans"] == 1 and diff["extra_spans"] == 1 and diff["duplicated_spans"] == 1


def test_damaged_pages_are_reported_not_raised(shop):
    db, _ = _indexed(shop)
    data = bytearray(db.read_bytes())
    page = 4096
    for p in range(2, len(data) // page):  # scribble over every page but the header's
        data[p * page + 8 : p * page + 200] = bytes(range(192))
    db.write_bytes(bytes(data))
    check = check_index(db)
    assert not check.sound


def test_an_index_killed_while_first_created_is_unfinished_not_damaged(tmp_path):
    db = tmp_path / "index.db"
    con = apsw.Connection(str(db))
    con.execute("PRAGMA journal_mode=WAL")  # the first run's first write; killed before any table
    assert check_index(db, unfinished_ok=True).sound
    con.execute("CREATE TABLE schema_migrations(version INTEGER PRIMARY KEY, applied_at REAL)")
    assert check_index(db, unfinished_ok=True).sound  # killed before the first migration
    assert "schema version 0" in "; ".join(check_index(db).problems)  # a finished run must have migrated it
    con.execute("DROP TABLE schema_migrations")
    con.execute("CREATE TABLE other(x)")  # another program's file: the store would refuse it
    assert not check_index(db, unfinished_ok=True).sound
    con.close()
