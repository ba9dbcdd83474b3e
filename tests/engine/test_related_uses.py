"""The "used in" links of a hover card are real uses in code: a name in a comment or a string literal is
not a use, and the preview (and the link's line) is the line where the use is."""

from pathlib import Path

import pytest

from spyglass.engine.uses import code_use_lines
from spyglass.engine.workspace import Workspace

FILES = {
    "billing/tax.py": 'def apply_vat(amount):\n    """Add value-added tax."""\n    return amount * 1.2\n',
    "billing/notes.py": (
        "def explain_totals():\n"
        "    # apply_vat is applied at checkout\n"
        '    return "call apply_vat(total) to add the tax"\n'
    ),
    "billing/checkout.py": (
        "def settle_cart(cart):\n"
        '    """Total of the cart, tax included."""\n'
        "    def subtotal_of(items):\n"
        "        total = 0\n"
        "        for item in items:\n"
        "            total += item\n"
        "        return total\n"
        "\n"
        "    # the tax: see apply_vat\n"
        "    return apply_vat(subtotal_of(cart))\n"
    ),
}


@pytest.fixture
def billing(tmp_path: Path) -> Path:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


def test_used_in_lists_code_uses_only_and_previews_the_line_of_the_use(billing: Path):
    with Workspace.open(billing, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        answer = ws.related("billing/tax.py", 1, k=5)
    uses = [r for r in answer.related if r.relation == "uses"]
    assert [r.span.symbol for r in uses] == ["settle_cart"]  # explain_totals names it in a comment and a string only
    assert uses[0].preview == "return apply_vat(subtotal_of(cart))"  # not the comment above it
    assert uses[0].line == 10  # the file's line, past the nested function's lines


@pytest.mark.parametrize(
    ("language", "text", "lines"),
    [
        ("python", "# f()\nx = 'f()'\ny = f()\n", [2]),
        ("python", 'x = f"{f(1)}"\n', [0]),  # an f-string's interpolation is code
        ("javascript", "// f()\nconst s = `${f(1)}`;\nconst t = 'f';\n", [1]),
        ("go", '// f()\nvar s = "f"\nvar t = f()\n', [2]),
        ("rust", '/* f */\nlet s = "f";\nlet t = f();\n', [2]),
        ("python", "x = fx + f_\n", []),  # not the same word
    ],
)
def test_code_use_lines(language: str, text: str, lines: list[int]):
    assert code_use_lines(text, language, "f") == lines


def test_a_language_without_a_grammar_cannot_tell():
    assert code_use_lines("f()\n", "toml", "f") is None
