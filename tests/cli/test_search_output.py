"""What `spyglass search` shows (in-process ``main`` over a small project): each result's path:line, a
numbered snippet that starts at a whole line (never inside a signature) and holds the line that matched,
and why it matched; ``--json`` carries the signals list and the matching line."""

import json
import re
from pathlib import Path

import pytest

from spyglass.cli.main import main

BILLING = '''\
def compute_invoice_total(
    customer,
    items,
    currency="EUR",
    rounding=2,
):
    """Add up an invoice."""
    subtotal = 0
    for item in items:
        subtotal += item.price
    tax = subtotal * 0.2
    shipping = 5
    discount = 0
    extra = 0
    total = subtotal + tax + shipping - discount + extra
    zebra_marker_applied = round(total, rounding)
    return zebra_marker_applied


def convert_invoice(
    invoice,
    target,
    currency="EUR",
    when=None,
):
    """Another currency for an invoice."""
    amount = invoice.amount
    fees = invoice.fees
    rate = conversion_rate(currency, target)
    converted = amount * rate
    fees = fees * rate
    return converted + fees
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "billing.py").write_text(BILLING, encoding="utf-8")
    (root / "shipping.py").write_text("def ship(parcel):\n    return parcel.send()\n", encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["index", "--no-embed", "-q"]) == 0
    return root


def _search(capsys, *args: str):
    capsys.readouterr()
    assert main(["search", *args]) == 0
    out = capsys.readouterr().out
    return json.loads(out) if "--json" in args else out


def _file_line(n: int) -> str:
    return BILLING.splitlines()[n - 1]


def test_json_carries_the_signals_list_and_the_matching_line(project, capsys):
    hit = _search(capsys, "zebra marker", "--json")["results"][0]
    assert hit["symbol"] == "compute_invoice_total"
    assert hit["match_line"] == {"number": 16, "text": _file_line(16)}
    matched = hit["why"]["matched"]
    assert matched and matched[0] in {"lexical", "name"} and set(matched) <= set(hit["why"]["signals"])
    # the snippet is consecutive lines of the file from snippet_start_line, and holds the matching line
    start, lines = hit["snippet_start_line"], hit["snippet"].splitlines()
    assert lines == [_file_line(start + i) for i in range(len(lines))]
    assert start <= 16 < start + len(lines)


@pytest.mark.parametrize(
    ("query", "symbol", "match"),
    [("zebra marker", "compute_invoice_total", 16), ("currency conversion", "convert_invoice", 29)],
)
def test_human_output_numbers_the_snippet_holds_the_match_and_says_why(project, capsys, query, symbol, match):
    out = _search(capsys, query, "-k", "1")
    head, *rest = out.splitlines()
    assert symbol in head and f"billing.py:{match}" in head
    assert re.search(r"matched: .*full text", out), out
    numbered = [(int(m[1]), m[2]) for m in (re.match(r"\s*>?\s*(\d+) │ ?(.*)$", line) for line in rest) if m]
    assert match in [n for n, _ in numbered], out
    for n, text in numbered:
        assert text == _file_line(n)
    first = numbered[0][0]
    def_line = 1 if symbol == "compute_invoice_total" else 20
    assert first == def_line or first > def_line + 5, f"starts inside the signature: {out}"


def test_files_ranks_files_and_per_file_caps_results_from_one_file(project, capsys):
    spans = _search(capsys, "invoice", "--json")["results"]
    assert [h["path"] for h in spans].count("billing.py") >= 2
    files = _search(capsys, "invoice", "--files", "--json")["results"]
    assert [h["path"] for h in files].count("billing.py") == 1 and files[0]["id"] == spans[0]["id"]
    capped = _search(capsys, "invoice", "--per-file", "1", "--json")["results"]
    assert [h["id"] for h in capped] == [h["id"] for h in files]
