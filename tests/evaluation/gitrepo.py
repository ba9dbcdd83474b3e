"""Small git helpers for tests that build repositories."""

import os
import subprocess
from pathlib import Path


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return env


def git(repo: Path, *args: str, input: bytes | None = None) -> str:
    cmd = ["git", "-C", str(repo), "-c", "user.name=x", "-c", "user.email=x", "-c", "commit.gpgsign=false", *args]
    proc = subprocess.run(cmd, input=input, capture_output=True, check=True, env=_env())
    return proc.stdout.decode().strip()


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def commit(work: Path, message: str, files: dict[str, str]) -> str:
    """Write ``files`` (path -> text) into the work tree at ``work``, commit everything; the new commit's id."""
    for rel, text in files.items():
        write(work, rel, text)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", message)
    return git(work, "rev-parse", "HEAD")
