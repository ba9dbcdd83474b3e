"""Opt-in Prometheus metrics for the servers: ``spyglass mcp --metrics 127.0.0.1:9464`` (and ``spyglass lsp``).

Off unless asked for. The endpoint is served by prometheus_client's own HTTP server on a daemon thread, bound
to the loopback address unless a host is given (``--metrics 9464`` is ``127.0.0.1:9464``). What it counts,
each with the help text the endpoint carries (docs/metrics.md lists them):

- requests by server and method or tool, their latency, and error answers by kind;
- searches by tool and tier, their latency, the results they returned, and those that returned none;
- each index's size (files, spans, bytes), its embedding backlog and files waiting, read at each scrape;
- the writer's work (edited buffers, changed files, full syncs, embedding batches) and how long each took;
- the process's own (CPU, memory, descriptors, garbage collection), from prometheus_client's collectors.

The engine knows nothing of this: the front ends report what they answered, and each live index reports
its work through ``LiveIndex(on_work=...)``.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Histogram,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WORK_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0)
RESULT_BUCKETS = (0, 1, 2, 5, 10, 20, 50)
FIGURES_TTL = 1.0  # seconds a scrape's index figures are reused
FIGURES_TIMEOUT = 10.0


class MetricsAddressError(ValueError):
    """``--metrics`` was given something that is not ``PORT`` or ``HOST:PORT``."""


def parse_address(text: str) -> tuple[str, int]:
    """``9464`` -> (127.0.0.1, 9464); ``HOST:PORT`` (``[::1]:9464`` for IPv6) -> (HOST, PORT)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = DEFAULT_HOST, text
    host = host.strip("[]") or DEFAULT_HOST
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise MetricsAddressError(f"--metrics wants PORT or HOST:PORT (e.g. 127.0.0.1:9464), not {text!r}")
    return host, int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class IndexFigures:
    """What a scrape reads of one workspace's index."""

    workspace: str
    files: int
    spans: int
    embedded: int
    pending_embeddings: int
    pending_files: int
    db_path: Path


class _IndexCollector(Collector):
    """The index gauges, read from each workspace when scraped (so they are never stale)."""

    def __init__(self, sources: Callable[[], list[IndexFigures]]):
        self.sources = sources

    def collect(self) -> Iterator[Metric]:
        gauges = {
            "files": GaugeMetricFamily("spyglass_index_files", "Files indexed", labels=["workspace"]),
            "spans": GaugeMetricFamily("spyglass_index_spans", "Spans indexed", labels=["workspace"]),
            "embedded": GaugeMetricFamily("spyglass_index_embedded_spans", "Spans with a vector", labels=["workspace"]),
            "bytes": GaugeMetricFamily(
                "spyglass_index_size_bytes", "Size of the index on disk (database and WAL)", labels=["workspace"]
            ),
            "pending_embeddings": GaugeMetricFamily(
                "spyglass_embedding_backlog_spans", "Spans waiting for a vector", labels=["workspace"]
            ),
            "pending_files": GaugeMetricFamily(
                "spyglass_index_pending_files", "Changed files waiting to be indexed", labels=["workspace"]
            ),
        }
        for f in self.sources():
            size = 0
            for part in (f.db_path, f.db_path.with_name(f.db_path.name + "-wal")):
                try:
                    size += part.stat().st_size
                except OSError:
                    pass
            for key, value in (
                ("files", f.files),
                ("spans", f.spans),
                ("embedded", f.embedded),
                ("bytes", size),
                ("pending_embeddings", f.pending_embeddings),
                ("pending_files", f.pending_files),
            ):
                gauges[key].add_metric([f.workspace], value)
        yield from gauges.values()


