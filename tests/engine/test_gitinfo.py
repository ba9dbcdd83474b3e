import subprocess
from pathlib import Path

from spyglass.engine.gitinfo import head


def git(cwd: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env).stdout.strip()


def test_head_of_a_branch_a_detached_checkout_packed_refs_and_no_repo(tmp_path):
    assert head(tmp_path) == (None, None)
    git(tmp_path, "init", "-q", "-b", "main")
    assert head(tmp_path) == (None, "main")  # no commit yet
    (tmp_path / "a.txt").write_text("a\n", encoding="utf-8")
    git(tmp_path, "add", "a.txt")
    git(tmp_path, "commit", "-q", "-m", "one")
    sha = git(tmp_path, "rev-parse", "HEAD")
    assert head(tmp_path) == (sha, "main")
    git(tmp_path, "pack-refs", "--all")
    assert head(tmp_path) == (sha, "main")
    git(tmp_path, "checkout", "-q", "--detach")
    assert head(tmp_path) == (sha, None)


def test_head_of_a_worktree(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "one")
    git(repo, "worktree", "add", "-q", "-b", "feature", str(tmp_path / "wt"))
    assert head(tmp_path / "wt") == (git(repo, "rev-parse", "HEAD"), "feature")


def test_head_of_a_folder_inside_a_checkout(tmp_path):
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "a.txt").write_text("a\n", encoding="utf-8")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "one")
    assert head(tmp_path / "pkg" / "sub") == (git(tmp_path, "rev-parse", "HEAD"), "main")  # as git finds it
