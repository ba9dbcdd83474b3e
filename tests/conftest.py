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