class Metrics:
    """One server's metrics, in a registry of its own (never prometheus_client's global one)."""

    def __init__(self, server: str):
        self.server = server
        self.registry = CollectorRegistry()
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            self.registry.register(collector)
        r = self.registry
        self.requests = Counter(
            "spyglass_requests", "Requests answered, by server and method or tool", ["server", "method"], registry=r
        )
        self.request_seconds = Histogram(
            "spyglass_request_seconds",
            "Time to answer a request, by server and method or tool",
            ["server", "method"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.errors = Counter("spyglass_errors", "Error answers, by server and kind", ["server", "kind"], registry=r)
        self.searches = Counter(
            "spyglass_searches", "Searches answered, by tool and tier", ["tool", "tier"], registry=r
        )
        self.search_seconds = Histogram(
            "spyglass_search_seconds",
            "Time to answer a search, by tool and tier",
            ["tool", "tier"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.results = Histogram(
            "spyglass_search_results", "Results a search returned, by tool", ["tool"], buckets=RESULT_BUCKETS,
            registry=r,
        )  # fmt: skip
        self.empty = Counter(
            "spyglass_empty_answers", "Searches that returned no result, by tool", ["tool"], registry=r
        )
        self.work_seconds = Histogram(
            "spyglass_index_work_seconds",
            "The index writer's work (buffers, files, sync, embed) and how long each piece took",
            ["kind"],
            buckets=WORK_BUCKETS,
            registry=r,
        )
        self._sources: dict[int, Callable[[], IndexFigures | None]] = {}
        self._lock = threading.Lock()
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spyglass-metrics")
        self._last: tuple[float, list[IndexFigures]] | None = None
        self.registry.register(_IndexCollector(self._figures))
        self.address: tuple[str, int] | None = None

    # -- what the front ends report ----------------------------------------------------------------
    def answered(self, method: str, seconds: float, error: str | None = None) -> None:
        """A request answered (``error``: the kind of error it was answered with)."""
        self.requests.labels(self.server, method).inc()
        self.request_seconds.labels(self.server, method).observe(seconds)
        if error:
            self.errors.labels(self.server, error).inc()

    def searched(self, tool: str, tier: str, seconds: float, results: int) -> None:
        self.searches.labels(tool, tier).inc()
        self.search_seconds.labels(tool, tier).observe(seconds)
        self.results.labels(tool).observe(results)
        if not results:
            self.empty.labels(tool).inc()

    def worked(self, kind: str, seconds: float) -> None:
        """``LiveIndex(on_work=metrics.worked)``."""
        self.work_seconds.labels(kind).observe(seconds)

    def watch(self, key: int, figures: Callable[[], IndexFigures | None]) -> None:
        """Read an index's figures at each scrape (until :meth:`unwatch`)."""
        with self._lock:
            self._sources[key] = figures

    def unwatch(self, key: int) -> None:
        with self._lock:
            self._sources.pop(key, None)

    def _figures(self) -> list[IndexFigures]:
        """Read on one long-lived thread (each thread reads the index through a connection of its own,
        and prometheus_client serves each scrape on a new thread), at most once a second."""
        with self._lock:
            if self._last is not None and time.monotonic() - self._last[0] < FIGURES_TTL:
                return self._last[1]
        try:
            figures = self._reader.submit(self._read_figures).result(timeout=FIGURES_TIMEOUT)
        except Exception as e:  # a slow or broken index: this scrape leaves the index gauges out
            log.warning("metrics: cannot read the index figures: %s", e)
            return []
        with self._lock:
            self._last = (time.monotonic(), figures)
        return figures

    def _read_figures(self) -> list[IndexFigures]:
        with self._lock:
            sources = list(self._sources.values())
        out = []
        for read in sources:
            try:
                found = read()
            except Exception as e:  # an index closing or broken: it is left out of this scrape
                log.debug("metrics: cannot read an index: %s", e)
                continue
            if found is not None:
                out.append(found)
        return out

    # -- the endpoint ------------------------------------------------------------------------------
    def serve(self, host: str, port: int) -> tuple[str, int]:
        """Serve ``/metrics`` on ``host:port`` (port 0: any free one) from a daemon thread; the address."""
        if not is_loopback(host):
            log.warning("metrics are served on %s, which is not a loopback address: other machines can read them", host)
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        self.address = (host, server.server_address[1])
        log.info("metrics on http://%s:%d/metrics", host if ":" not in host else f"[{host}]", self.address[1])
        return self.address


def figures_of(live) -> IndexFigures:  # noqa: ANN001 (an engine LiveIndex; kept loose so this module needs no engine)
    """An engine ``LiveIndex``'s figures."""
    status = live.status()
    return IndexFigures(
        workspace=status.root,
        files=status.files,
        spans=status.spans,
        embedded=status.embedded,
        pending_embeddings=status.pending_embeddings,
        pending_files=status.pending.files + status.pending.buffers,
        db_path=live.ws.db_path,
    )
