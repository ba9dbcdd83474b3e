"""``spyglass hooks install|uninstall``: git hooks that keep the index (and its history) fresh for people who
use the CLI without a server running (an editor's or agent's server watches the repository by itself).

post-commit, post-merge and post-checkout run ``spyglass index`` for the workspace in the background, so git
never waits for it. A hook the user already has is never overwritten: we say which line to add to it.
Our hooks carry a marker line, so install updates them and uninstall removes only them.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

from . import render
from .errors import UsageError

HOOKS = ("post-commit", "post-merge", "post-checkout")
MARKER = "# spyglass: keeps the code index fresh (written by `spyglass hooks install`)"


def add_parser(sub) -> None:
    p = sub.add_parser("hooks", help="git hooks that re-index after commits, merges and checkouts")
    p.add_argument("action", choices=("install", "uninstall"))
    p.add_argument("root", nargs="?", default=None, help="the workspace folder (default: the current one)")


def command_line(root: Path) -> str:
    """What a hook runs: this Spyglass, on ``root``, detached, its output in the index folder's log."""
    spyglass = f"{shlex.quote(sys.executable)} -m spyglass"
    log = shlex.quote(str(root / ".spyglass" / "hooks.log"))
    return f"(nohup {spyglass} index -q {shlex.quote(str(root))} >>{log} 2>&1 &)"


def run(args: argparse.Namespace) -> int:
    root = Path(args.root or ".").resolve()
    hooks_dir = _hooks_dir(root)
    line = command_line(root)
    if args.action == "install":
        hooks_dir.mkdir(parents=True, exist_ok=True)
        for name in HOOKS:
            _install(hooks_dir / name, line)
    else:
        for name in HOOKS:
            _uninstall(hooks_dir / name)
    return 0


def _hooks_dir(root: Path) -> Path:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--git-path", "hooks"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        raise UsageError(f"{root} is not in a git repository (or git is not installed): {e}") from None
    path = Path(out)
    return path if path.is_absolute() else root / path


def _ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _install(path: Path, line: str) -> None:
    if path.exists() and not _ours(path):
        render.note(f"{path} exists and is not ours: left as it is. To re-index from it too, add this line:\n  {line}")
        return
    path.write_text(f"#!/bin/sh\n{MARKER}\n{line}\nexit 0\n", encoding="utf-8")
    os.chmod(path, 0o755)
    render.out.print(f"installed {render.escape(str(path))}")


def _uninstall(path: Path) -> None:
    if not path.exists():
        return
    if not _ours(path):
        render.note(f"{path} is not ours: left as it is")
        return
    path.unlink()
    render.out.print(f"removed {render.escape(str(path))}")
