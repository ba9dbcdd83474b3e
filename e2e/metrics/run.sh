#!/usr/bin/env bash
# Prometheus' own checker on Spyglass's metrics: a real `spyglass mcp --metrics` process on a copy of the shop
# fixture answers a few tool calls (the MCP SDK's stdio client), then its endpoint is fetched with curl and
# linted by `promtool check metrics` (Debian's prometheus package), which must report nothing.
# Usage: bash e2e/metrics/run.sh [PYTHON]   (default: the repo's .venv/bin/python); needs promtool and curl.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
python="${1:-$repo/.venv/bin/python}"
command -v promtool >/dev/null || { echo "promtool is not installed (apt-get install prometheus)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is not installed (apt-get install curl)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r "$repo/tests/fixtures/shop" "$tmp/shop" && rm -rf "$tmp/shop/.spyglass"
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# the client keeps the server up while curl fetches the endpoint: it calls the tools, then waits for a file
SPYGLASS_ROOT="$tmp/shop" SPYGLASS_PORT="$port" SPYGLASS_DONE="$tmp/done" timeout 300 "$python" - <<'PY' &
import asyncio, os, sys, time
from pathlib import Path
from mcp import Client, StdioServerParameters

async def main():
    root, port, done = os.environ["SPYGLASS_ROOT"], os.environ["SPYGLASS_PORT"], Path(os.environ["SPYGLASS_DONE"])
    params = StdioServerParameters(command=sys.executable, args=["-m", "spyglass", "mcp", root, "--metrics", port])
    async with Client(params, read_timeout_seconds=120) as client:
        while (await client.call_tool("index_status", {})).structured_content["state"] != "idle":
            await asyncio.sleep(0.2)
        await client.call_tool("search_code", {"query": "discount for a coupon code", "k": 3})
        await client.call_tool("search_code", {"query": "discount for a coupon code", "min_score": 1.0})
        await client.call_tool("find_symbol", {"name": "compute_discount"})
        await client.call_tool("get_context", {"path": "../../etc/passwd", "line": 1})
        Path(str(done) + ".ready").touch()
        while not done.exists():
            await asyncio.sleep(0.2)

asyncio.run(main())
PY
client=$!
for _ in $(seq 600); do [ -e "$tmp/done.ready" ] && break; sleep 0.2; done
[ -e "$tmp/done.ready" ] || { echo "e2e metrics: FAILED: the server never became ready" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics.txt"
touch "$tmp/done"
wait "$client"
grep -q '^spyglass_searches_total{tier="balanced",tool="search_code"} 2.0$' "$tmp/metrics.txt" \
    || { echo "e2e metrics: FAILED: search_code was not counted" >&2; grep '^spyglass_searches' "$tmp/metrics.txt" >&2; exit 1; }
if ! problems=$(promtool check metrics <"$tmp/metrics.txt" 2>&1); then
    echo "e2e metrics: FAILED: promtool check metrics: $problems" >&2
    exit 1
fi
[ -z "$problems" ] || { echo "e2e metrics: FAILED: promtool check metrics: $problems" >&2; exit 1; }
echo "e2e metrics: ok: $(grep -c '^spyglass_' "$tmp/metrics.txt") spyglass samples; promtool check metrics reports nothing" >&2
