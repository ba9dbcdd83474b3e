import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"


class OutsideRepository(PermissionError):
    """A test read something beside the repository (e.g. ../shared): a fresh clone has nothing there."""


def _beside_repository(path: object) -> str | None:
    """The path if it is the repository's parent folder or lies in it, outside the repository itself."""
    if isinstance(path, int) or path is None:
        return None
    try:
        full = os.path.abspath(os.fsdecode(path))
    except (TypeError, ValueError):
        return None
    parent, repo = str(REPO.parent), str(REPO)
    if not (full == parent or full.startswith(parent + os.sep)) or full == repo or full.startswith(repo + os.sep):
        return None
    tmp = tempfile.gettempdir()
    if parent == tmp and full.startswith(tmp + os.sep):  # a clone directly in /tmp: tmp_path lives beside it
        return None
    return full


def _refuse_reads_beside_the_repository(event: str, args: tuple) -> None:
    """Tests use data the repository contains: opening or listing ../anything fails the test that did it."""
    if event in ("open", "os.listdir", "os.scandir") and args:
        outside = _beside_repository(args[0])
        if outside is not None:
            raise OutsideRepository(f"tests may not read outside the repository ({REPO}): {outside}")


sys.addaudithook(_refuse_reads_beside_the_repository)


@pytest.fixture
def polyglot(tmp_path: Path) -> Path:
    """A fresh, writable copy of the multi-language fixture repository."""
    root = tmp_path / "polyglot"
    shutil.copytree(FIXTURES / "polyglot", root)
    return root


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A fresh, writable copy of the small Python shop fixture (without an index)."""
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "shop", root, ignore=shutil.ignore_patterns(".spyglass"))
    return root


TRANSPORT_FUNCTIONS = ("connect_with_deadline", "read_until_deadline", "close_after_deadline", "pool_wait")


@pytest.fixture
def transport_functions() -> tuple[str, ...]:
    """The functions of ``scoped_workspace``'s ``pkg/transports/`` folder."""
    return TRANSPORT_FUNCTIONS


@pytest.fixture
def scoped_workspace(tmp_path: Path) -> Path:
    """A Python project where one folder (``pkg/transports/``) holds several functions about timeouts that
    rank far below 600 out-of-scope functions saying "timeout" in their names and over and over in their
    bodies: a scoped search must find the folder's functions however well the rest of the code matches."""
    root = tmp_path / "scoped"
    for f in range(40):
        lines = [f'"""Timeout settings, part {f}."""\n']
        for i in range(15):
            lines.append(
                f"def timeout_{f}_{i}(timeout=None):\n"
                f'    """Timeout {i}: the timeout, the read timeout and the connect timeout."""\n'
                f"    return timeout or DEFAULT_TIMEOUT_{i}  # timeout timeout\n\n"
            )
        (root / "pkg" / "config").mkdir(parents=True, exist_ok=True)
        (root / "pkg" / "config" / f"part{f}.py").write_text("\n".join(lines), encoding="utf-8")
    transports = root / "pkg" / "transports"
    transports.mkdir(parents=True)
    for file, names in (("sockets.py", TRANSPORT_FUNCTIONS[:2]), ("pool.py", TRANSPORT_FUNCTIONS[2:])):
        (transports / file).write_text("\n".join(_transport_function(name) for name in names), encoding="utf-8")
    return root


def _transport_function(name: str) -> str:
    return (
        f"def {name}(sock, limits):\n"
        f'    """Wait on the socket for {name.replace("_", " ")}, raising on timeout."""\n'
        "    started = clock()\n"
        "    while not sock.ready():\n"
        "        if clock() - started > limits.seconds:\n"
        "            raise Expired(limits)\n"
        "    return sock\n"
    )


@pytest.fixture
def unprivileged() -> list[str]:
    """A prefix for a command line that runs it subject to file permissions, even as root."""
    return [sys.executable, str(Path(__file__).parent / "unprivileged.py")]


@pytest.fixture
def read_only():
    """``read_only(path)`` takes write permission off ``path`` and everything under it (restored afterwards,
    so the temporary folder can be removed)."""
    changed: list[tuple[Path, int]] = []

    def take(path: Path) -> Path:
        for p in [path, *path.rglob("*")]:
            mode = p.stat().st_mode
            changed.append((p, mode))
            p.chmod(mode & ~0o222)
        return path

    yield take
    for p, mode in reversed(changed):
        p.chmod(mode)
