"""`spyglass hooks install|uninstall` on a real repository: a commit re-indexes in the background, and a hook
the user already had is never touched."""

from __future__ import annotations

import json
import time

from tests.cli.clirun import run
from tests.history_repo import Repo


def test_installed_hooks_bring_new_commits_into_the_index_and_spare_the_users_own(tmp_path):
    repo = Repo(tmp_path / "w")
    repo.commit("Start", {"app.py": "def start():\n    return 1\n"})
    run("index", "--no-embed", "-q", cwd=repo.root)
    hooks = repo.root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    theirs = hooks / "post-merge"
    theirs.write_text("#!/bin/sh\necho their hook\n")
    installed = run("hooks", "install", cwd=repo.root)
    assert "post-merge exists and is not ours" in installed.stderr
    assert theirs.read_text() == "#!/bin/sh\necho their hook\n"
    assert "spyglass" in (hooks / "post-commit").read_text() and (hooks / "post-checkout").stat().st_mode & 0o111

    sha = repo.commit("Stop the app cleanly", {"app.py": "def start():\n    return 1\n\n\ndef stop():\n    return 0\n"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = json.loads(run("status", "--json", cwd=repo.root).stdout)
        if status["history"]["head"] == sha:
            break
        time.sleep(0.5)
    assert status["history"]["head"] == sha and status["history"]["commits"] == 2
    found = json.loads(run("search", "stop", "--json", cwd=repo.root).stdout)
    assert found["results"][0]["symbol"] == "stop"  # the file's change came in with it

    run("hooks", "install", cwd=repo.root)  # again: ours are rewritten, theirs still spared
    removed = run("hooks", "uninstall", cwd=repo.root)
    assert not (hooks / "post-commit").exists() and theirs.exists()
    assert "post-merge is not ours" in removed.stderr


def test_hooks_outside_git_is_a_clear_error(tmp_path):
    proc = run("hooks", "install", cwd=tmp_path, check_code=None)
    assert proc.returncode == 2 and "not in a git repository" in proc.stderr
