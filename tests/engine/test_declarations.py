"""Functions that declare without implementing (engine/declarations.py), and the prior that ranks the code
doing the work above them, on a real index."""

from pathlib import Path

import pytest

from spyglass.engine.declarations import is_declaration
from spyglass.engine.workspace import Workspace

DECLARATIONS = [
    ("python", 'def pytest_addoption(parser):\n    """Register argparse-style options."""\n'),
    ("python", "    @overload\n    def get(self, key: str) -> str: ...\n"),
    ("python", '    def match(self, request):\n        """Whether the rule matches."""\n        pass\n'),
    ("python", "    def close(self):\n        raise NotImplementedError\n"),
    ("python", '    async def read(self, n: int) -> bytes:\n        raise NotImplementedError("a subclass reads")\n'),
    ("rust", "    /// Polls the future; see {@link Poll}.\n    fn poll(&mut self, cx: &mut Context<'_>) -> Poll;\n"),
    (
        "rust",
        "    fn deserialize_seq<V>(self, visitor: V) -> Result<V::Value, E>\n    where\n        V: Visitor<'de>;\n",
    ),
    ("java", "    /** Formats {@code millis}. */\n    @Deprecated\n    String format(long millis);\n"),
    ("typescript", "export function tuple<T extends unknown[]>(items: T, params?: string): Tuple<T>;\n"),
    ("cpp", "  virtual void run() override = 0;\n"),
    ("cpp", "  Buffer(const Buffer&) = delete;\n"),
    ("c", "int uv_run(uv_loop_t* loop, uv_run_mode mode);\n"),
]

DEFINITIONS = [
    ("python", "def add(a, b):\n    return a + b\n"),
    ("python", 'def hook(x):\n    """Doc."""\n    return x\n'),
    ("python", "        if x:\n            return 1\n"),  # a later part of a long definition: not Python alone
    ("rust", "fn poll(&mut self) -> Poll<()> {\n    Poll::Ready(())\n}\n"),
    ("java", "    String format(long millis) {\n        return Long.toString(millis);\n    }\n"),
    ("typescript", "export const double = (x: number): number => x * 2;\n"),
    ("typescript", "export function tuple(items: { length: number }): number;\n"),  # braces in a type: not sure
    ("javascript", "const f = function () { return 1 };\n"),
    ("c", "  x = y;\n  return;\n}\nstatic int z;\n"),  # a part of a long function: more than one statement
    ("kotlin", "    fun close()\n"),  # no `;` to tell a signature: not claimed
    ("go", "func asm(x int) int\n"),
]


@pytest.mark.parametrize(("language", "text"), DECLARATIONS)
def test_functions_without_a_body_are_declarations(language: str, text: str):
    assert is_declaration(language, "function", text)
    assert is_declaration(language, "method", text)


@pytest.mark.parametrize(("language", "text"), DEFINITIONS)
def test_functions_with_a_body_or_unclear_text_are_not(language: str, text: str):
    assert not is_declaration(language, "function", text)


def test_only_functions_are_declarations():
    text = "    String format(long millis);\n"
    assert is_declaration("java", "method", text)
    assert not is_declaration("java", "interface", text) and not is_declaration("java", "class", text)


# a plugin system: the hook's specification says in words what the implementation does in code
FILES = {
    "plug/hookspec.py": '''"""Hook specifications: what plugins may implement."""


def collect_file(path, parent):
    """Create a collector for the given file path, or return None when the file is not a test file.

    Any plugin may create a collector for a file path; the first collector returned wins.
    """


def report_header(config):
    """Return lines for the header of the terminal report."""
''',
    "plug/python.py": '''from .nodes import Module


def collect_file(path, parent):
    """Create a Module collector for a test_*.py file."""
    if path.suffix == ".py" and path.name.startswith("test_"):
        return Module.from_parent(parent, path=path)
    return None
''',
    "plug/nodes.py": """class Module:
    @classmethod
    def from_parent(cls, parent, path):
        module = cls()
        module.parent, module.path = parent, path
        return module
""",
}

QUERY = "create a collector for a test file path"


def _search(tmp_path: Path, query: str, settings: str = "") -> list:
    root = tmp_path / "app"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    if settings:
        (root / ".spyglass.toml").write_text(settings, encoding="utf-8")
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        return ws.search(query, cut=False).results


def test_the_implementation_ranks_above_its_specification(tmp_path: Path):
    first = _search(tmp_path / "on", QUERY)[0]
    assert (first.path, first.symbol) == ("plug/python.py", "collect_file")
    # the specification's docstring says the query's words; without the prior it wins
    first = _search(tmp_path / "off", QUERY, "[search.priors]\ndeclarations = 1.0\n")[0]
    assert (first.path, first.symbol) == ("plug/hookspec.py", "collect_file")


def test_a_declaration_named_exactly_keeps_its_rank(tmp_path: Path):
    first = _search(tmp_path, "report_header")[0]
    assert (first.path, first.symbol) == ("plug/hookspec.py", "report_header")
    assert first.score >= 0.5
