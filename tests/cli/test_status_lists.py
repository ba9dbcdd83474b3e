"""`spyglass status` (in-process ``main``) names what it counts: skipped, unreadable and syntax-error files,
with their reasons, under ``--verbose`` and ``--json``; and its counts speak English ("1 file has")."""

import json
from pathlib import Path

import pytest

from spyglass.cli.main import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "good.py").write_text("def fine():\n    return 1\n", encoding="utf-8")
    (root / "broken.py").write_text("def broken(:\n    return\n", encoding="utf-8")
    (root / "blob.dat").write_bytes(b"\x00\x01\x02binary\x00" * 50)
    (root / ".gitignore").write_text("build/\n", encoding="utf-8")
    (root / "build").mkdir()
    (root / "build" / "out.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _status(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["status", *args]) == 0
    return capsys.readouterr().out


def test_status_json_lists_skipped_and_syntax_error_files(project: Path, capsys):
    assert main(["index", "--no-embed", "-q"]) == 0
    info = json.loads(_status(capsys, "--json"))
    assert info["syntax_error_files"] == ["broken.py"] and info["files_with_syntax_errors"] == 1
    listed = {(f["path"], f["reason"]) for f in info["skipped_files"]}
    assert {("blob.dat", "binary"), ("build", "ignored"), (".spyglass", "index dir")} <= listed
    assert len(info["skipped_files"]) == info["skipped_total"]


def test_status_verbose_names_them_and_the_grammar_is_right(project: Path, capsys):
    assert main(["index", "--no-embed", "-q"]) == 0
    assert "1 file has syntax errors" in capsys.readouterr().out  # the index summary too
    plain = _status(capsys)
    assert "1 file has syntax errors" in plain and "files have" not in plain
    assert "broken.py" not in plain and "--verbose" in plain
    verbose = _status(capsys, "--verbose")
    assert "broken.py" in verbose
    assert "blob.dat" in verbose and "binary" in verbose and "build" in verbose

    (project / "worse.py").write_text("class (:\n", encoding="utf-8")
    assert main(["index", "--no-embed", "-q"]) == 0
    assert "2 files have syntax errors" in _status(capsys)
