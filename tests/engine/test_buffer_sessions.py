"""Unsaved editor text belongs to the session that sent it: once that session has ended, however it ended,
whoever opens the index next finds the disk's version again (real files, real SQLite, no model)."""

from pathlib import Path

from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}
ADDED = "\n\ndef only_in_the_buffer():\n    return 42\n"


def _names(ws: Workspace, *names: str) -> set[str]:
    return {s.name for s in ws.store.spans_named_exactly(list(names))}


def _die(ws: Workspace) -> None:
    """What kill -9 leaves behind: the kernel drops the lock; nothing is restored, nothing is closed cleanly."""
    ws.lock.release()
    ws.store.close()


def _edit_unsaved(root: Path, text: str) -> Workspace:
    ws = Workspace.open(root, writer=True, overrides=LEXICAL)
    ws.index()
    ws.update_file("inventory.py", text=text)
    assert _names(ws, "only_in_the_buffer", "only_in_the_buf") != set()
    return ws


def test_a_reader_restores_the_disk_version_of_a_dead_sessions_buffer(polyglot: Path):
    disk = (polyglot / "inventory.py").read_text(encoding="utf-8")
    _die(_edit_unsaved(polyglot, disk + ADDED))
    with Workspace.open(polyglot, overrides=LEXICAL) as reader:  # what `spyglass search` opens
        assert _names(reader, "only_in_the_buffer") == set()
        assert "only_in_the_buffer" not in [r.symbol for r in reader.search("only_in_the_buffer").results]
        assert reader.store.open_buffers() == {}
    with Workspace.open(polyglot, overrides=LEXICAL) as again:
        assert _names(again, "only_in_the_buffer") == set()


def test_a_live_session_keeps_its_buffer_until_it_closes(polyglot: Path):
    disk = (polyglot / "inventory.py").read_text(encoding="utf-8")
    writer = _edit_unsaved(polyglot, disk + ADDED)
    with Workspace.open(polyglot, overrides=LEXICAL) as reader:  # the editor is still open: its text is searchable
        assert _names(reader, "only_in_the_buffer") == {"only_in_the_buffer"}
    writer.close()  # a clean end (shutdown, exit, end of input, a stop signal)
    with Workspace.open(polyglot, overrides=LEXICAL) as reader:
        assert _names(reader, "only_in_the_buffer") == set()
        assert reader.store.open_buffers() == {}


def test_a_new_writer_restores_a_buffer_of_the_same_size_as_the_disk(polyglot: Path):
    # same byte count as the disk's text: (size, mtime) alone cannot tell that the index holds other text
    disk = (polyglot / "inventory.py").read_text(encoding="utf-8") + "\n\ndef renamed_on_disk():\n    return 42\n"
    (polyglot / "inventory.py").write_text(disk, encoding="utf-8")
    buffer = disk.replace("renamed_on_disk", "only_in_the_buf")
    assert len(buffer) == len(disk)
    _die(_edit_unsaved(polyglot, buffer))
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:  # `spyglass index`, or a new server
        ws.index()
        assert _names(ws, "only_in_the_buf", "renamed_on_disk") == {"renamed_on_disk"}


def test_a_buffer_of_a_file_never_saved_goes_away_with_its_session(polyglot: Path):
    ws = Workspace.open(polyglot, writer=True, overrides=LEXICAL)
    ws.index()
    ws.update_file("scratch.py", text="def only_in_the_buffer():\n    return 1\n")
    assert _names(ws, "only_in_the_buffer")
    _die(ws)
    with Workspace.open(polyglot, overrides=LEXICAL) as reader:
        assert _names(reader, "only_in_the_buffer") == set()
        assert reader.store.file_state("scratch.py") is None


def test_a_new_session_editing_the_same_file_keeps_its_own_buffer(polyglot: Path):
    disk = (polyglot / "inventory.py").read_text(encoding="utf-8")
    _die(_edit_unsaved(polyglot, disk + ADDED))
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:  # the editor restarted, same file open
        ws.update_file("inventory.py", text=disk + "\n\ndef typed_after_the_restart():\n    return 1\n")
        ws.index()  # a full sync must not put the disk's text over the new session's buffer
        assert _names(ws, "only_in_the_buffer", "typed_after_the_restart") == {"typed_after_the_restart"}
        assert set(ws.store.open_buffers().values()) == {ws.session}
