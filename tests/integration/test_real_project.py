"""Index a real open-source project fetched from PyPI during the test, search it, edit it, re-index."""

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from spyglass.engine.workspace import Workspace

SDIST = "requests==2.32.3"


@pytest.fixture(scope="module")
def requests_src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("sdist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(dest),
            SDIST,
        ],
        check=True,
        timeout=300,
    )
    (archive,) = dest.glob("requests-*.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    (root,) = [p for p in dest.iterdir() if p.is_dir()]
    return root


def test_index_search_edit_reindex_a_real_project(requests_src: Path):
    with Workspace.open(requests_src, writer=True) as ws:
        first = ws.index()
        assert first.model_error is None and first.seen > 30
        fresh = ws.freshness()
        assert fresh.spans > 500 and fresh.embedded_fraction == 1.0

        def top_paths(query: str, k: int = 5) -> list[str]:
            return [r.path for r in ws.search(query, k=k).results]

        assert "src/requests/sessions.py" in top_paths("resolve redirects and rebuild the authorization header")
        assert "src/requests/cookies.py" in top_paths("RequestsCookieJar")
        assert "src/requests/utils.py" in top_paths("get proxies from environment variables no_proxy")

        sessions = requests_src / "src" / "requests" / "sessions.py"
        text = sessions.read_text(encoding="utf-8")
        sessions.write_text(
            text.replace(
                "def merge_hooks(",
                "def mirror_flaky_uploads(session, attempts):\n"
                '    """Retry flaky uploads against the mirror a few times."""\n'
                "    return [session] * attempts\n\n\ndef merge_hooks(",
            ),
            encoding="utf-8",
        )
        second = ws.index()
        assert second.changed_paths == ["src/requests/sessions.py"]
        assert second.parsed == 1
        # the new function and the module skeleton that lists it; everything else below it only moved
        assert 1 <= second.texts_embedded <= 3, second.texts_embedded
        assert "src/requests/sessions.py" in top_paths("retry flaky uploads against the mirror", k=3)
