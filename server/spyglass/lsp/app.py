"""Assemble the language server from its features and run it (``spyglass lsp``)."""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pygls.exceptions import JsonRpcException

from ..engine import StopOnSignals
from ..metrics import Metrics
from .features import documents, hover, lifecycle, requests, symbols
from .server import SpyglassServer

log = logging.getLogger(__name__)

FEATURES = (lifecycle, documents, symbols, hover, requests)
MEASURED = (symbols, hover, requests)  # the features that answer requests (the others take notifications)


class _Measured:
    """The server as a feature module sees it while it registers: each request handler reports to the
    metrics (everything else is the server's own)."""

    def __init__(self, server: SpyglassServer, metrics: Metrics):
        self._server, self._metrics = server, metrics

    def __getattr__(self, name: str) -> Any:
        return getattr(self._server, name)

    def feature(self, method: str, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        register = self._server.feature(method, *args, **kwargs)
        return lambda fn: register(measured(self._metrics, method, fn))


def measured(metrics: Metrics, method: str, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``fn`` (a request handler: every one is a coroutine, as none may block the event loop) reporting each
    request: its time, its error's kind, and for a search how many results it returned and its tier."""

    @functools.wraps(fn)
    async def handle(*args: Any, **kwargs: Any) -> Any:
        started, result, error = time.perf_counter(), None, None
        try:
            result = await fn(*args, **kwargs)
            return result
        except Exception as e:
            error = _kind(e)
            raise
        finally:
            seconds = time.perf_counter() - started
            metrics.answered(method, seconds, error)
            found = result.get("results") if isinstance(result, dict) else result
            if error is None and isinstance(found, list):
                tier = (result.get("tier") if isinstance(result, dict) else None) or "default"
                metrics.searched(method, tier, seconds, len(found))

    return handle


def _kind(error: Exception) -> str:
    """``JsonRpcInvalidParams`` -> invalid_params; anything not a JSON-RPC error -> internal."""
    if not isinstance(error, JsonRpcException):
        return "internal"
    name = type(error).__name__.removeprefix("JsonRpc")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower() or "error"


def build_server(metrics: Metrics | None = None) -> SpyglassServer:
    server = SpyglassServer()
    server.metrics = metrics
    for feature in FEATURES:
        feature.setup(_Measured(server, metrics) if metrics and feature in MEASURED else server)
    return server


def run(tcp: str | None = None, metrics_at: tuple[str, int] | None = None) -> int:
    """Serve on stdio (the default), or on ``HOST:PORT`` for debugging; ``metrics_at``: serve Prometheus
    metrics on this host and port."""
    metrics = None
    if metrics_at is not None:
        metrics = Metrics("lsp")
        try:
            metrics.serve(*metrics_at)
        except OSError as e:
            log.error("cannot serve metrics on %s:%d (%s); serving without them", *metrics_at, e.strerror or e)
            metrics = None
    server = build_server(metrics)
    StopOnSignals(server.close_all, "spyglass lsp").install()
    try:
        if tcp:
            host, _, port = tcp.rpartition(":")
            log.info("listening on %s:%s", host or "127.0.0.1", port)
            server.start_tcp(host or "127.0.0.1", int(port))
        else:
            server.start_io()
    finally:
        server.close_all()
    return 0
