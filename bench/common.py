"""What the process benchmarks share: finding Spyglass's processes and writing a report."""

from __future__ import annotations

import json
from pathlib import Path


def spyglass_pids(root: Path, word: str) -> list[int]:
    """Pids of spyglass processes whose command line has ``word`` and names ``root`` (or that run in it)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
            cwd = (proc / "cwd").resolve()
        except OSError:
            continue
        if b"spyglass" in cmd and word.encode() in cmd and (str(root).encode() in cmd or cwd == root):
            pids.append(int(proc.name))
    return sorted(pids)


def emit(report: dict, out: Path | None) -> None:
    """Print the report as JSON, and write it to ``out`` too if given."""
    text = json.dumps(report, indent=2)
    print(text)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
