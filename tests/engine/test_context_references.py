"""get_context's "refers to" on a small real Python package shaped like httpx's client: names resolve to the
definitions the code means, not to everything that shares a bare name."""

from pathlib import Path

import pytest

from spyglass.engine.workspace import Workspace

CLIENT = """\
from ._exceptions import TooManyRedirects
from ._models import Request, Response


class BaseClient:
    def __init__(self, max_redirects: int = 20):
        self.max_redirects = max_redirects
        self._event_hooks = {"request": [], "response": []}

    def _build_redirect_request(self, request: Request, response: Response) -> Request:
        return Request(response.headers["location"])


class BoundSyncStream:
    def close(self) -> None:
        self.closed = True


class Client(BaseClient):
    def __init__(self, http2: bool = False):
        super().__init__()
        if http2:
            import h2  # noqa

    def request(self, method: str, url: str) -> Response:
        return self.send(Request(url))

    def close(self) -> None:
        self.closed = True

    def _send_handling_redirects(self, request: Request, follow_redirects: bool, history: list) -> Response:
        while True:
            if len(history) > self.max_redirects:
                raise TooManyRedirects("Exceeded maximum allowed redirects.", request=request)
            response = self._send_single_request(request)
            try:
                response.history = list(history)
                if not response.has_redirect_location:
                    return response
                request = self._build_redirect_request(request, response)
                history = history + [response]
                if follow_redirects:
                    response.read()
                else:
                    response.next_request = request
                    return response
            except BaseException as exc:
                response.close()
                raise exc

    def _send_single_request(self, request: Request) -> Response:
        return Response(200, request=request)


class AsyncClient(BaseClient):
    def __init__(self, http2: bool = False):
        super().__init__()
        if http2:
            import h2  # noqa

    async def _send_single_request(self, request: Request) -> Response:
        return Response(200, request=request)
"""

MODELS = """\
class Request:
    def __init__(self, url):
        self.url = url

    def read(self) -> bytes:
        return b""


class Response:
    def __init__(self, status_code, request=None):
        self.status_code = status_code
        self.request = request

    @property
    def has_redirect_location(self) -> bool:
        return self.status_code in (301, 302, 303, 307, 308)

    def read(self) -> bytes:
        return b""

    def close(self) -> None:
        pass
"""

EXCEPTIONS = '''\
class TooManyRedirects(Exception):
    """Too many redirects."""
'''

TESTS = """\
def redirects(request):
    return request


def read(stream):
    return b"".join(stream)


def history(n):
    return list(range(n))


def test_redirects():
    assert redirects(1) == 1
"""


@pytest.fixture
def ws(tmp_path: Path):
    files = {
        "web/__init__.py": "",
        "web/_client.py": CLIENT,
        "web/_models.py": MODELS,
        "web/_exceptions.py": EXCEPTIONS,
        "tests/test_redirects.py": TESTS,
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    with Workspace.open(tmp_path, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        yield ws


def _line(needle: str) -> int:
    return next(i for i, ln in enumerate(CLIENT.splitlines(), 1) if needle in ln)


def test_references_resolve_the_names_the_code_means(ws: Workspace):
    ctx = ws.context("web/_client.py", _line("response = self._send_single_request(request)"))
    assert ctx.span.symbol == "Client._send_handling_redirects"
    refs = {r.symbol: r.path for r in ctx.references}
    # self.x: the method of this class (not AsyncClient's), else the one this file defines (the base class's)
    assert refs["Client._send_single_request"] == "web/_client.py"
    assert "AsyncClient._send_single_request" not in refs
    assert refs["BaseClient._build_redirect_request"] == "web/_client.py"
    # names the file imports, and an attribute only one definition has
    assert refs["TooManyRedirects"] == "web/_exceptions.py"
    assert refs["Request"] == refs["Response"] == "web/_models.py"
    assert refs["Response.has_redirect_location"] == "web/_models.py"
    # response.read() and response.close(): attributes of another object that several definitions share
    assert not any(s.endswith((".read", ".close")) or s in ("read", "close") for s in refs)
    # `request` is a parameter here, not a call of Client.request; a test helper never explains library code
    assert "Client.request" not in refs
    assert not any(path.startswith("tests/") for path in refs.values())


def test_an_import_written_twice_is_listed_once(ws: Workspace):
    ctx = ws.context("web/_client.py", _line("response = self._send_single_request(request)"))
    assert ctx.imports.count("import h2") == 1


def test_test_code_may_refer_to_test_helpers(ws: Workspace):
    ctx = ws.context("tests/test_redirects.py", 14)
    assert ctx.span.symbol == "test_redirects"
    assert [r.symbol for r in ctx.references] == ["redirects"]
