#!/usr/bin/env bash
# The MCP Inspector's CLI (a real third-party MCP client, from npm) against `spyglass mcp` on a copy of the
# shop fixture: it lists the tools and calls search_code, index_status and a bad call.
# Usage: bash e2e/mcp/run.sh [PYTHON]   (default: the repo's .venv/bin/python); needs node and npx.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
python="${1:-$repo/.venv/bin/python}"
inspector="@modelcontextprotocol/inspector@${SPYGLASS_INSPECTOR_VERSION:-2.12.0}"
command -v npx >/dev/null || { echo "npx is not installed (apt-get install nodejs npm)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r "$repo/tests/fixtures/shop" "$tmp/shop" && rm -rf "$tmp/shop/.spyglass"
start=$(date +%s)
"$python" -m spyglass index "$tmp/shop" -q >&2

inspect() {  # inspect ARGS...: one Inspector call; its JSON answer on stdout
    timeout 300 npx -y "$inspector" --cli "$python" -m spyglass mcp "$tmp/shop" "$@" 2>"$tmp/npx.err" \
        || { cat "$tmp/npx.err" >&2; return 1; }
}
check() {  # check NAME PYTHON-EXPRESSION < JSON: the expression over `d` (the answer) must be true
    "$python" -c "import json, sys; d = json.load(sys.stdin); sys.exit(0 if ($2) else 1)" \
        || { echo "e2e mcp: FAILED: $1" >&2; exit 1; }
    echo "e2e mcp: ok: $1" >&2
}

inspect --method tools/list >"$tmp/list.json"
check "tools/list names the seven tools (ask_codebase only with an LLM configured)" \
    '{t["name"] for t in d["tools"]} == {"search_code", "get_span", "get_context", "find_symbol", "search_history", "index_status", "reindex"}' \
    <"$tmp/list.json"
inspect --method tools/call --tool-name search_code --tool-arg query="discount for a coupon code" \
    --tool-arg k=3 >"$tmp/search.json"
check "search_code finds compute_discount (structured and text)" \
    'not d["isError"] and d["structuredContent"]["results"][0]["symbol"] == "compute_discount" and "shop/pricing.py:6-12" in d["content"][0]["text"]' \
    <"$tmp/search.json"
inspect --method tools/call --tool-name index_status >"$tmp/status.json"
check "index_status reports the index" \
    'd["structuredContent"]["files"] == 6 and d["structuredContent"]["role"] == "owner"' <"$tmp/status.json"
inspect --method tools/call --tool-name get_context --tool-arg path=../../etc/passwd --tool-arg line=1 \
    >"$tmp/bad.json" || true
check "a path outside the workspace is a tool error" \
    'd["isError"] and "outside the workspace" in d["content"][0]["text"]' <"$tmp/bad.json"
echo "mcp inspector e2e passed in $(( $(date +%s) - start ))s" >&2
