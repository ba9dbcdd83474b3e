"""Snippets: a span's text placed in its file's lines, the matching line, and a window that starts at a whole
line, never inside the signature, and always holds the match. Real spans from the parser."""

from spyglass.engine.parsing import parse_spans, split_lines
from spyglass.engine.snippets import ELLIPSIS, Snippet, place_lines, shorten, signature_end, snippet_of

SOURCE = '''\
class Cart:
    """A shopping cart."""

    def __init__(self):
        self.items = []
        self.owner = None

    def add(self, item):
        self.items.append(item)

    discount_code = "SPRING"
'''


def _span(source: str, name: str):
    return next(s for s in parse_spans("m.py", source.encode()).spans if s.name == name)


def test_an_elided_class_is_placed_at_its_own_lines_in_the_file():
    cart = _span(SOURCE, "Cart")
    assert "..." in cart.text  # the methods' bodies are elided
    placed, in_file = place_lines(cart.text, cart.start_line, cart.end_line, split_lines(SOURCE))
    assert in_file
    lines = split_lines(SOURCE)
    assert all(lines[n - 1] == text for n, text in placed)
    assert (11, '    discount_code = "SPRING"') in placed


def test_without_the_file_numbers_stop_at_the_first_elided_child():
    cart = _span(SOURCE, "Cart")
    placed, in_file = place_lines(cart.text, cart.start_line, cart.end_line, None)
    assert not in_file and [n for n, _ in placed] == [1, 2, 3, 4]


def test_a_changed_file_falls_back_to_the_indexed_numbers():
    cart = _span(SOURCE, "Cart")
    _placed, in_file = place_lines(cart.text, cart.start_line, cart.end_line, ["x = 1"] * 12)
    assert not in_file


def test_the_match_in_an_elided_class_is_numbered_as_in_the_file():
    cart = _span(SOURCE, "Cart")
    snip = snippet_of(
        cart.text, 1, 11, split_lines(SOURCE), terms={"spring"}, name="Cart", signature=cart.signature, max_lines=4
    )
    assert snip.match_line == 11 and snip.match_text == '    discount_code = "SPRING"'
    start, lines = snip.start_line, snip.text.split("\n")
    assert lines == split_lines(SOURCE)[start - 1 : start - 1 + len(lines)] and start <= 11 < start + len(lines)


LONG_SIGNATURE = "def configure(\n" + "".join(f"    option_{i}=None,\n" for i in range(12)) + "):\n"
LONG_SIGNATURE += "".join(f"    step_{i}()\n" for i in range(12)) + "    return option_7\n"


def test_a_match_inside_a_long_signature_shows_the_signature_from_its_first_line():
    f = _span(LONG_SIGNATURE, "configure")
    lines = split_lines(LONG_SIGNATURE)
    assert signature_end([(i + 1, t) for i, t in enumerate(lines)], f.signature) == 14
    snip = snippet_of(
        f.text, f.start_line, f.end_line, lines, terms={"9"}, name="configure", signature=f.signature, max_lines=8
    )
    assert snip.start_line == 1 and snip.match_line == 11 and len(snip.text.split("\n")) == 12


def test_a_match_past_a_long_signature_never_starts_inside_it():
    f = _span(LONG_SIGNATURE, "configure")
    lines = split_lines(LONG_SIGNATURE)
    snip = snippet_of(
        f.text,
        f.start_line,
        f.end_line,
        lines,
        terms={"step", "1"},
        name="configure",
        signature=f.signature,
        max_lines=8,
    )
    assert snip.match_line == 16 and snip.start_line == 15  # the first body line, past the signature's "):"


def test_a_match_by_meaning_alone_points_at_the_definition_line():
    f = _span(SOURCE, "add")
    snip = snippet_of(
        f.text,
        f.start_line,
        f.end_line,
        split_lines(SOURCE),
        terms=set(),
        name="add",
        signature=f.signature,
        max_lines=8,
    )
    assert (snip.match_line, snip.start_line) == (
        8,
        8,
    ) and snip.text == "    def add(self, item):\n        self.items.append(item)"


def test_shorten_keeps_the_matching_line():
    snip = Snippet("\n".join(f"line {i}" for i in range(10, 18)), 10, 16, "line 16")
    cut = shorten(snip, 2)
    assert cut.text == f"line 16\nline 17\n{ELLIPSIS}" and cut.start_line == 16
    assert shorten(snip, 7).start_line == 10
