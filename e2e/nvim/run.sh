#!/usr/bin/env bash
# Neovim (headless) as a real LSP client of `spyglass lsp` on a copy of the shop fixture.
# Usage: bash e2e/nvim/run.sh [PYTHON]   (default: the repo's .venv/bin/python)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
python="${1:-$repo/.venv/bin/python}"
command -v nvim >/dev/null || { echo "nvim is not installed (apt-get install neovim)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r "$repo/tests/fixtures/shop" "$tmp/shop" && rm -rf "$tmp/shop/.spyglass"
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"
export SPYGLASS_ROOT="$tmp/shop" SPYGLASS_PYTHON="$python"
start=$(date +%s)
timeout 180 nvim --headless -u NONE -i NONE -n -c "luafile $here/check.lua"
echo "neovim e2e passed in $(( $(date +%s) - start ))s" >&2
