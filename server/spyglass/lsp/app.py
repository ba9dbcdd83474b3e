"""Assemble the language server from its features and run it (``spyglass lsp``)."""

from __future__ import annotations

import logging

from ..engine import StopOnSignals
from .features import documents, hover, lifecycle, requests, symbols
from .server import SpyglassServer

log = logging.getLogger(__name__)

FEATURES = (lifecycle, documents, symbols, hover, requests)


def build_server() -> SpyglassServer:
    server = SpyglassServer()
    for feature in FEATURES:
        feature.setup(server)
    return server


def run(tcp: str | None = None) -> int:
    """Serve on stdio (the default), or on ``HOST:PORT`` for debugging."""
    server = build_server()
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
