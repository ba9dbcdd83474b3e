"""`spyglass history` and the history lines of `spyglass index` and `spyglass status`, run as a user runs them."""

from __future__ import annotations

import json

from tests.cli.clirun import run
from tests.history_repo import Repo


def _repo(tmp_path) -> Repo:
    repo = Repo(tmp_path / "w")
    repo.commit("Add the parser", {"src/parse.py": "def parse(text):\n    return text.split()\n"})
    repo.commit(
        "Fix parsing of empty input\n\nAn empty string gave [''].",
        {"src/parse.py": "def parse(text):\n    return text.split() if text else []\n"},
    )
    repo.commit("Add the docs", {"docs/index.md": "# Parser\n"})
    return repo


def test_history_from_the_command_line(tmp_path):
    repo = _repo(tmp_path)
    indexed = run("index", "--no-embed", "-q", cwd=repo.root)
    assert "history: 3 commits (3 new" in indexed.stdout
    found = run("history", "empty input", cwd=repo.root)
    assert found.stdout.splitlines()[0].startswith("1. Fix parsing of empty input")
    assert "src/parse.py +1 -1  parse" in found.stdout
    data = json.loads(run("history", "--path", "docs", "--json", cwd=repo.root).stdout)
    assert [c["subject"] for c in data["commits"]] == ["Add the docs"]
    assert data["history"]["head"] == repo.head()
    inside = run("history", "--path", "parse.py", "--json", cwd=repo.root / "src")  # relative to where it runs
    assert [c["subject"] for c in json.loads(inside.stdout)["commits"]][0] == "Fix parsing of empty input"
    status = run("status", cwd=repo.root).stdout
    assert "history: 3 commits up to " + repo.head()[:12] in status and "hot spots: src/parse.py (2)" in status
    refused = run("history", "x", "--path", "/etc", cwd=repo.root, check_code=None)
    assert refused.returncode != 0 and "outside the workspace" in refused.stderr
