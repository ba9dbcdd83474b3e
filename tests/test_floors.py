"""The floors of docs/architecture.md, checked on the source: who may import whom.

The contracts live in pyproject.toml (``[tool.importlinter]``) and import-linter checks them: the engine
imports no front end, no evaluation and no protocol library; the front ends (cli, lsp, mcp) reach the
engine only through its public surface, ``spyglass.engine``, and never open SQLite themselves; the LSP
and MCP servers know nothing of each other; a language-server folder knows the server only through a
protocol (no import cycle). Here we also check that what a front end takes from
``spyglass.engine`` is something it exports.
"""

import ast
import subprocess
import sys
from pathlib import Path

import spyglass.engine

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "server" / "spyglass"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(config: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(config), "--no-cache"],
        cwd=REPO / "server",
        capture_output=True,
        text=True,
    )


def test_the_import_contracts_hold():
    proc = _lint_imports(REPO / "pyproject.toml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "5 kept, 0 broken" in proc.stdout, proc.stdout


def test_a_front_end_reaching_inside_the_engine_breaks_a_contract(tmp_path):
    """The contracts can fail: a copy of the package whose CLI imports the store directly breaks one."""
    copy = tmp_path / "server"
    (copy / "spyglass").parent.mkdir()
    subprocess.run(["cp", "-r", str(PACKAGE), str(copy / "spyglass")], check=True)
    render = copy / "spyglass" / "cli" / "render.py"
    render.write_text(render.read_text(encoding="utf-8") + "\nfrom ..engine.store import Store  # noqa\n")
    proc = subprocess.run(
        [str(LINT_IMPORTS), "--config", str(REPO / "pyproject.toml"), "--no-cache"],
        cwd=copy,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "spyglass.cli.render -> spyglass.engine.store" in proc.stdout, proc.stdout


def test_front_ends_import_only_what_the_engine_exports():
    exported = set(spyglass.engine.__all__)
    for front in ("cli", "lsp", "mcp"):
        for path in (PACKAGE / front).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level and (node.module or "") == "engine":
                    names = {alias.name for alias in node.names}
                    assert names <= exported, f"{path}: {sorted(names - exported)} not in spyglass.engine.__all__"
