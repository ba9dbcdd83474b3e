#!/usr/bin/env bash
# Creates .venv beside this repo's pyproject.toml and installs Spyglass with its test tools.
# torch is pinned first: 2.13.0 is a local CPU wheel here, while an unpinned torch pulls GBs of CUDA.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "torch==${SPYGLASS_TORCH_VERSION:-2.13.0}"
.venv/bin/python -m pip install --quiet -e ".[test]"
echo "installed: $(.venv/bin/spyglass --help >/dev/null && echo spyglass) in $(pwd)/.venv" >&2
