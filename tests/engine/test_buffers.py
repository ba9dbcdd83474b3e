"""Buffer: LSP edits keep the syntax tree in step, so an incremental re-parse equals a fresh one."""

import pytest

from spyglass.engine.buffers import Buffer, TextChange
from spyglass.engine.parsing import parse_spans

SOURCE = 'def greet(name):\n    """Say hello 👋 to ``name``."""\n    return f"hi {name}"\n\n\nclass Box:\n    pass\n'


def parse(text: str, tree=None):
    return parse_spans("m.py", text.encode("utf-8"), old_tree=tree)


def spans(result) -> list[tuple]:
    return [(s.kind, s.qualname, s.start_line, s.end_line, s.text) for s in result.spans]


def apply(text: str, c: TextChange) -> str:
    """What an editor does with a change (reference implementation, UTF-16 columns)."""
    lines = text.split("\n")

    def index(line: int, ch: int) -> int:
        start = sum(len(ln) + 1 for ln in lines[:line])
        units, i = 0, 0
        while i < len(lines[line]) and units < ch:
            units += 2 if ord(lines[line][i]) > 0xFFFF else 1
            i += 1
        return start + i

    return text[: index(c.start_line, c.start_character)] + c.text + text[index(c.end_line, c.end_character) :]


EDITS = [
    [TextChange(6, 4, 6, 8, "size = 3")],  # replace within a line
    [TextChange(7, 0, 7, 0, "\ndef added():\n    return 1\n")],  # append lines at the end
    [TextChange(1, 20, 1, 20, "🙂")],  # after an astral character (2 UTF-16 units)
    [TextChange(0, 4, 0, 9, "welcome"), TextChange(5, 6, 5, 9, "Crate")],  # two edits, one after the other
    [TextChange(3, 0, 5, 0, "")],  # delete lines
]


@pytest.mark.parametrize("changes", EDITS)
def test_incremental_parse_equals_a_fresh_parse(changes):
    buf = Buffer(SOURCE)
    text, tree, gen = buf.snapshot()
    first = parse(text, tree)
    buf.parsed(first.tree, gen)
    expected = SOURCE
    for c in changes:
        expected = apply(expected, c)
    buf.edit(changes, expected)
    text, tree, gen = buf.snapshot()
    assert text == expected and tree is not None
    again = parse(text, tree)
    assert spans(again) == spans(parse(expected))
    assert str(again.tree.root_node) == str(parse(expected).tree.root_node)


def test_edits_during_a_parse_are_replayed_on_the_new_tree():
    buf = Buffer(SOURCE)
    text, tree, gen = buf.snapshot()
    c1 = TextChange(6, 4, 6, 8, "x = 1")
    after1 = apply(SOURCE, c1)
    buf.edit([c1], after1)  # arrives while the writer parses the first snapshot
    buf.parsed(parse(text, tree).tree, gen)
    text, tree, gen = buf.snapshot()
    assert text == after1 and tree is not None
    assert str(parse(text, tree).tree.root_node) == str(parse(after1).tree.root_node)


def test_a_mismatch_or_a_whole_text_replacement_starts_afresh():
    buf = Buffer(SOURCE)
    text, tree, gen = buf.snapshot()
    buf.parsed(parse(text, tree).tree, gen)
    buf.edit([TextChange(0, 0, 0, 0, "# x\n")], "something else entirely\n")  # the editor disagrees
    assert buf.snapshot()[:2] == ("something else entirely\n", None)

    buf = Buffer(SOURCE)
    text, tree, gen = buf.snapshot()
    buf.replace("x = 1\n")  # while the first parse runs
    buf.parsed(parse(text, tree).tree, gen)  # stale: ignored
    assert buf.snapshot()[:2] == ("x = 1\n", None)
