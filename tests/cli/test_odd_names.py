"""Files whose names hold what a shell or a terminal treats specially (a leading dash, ':', '#', a newline,
a tab, emoji, 250 bytes) are indexed, found and read back by their span ID; what the CLI prints of a name
or a text never reaches the terminal as control characters."""

import json
from pathlib import Path

from clirun import run

ODD_NAMES = [
    "-leading.py",
    "colon:name.py",
    "hash#name.py",
    "new\nline.py",
    "tab\there.py",
    "emoji_😀.py",
    "l" * 247 + ".py",
    "space name.py",
]


def test_odd_names_round_trip_through_search_and_span(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    for i, name in enumerate(ODD_NAMES):
        (root / name).write_text(f"def oddly_named_{i}():\n    return 'odd name {i}'\n")
    run("index", "--no-embed", "-q", cwd=root)
    hits = json.loads(run("search", "oddly named", "--json", "-k", "50", "--per-file", "1", cwd=root).stdout)
    found = {h["path"]: h["id"] for h in hits["results"]}
    assert set(found) == set(ODD_NAMES)
    for name, span_id in found.items():
        answer = json.loads(run("span", span_id, "--json", cwd=root).stdout)  # `span -leading.py:...` too
        assert (answer["status"], answer["path"]) == ("current", name)
        assert "oddly_named_" in answer["text"]


def test_control_characters_in_names_and_text_are_shown_not_sent_to_the_terminal(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "evil.py").write_text('def evil_title():\n    return "\x1b]0;PWNED\x07\x1b[31mred"\n')
    (root / "new\nline.py").write_text("def evil_name():\n    return 1\n")
    run("index", "--no-embed", "-q", cwd=root)
    shown = run("search", "evil", "-k", "5", cwd=root).stdout
    assert "\x1b" not in shown and "\x07" not in shown
    assert "\\x1b]0;PWNED" in shown and "new\\x0aline.py" in shown
    span_id = json.loads(run("search", "evil title", "--json", "-k", "1", cwd=root).stdout)["results"][0]["id"]
    printed = run("span", span_id, cwd=root).stdout
    assert "\x1b" not in printed and "\\x1b[31mred" in printed
    exact = json.loads(run("span", span_id, "--json", cwd=root).stdout)["text"]  # machines get the text as is
    assert "\x1b]0;PWNED\x07" in exact
