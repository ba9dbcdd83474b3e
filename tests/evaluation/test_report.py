import json
from datetime import datetime

import pytest

from spyglass.evaluation.metrics import METRICS, InstanceScore, aggregate
from spyglass.evaluation.report import (
    PUBLISHED_LITE_274,
    ReportError,
    compare,
    format_table,
    load_report,
    make_report,
    merge_systems,
    write_report,
)


def _inst(iid: str, acc5: float | None, rank: int | None, tokens: float = 100.0) -> InstanceScore:
    """An instance whose file metrics follow from the rank of its single gold file."""
    values: dict[str, float | None] = dict.fromkeys(METRICS)
    for k in (1, 3, 5, 10):
        values[f"file_acc@{k}"] = None if acc5 is None else float(rank is not None and rank <= k)
    values["file_acc@5"] = acc5
    values["file_mrr"] = 0.0 if rank is None else 1 / rank
    values["tokens"] = tokens
    return InstanceScore(iid, values, rank, [f"{iid}/top.py"])


# ---------------------------------------------------------------------------------------------------------
# published rows and the table


def test_published_rows():
    assert len(PUBLISHED_LITE_274) == 9
    small = PUBLISHED_LITE_274["SweRankEmbed-Small"]
    assert (small["file_acc@1"], small["file_acc@3"], small["file_acc@5"]) == (66.42, 86.50, 90.88)
    assert (small["module_acc@5"], small["function_acc@10"]) == (79.56, 74.45)
    assert small["file_acc@10"] is None and small["file_mrr"] is None
    assert PUBLISHED_LITE_274["BM25"]["function_acc@5"] == 31.75
    assert PUBLISHED_LITE_274["E5-base-v2"]["module_acc@5"] is None
    assert all(row["instances"] == 274 and set(METRICS) <= set(row) for row in PUBLISHED_LITE_274.values())


def test_format_table():
    ours = aggregate([_inst("a", 1.0, 1, 800), _inst("b", 0.0, 7, 1200), _inst("c", 0.0, None, 1000)])
    rows = {"spyglass": ours, "bm25 | control": {"instances": 3}, "BM25": PUBLISHED_LITE_274["BM25"]}
    table = format_table(rows)
    lines = table.splitlines()
    assert len(lines) == 2 + 3
    assert lines[0] == (
        "| system | n | file Acc@1 | file Acc@3 | file Acc@5 | file Acc@10 | module Acc@5 | module Acc@10 "
        "| function Acc@5 | function Acc@10 | MRR | nDCG@10 | tokens | cut: results | cut: gold file kept % |"
    )
    assert lines[1].count("---") == 15
    # file Acc@1 1/3, Acc@3 1/3, Acc@5 1/3, Acc@10 2/3; no module/function values; MRR (1 + 1/7 + 0)/3 = .381
    assert lines[2] == "| spyglass | 3 | 33.33 | 33.33 | 33.33 | 66.67 | - | - | - | - | 0.381 | - | 1000 | - | - |"
    assert lines[3].startswith("| bm25 \\| control | 3 | - |")
    assert lines[4] == "| BM25 | 274 | 38.69 | 51.82 | 61.68 | - | 45.26 | 52.92 | 31.75 | 36.86 | - | - | - | - | - |"


# ---------------------------------------------------------------------------------------------------------
# JSON reports


def test_make_write_load_round_trip(tmp_path):
    data = make_report(
        {"set": "lite-small", "k": 10},
        {"spyglass": [_inst("q1", 1.0, 2), _inst("q2", 0.0, None)], "bm25 control": [_inst("q1", 0.0, 8)]},
    )
    assert datetime.fromisoformat(data["created"]).tzinfo is not None
    assert data["systems"]["spyglass"]["instances"] == 2
    assert set(data["instances"]) == {"q1", "q2"}
    assert set(data["instances"]["q1"]) == {"spyglass", "bm25 control"}
    assert data["instances"]["q1"]["spyglass"]["file_rank"] == 2
    assert data["instances"]["q2"]["spyglass"]["top_files"] == ["q2/top.py"]

    path = tmp_path / "out" / "report.json"
    write_report(path, data)
    assert load_report(path) == data
    assert list(json.loads(path.read_text(encoding="utf-8"))) == ["created", "config", "systems", "instances"]
    assert [p.name for p in path.parent.iterdir()] == ["report.json"]  # no temporary file left behind


def test_merge_systems_averages_over_every_report_and_counts_shared_instances_once():
    tuning = make_report({}, {"spyglass": [_inst("a", 1.0, 1), _inst("b", 0.0, None)], "bm25": [_inst("a", 0.0, 7)]})
    heldout = make_report({}, {"spyglass": [_inst("c", 1.0, 2), _inst("b", 1.0, 3)]})
    merged = merge_systems([tuning, heldout])
    assert merged["spyglass"]["instances"] == 3  # "b" once, from the later report
    assert merged["spyglass"]["file_acc@5"] == 100.0
    assert merged["spyglass"]["file_acc@1"] == pytest.approx(100 / 3, abs=0.01)
    assert merged["spyglass"]["file_mrr"] == pytest.approx((1 + 1 / 2 + 1 / 3) / 3, abs=1e-4)
    assert merged["bm25"]["instances"] == 1


