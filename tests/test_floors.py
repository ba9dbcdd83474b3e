"""The floors of docs/architecture.md, checked on the source: who may import whom.

- the engine imports no front end, no evaluation and no protocol library;
- the front ends (cli, lsp, mcp) reach the engine only through its public surface, ``spyglass.engine``;
- SQLite (apsw) is the engine's business: no front end opens the index itself (the evaluation's BM25
  control keeps its own separate index, so it may);
- the LSP and MCP front ends know nothing of each other.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "spyglass"
FRONT_ENDS = ("spyglass.cli", "spyglass.lsp", "spyglass.mcp")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (lazy imports inside functions too), as absolute dotted names; for
    ``from X import y``, X, and X.y unless X is the engine's public surface (its names are checked
    against ``__all__`` instead: ``redact`` there is the function, not the module)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            if base != "spyglass.engine":
                found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


def _is_under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _modules_of(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    return {m: deps for m, deps in graph.items() if _is_under(m, package)}


def test_the_engine_imports_no_front_end_and_no_protocol():
    banned = (*FRONT_ENDS, "spyglass.evaluation", "pygls", "lsprotocol", "mcp")
    for module, deps in _modules_of(_graph(), "spyglass.engine").items():
        wrong = sorted(d for d in deps if any(_is_under(d, b) for b in banned))
        assert not wrong, f"{module} imports {wrong}"


def test_front_ends_use_only_the_engines_public_surface():
    graph = _graph()
    engine_modules = {m for m in graph if _is_under(m, "spyglass.engine") and m != "spyglass.engine"}
    for front in FRONT_ENDS:
        for module, deps in _modules_of(graph, front).items():
            inside = sorted(d for d in deps if d in engine_modules)
            assert not inside, f"{module} imports engine internals {inside}; use spyglass.engine"


def test_front_ends_import_only_what_the_engine_exports():
    import spyglass.engine

    for front in FRONT_ENDS:
        for path in (PACKAGE / front.split(".")[1]).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("engine") and node.level:
                    names = {alias.name for alias in node.names}
                    assert names <= set(spyglass.engine.__all__), f"{path}: {names - set(spyglass.engine.__all__)}"


def test_no_front_end_touches_sqlite():
    for front in FRONT_ENDS:
        for module, deps in _modules_of(_graph(), front).items():
            assert "apsw" not in deps and "sqlite3" not in deps, f"{module} imports SQLite directly"


def test_the_language_server_and_the_mcp_server_know_nothing_of_each_other():
    graph = _graph()
    for a, b in (("spyglass.lsp", "spyglass.mcp"), ("spyglass.mcp", "spyglass.lsp")):
        for module, deps in _modules_of(graph, a).items():
            assert not any(_is_under(d, b) for d in deps), f"{module} imports {b}"


def test_the_walker_sees_relative_and_lazy_imports():
    """The checks above cannot pass vacuously: the walker resolves ``from ..engine.store import x``."""
    graph = _graph()
    assert "spyglass.engine.workspace" in graph
    assert any(_is_under(d, "spyglass.engine") for d in graph["spyglass.cli.main"])
    assert "apsw" in graph["spyglass.engine.store"]
