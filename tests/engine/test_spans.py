import pytest

from spyglass.engine.spans import Span, make_span_id, parse_span_id, text_hash


def _span(text: str, start: int = 3, end: int = 5) -> Span:
    return Span("function", "f", "f", "def f()", "", None, "python", start, end, 0, len(text), text)


def test_span_id_has_path_range_and_hash():
    s = _span("def f():\n    return 1\n")
    sid = s.span_id("pkg/mod.py")
    assert sid == f"pkg/mod.py:3-5#{text_hash(s.text)[:10]}"
    ref = parse_span_id(sid)
    assert (ref.path, ref.start_line, ref.end_line) == ("pkg/mod.py", 3, 5)
    assert s.text_hash.startswith(ref.hash_prefix)


def test_same_text_same_hash_different_text_different_hash():
    assert _span("a").text_hash == _span("a", 10, 12).text_hash
    assert _span("a").text_hash != _span("b").text_hash


@pytest.mark.parametrize(
    "path", ["dir with space/a:b.py", "hash#name.py", "new\nline.py", "tab\there.py", "-dash.py", "emoji_😀.py"]
)
def test_paths_with_any_character_a_name_can_hold_round_trip(path):
    sid = make_span_id(path, 1, 1, "0123456789abcdef")
    assert parse_span_id(sid).path == path


@pytest.mark.parametrize(
    "bad",
    ["", "foo.py", "foo.py:1-2", "foo.py:1-2#xyz", "foo.py:5-2#0123456789", "foo.py:0-2#0123456789"],
)
def test_bad_ids_are_refused_with_a_readable_message(bad):
    with pytest.raises(ValueError, match="span ID"):
        parse_span_id(bad)