def test_write_report_fills_created_and_config(tmp_path):
    path = tmp_path / "r.json"
    write_report(path, {"systems": {}, "instances": {}})
    data = load_report(path)
    assert data["config"] == {} and datetime.fromisoformat(data["created"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "a report is a JSON object"),
        ('{"systems": {}}', "needs an object 'instances'"),
        ('{"systems": [], "instances": {}}', "needs an object 'systems'"),
        ('{"systems": {}, "instances": {}, "config": 1}', "'config' must be an object"),
    ],
)
def test_load_report_rejects_non_reports(tmp_path, text, message):
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReportError, match=message):
        load_report(path)


def test_write_report_rejects_non_reports(tmp_path):
    with pytest.raises(ReportError):
        write_report(tmp_path / "r.json", {"systems": {}})
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------------------------------------------------
# comparing


def _reports() -> tuple[dict, dict]:
    a = make_report(
        {},
        {
            "spyglass": [
                _inst("q1", 1.0, 2),  # will regress: drops out of the top 5
                _inst("q2", 0.0, None),  # will improve: found at rank 3
                _inst("q3", 1.0, 1),  # unchanged
                _inst("q4", 1.0, 3),  # improves its rank only
                _inst("q5", 0.0, 1),  # mixed: Acc@5 up (a second gold file came in) but first rank down
                _inst("q6", 1.0, 4),  # only in A
            ],
            "bm25 control": [_inst("q1", 1.0, 4)],
        },
        created="2025-01-01T00:00:00+00:00",
    )
    b = make_report(
        {},
        {
            "spyglass": [
                _inst("q1", 0.0, 9, tokens=400),
                _inst("q2", 1.0, 3),
                _inst("q3", 1.0, 1),
                _inst("q4", 1.0, 1),
                _inst("q5", 1.0, 2),
            ],
            "dense only": [_inst("q1", 1.0, 1)],
        },
        created="2025-02-01T00:00:00+00:00",
    )
    return a, b


def test_compare():
    a, b = _reports()
    text = compare(a, b)
    lines = text.splitlines()
    assert lines[:2] == ["A: 2025-01-01T00:00:00+00:00", "B: 2025-02-01T00:00:00+00:00"]
    assert "== spyglass (instances 6 -> 5)" in lines
    # file Acc@5: A 4 of 6 = 66.67, B 4 of 5 = 80.00; tokens: A 100, B (400 + 4 * 100) / 5 = 160
    (acc5,) = [line for line in lines if line.strip().startswith("file_acc@5")]
    assert acc5.split() == ["file_acc@5", "66.67", "80.00", "+13.33", "6->5"]
    (tokens,) = [line for line in lines if line.strip().startswith("tokens")]
    assert tokens.split() == ["tokens", "100", "160", "+60", "6->5"]
    (module,) = [line for line in lines if line.strip().startswith("module_acc@5")]
    assert module.split() == ["module_acc@5", "-", "-", "0"]

    assert "  queries in both reports: 5" in lines
    start = lines.index("  regressed (1):")
    assert lines[start + 1] == "    q1  file Acc@5 1.00 -> 0.00, first gold file rank 2 -> 9"
    assert lines[start + 2] == "  improved (2):"
    assert lines[start + 3] == "    q2  file Acc@5 0.00 -> 1.00, first gold file rank not found -> 3"
    assert lines[start + 4] == "    q4  file Acc@5 1.00 -> 1.00, first gold file rank 3 -> 1"
    assert lines[start + 5] == "  mixed (1):"
    assert lines[start + 6].startswith("    q5  file Acc@5 0.00 -> 1.00, first gold file rank 1 -> 2")
    assert "q3" not in text and "q6" not in text
    assert "Only in A: bm25 control" in lines and "Only in B: dense only" in lines


def test_compare_a_report_with_itself_shows_no_change():
    a, _ = _reports()
    text = compare(a, a)
    assert "  regressed (0):" in text and "  improved (0):" in text and "mixed" not in text
    metric_rows = [line.split() for line in text.splitlines() if line.strip().split(" ")[0] in METRICS]
    assert len(metric_rows) == 2 * len(METRICS)  # two systems
    assert {row[3] for row in metric_rows if len(row) == 5} == {"+0.00", "+0.000", "+0"}  # every delta is zero


def test_compare_with_nothing_in_common():
    a, b = _reports()
    b = {**b, "systems": {"other": b["systems"]["dense only"]}}
    text = compare(a, b)
    assert "No system is in both reports." in text
