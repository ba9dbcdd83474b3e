"""Real git repositories for the history tests: a folder, commits with fixed authors and dates."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


class Repo:
    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.day = 0

    def git(self, *args: str, **extra: str) -> str:
        env = {**os.environ, **ENV, **extra}
        return subprocess.run(["git", *args], cwd=self.root, env=env, check=True, capture_output=True, text=True).stdout

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def commit(self, message: str, files: dict[str, str | None] | None = None) -> str:
        """Write (or delete, for None) ``files``, then commit everything with ``message``, one day after the
        previous commit; returns its sha."""
        for rel, text in (files or {}).items():
            if text is None:
                (self.root / rel).unlink()
            else:
                self.write(rel, text)
        self.day += 1
        date = f"2026-01-{self.day:02d}T12:00:00+00:00"
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()
