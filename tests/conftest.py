import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def polyglot(tmp_path: Path) -> Path:
    """A fresh, writable copy of the multi-language fixture repository."""
    root = tmp_path / "polyglot"
    shutil.copytree(FIXTURES / "polyglot", root)
    return root
