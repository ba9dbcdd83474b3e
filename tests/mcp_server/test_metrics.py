"""Opt-in Prometheus metrics of a real `spyglass mcp` process (``--metrics``), driven by the MCP SDK's stdio
client and scraped over HTTP (e2e/metrics/run.sh also checks the exposition with `promtool check metrics`)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from scrape import free_port, scrape, value
from spyglass.metrics import MetricsAddressError, is_loopback, parse_address

FIXTURE = Path(__file__).parents[1] / "fixtures" / "shop"

pytestmark = pytest.mark.slow


def test_metrics_address_defaults_to_loopback_and_bad_ones_are_refused():
    assert parse_address("9464") == ("127.0.0.1", 9464)
    assert parse_address("0.0.0.0:9464") == ("0.0.0.0", 9464)
    assert parse_address("[::1]:9464") == ("::1", 9464)
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3")
    for bad in ("", "abc", "host:", "127.0.0.1:99999", ":-1"):
        with pytest.raises(MetricsAddressError):
            parse_address(bad)
    proc = subprocess.run(
        [sys.executable, "-m", "spyglass", "mcp", "--metrics", "nine"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and "--metrics wants PORT or HOST:PORT" in proc.stderr and not proc.stdout


async def test_an_mcp_server_counts_its_searches_errors_and_index(tmp_path: Path):
    root, port = tmp_path / "shop", free_port()
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns(".spyglass"))
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "spyglass", "mcp", str(root), "--metrics", f"127.0.0.1:{port}"]
    )
    async with Client(params, read_timeout_seconds=120) as client:
        deadline = time.monotonic() + 120
        while True:
            status = (await client.call_tool("index_status", {})).structured_content
            if status["state"] == "idle" and status["embedded_fraction"] == 1.0:
                break
            assert time.monotonic() < deadline, status
            await asyncio.sleep(0.2)
        found = await client.call_tool("search_code", {"query": "the discount a coupon code gives"})
        assert found.structured_content["results"]
        empty = await client.call_tool("search_code", {"query": "the discount a coupon code gives", "min_score": 1.0})
        assert empty.structured_content["results"] == []
        await client.call_tool("find_symbol", {"name": "compute_discount"})
        await client.call_tool("search_history", {"query": "discount"})  # no git here: an empty answer
        refused = await client.call_tool("get_context", {"path": "../../etc/passwd", "line": 1})
        assert refused.is_error
        samples = scrape(port)

    assert value(samples, "spyglass_searches_total", tool="search_code", tier="balanced") == 2
    assert value(samples, "spyglass_searches_total", tool="find_symbol", tier="default") == 1
    assert value(samples, "spyglass_searches_total", tool="search_history", tier="default") == 1
    assert value(samples, "spyglass_empty_answers_total", tool="search_history") == 1
    assert value(samples, "spyglass_empty_answers_total", tool="search_code") == 1
    assert value(samples, "spyglass_search_results_count", tool="search_code") == 2
    assert value(samples, "spyglass_search_results_sum", tool="search_code") >= 1
    assert value(samples, "spyglass_search_seconds_count", tool="search_code", tier="balanced") == 2
    assert value(samples, "spyglass_requests_total", server="mcp", method="get_context") == 1
    assert value(samples, "spyglass_errors_total", server="mcp", kind="refused") == 1
    assert value(samples, "spyglass_requests_total", server="mcp", method="index_status") >= 1
    workspace = str(root.resolve())
    assert value(samples, "spyglass_index_files", workspace=workspace) >= 5
    spans = value(samples, "spyglass_index_spans", workspace=workspace)
    assert spans > 0 and value(samples, "spyglass_index_embedded_spans", workspace=workspace) == spans
    assert value(samples, "spyglass_embedding_backlog_spans", workspace=workspace) == 0
    assert value(samples, "spyglass_index_size_bytes", workspace=workspace) > 0
    assert value(samples, "spyglass_index_work_seconds_count", kind="sync") >= 1
    assert value(samples, "spyglass_index_work_seconds_count", kind="embed") >= 1
    assert value(samples, "process_resident_memory_bytes") > 0
