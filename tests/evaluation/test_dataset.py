import json
import os
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

# the team's benchmark data lives beside the repository (../shared), as in CI; SPYGLASS_BENCH_DIR overrides
BENCH = Path(os.environ.get("SPYGLASS_BENCH_DIR", Path(__file__).resolve().parents[2].parent / "shared" / "bench"))
BENCH = BENCH / "swebench"
LITE = BENCH / "swebench_lite_all_gold.jsonl"


@pytest.fixture
def lite() -> Path:
    assert LITE.exists(), f"the SWE-bench Lite gold file is expected at {LITE} (set SPYGLASS_BENCH_DIR)"
    return LITE


SMALL_REPOS = {"flask", "requests", "pytest", "seaborn", "xarray", "pylint", "sphinx"}


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


@pytest.mark.usefixtures("lite")
def test_excluded_list_matches_the_bench_file():
    assert set(json.loads((BENCH / "locagent_excluded_26.json").read_text(encoding="utf-8"))) == LOCAGENT_EXCLUDED


@pytest.mark.usefixtures("lite")
def test_lite_counts():
    lite274 = from_swebench(LITE)
    assert len(lite274) == 274
    assert len(from_swebench(LITE, only_locagent_274=False)) == 300
    assert not {q.id for q in lite274} & LOCAGENT_EXCLUDED
    assert len({q.id for q in lite274}) == 274

    small = from_swebench(LITE, repos=SMALL_REPOS)
    assert len(small) == 56
    assert Counter(q.repo.split("/")[1] for q in small) == {
        "flask": 3,
        "requests": 6,
        "pytest": 16,
        "seaborn": 4,
        "xarray": 5,
        "pylint": 6,
        "sphinx": 16,
    }
    assert len(from_swebench(LITE, repos={"sympy/sympy"})) == 66
    assert len(from_swebench(LITE, repos=SMALL_REPOS | {"sympy"})) == 122
    assert all(q.query and q.commit and q.gold for q in lite274)


@pytest.mark.usefixtures("lite")
@pytest.mark.parametrize(
    ("iid", "gold"),
    [
        ("django__django-15202", [GoldItem("django/core/validators.py", "URLValidator.__call__")]),
        ("django__django-15996", [GoldItem("django/db/migrations/serializer.py", "EnumSerializer.serialize")]),
        ("scikit-learn__scikit-learn-10508", [GoldItem("sklearn/preprocessing/label.py", None)]),
        (
            "mwaskom__seaborn-3010",
            [
                GoldItem("seaborn/_stats/regression.py", "PolyFit"),
                GoldItem("seaborn/_stats/regression.py", "PolyFit.__call__"),
            ],
        ),
    ],
)
def test_lite_known_gold(iid, gold):
    (q,) = [q for q in from_swebench(LITE) if q.id == iid]
    assert q.gold == gold
    assert q.meta["source"] == "swe-bench-lite"


@pytest.mark.usefixtures("lite")
def test_lite_round_trips_through_our_format(tmp_path):
    qs = from_swebench(LITE, repos=SMALL_REPOS)
    save_queries(tmp_path / "small.jsonl", qs)
    assert load_queries(tmp_path / "small.jsonl") == qs


def test_from_swebench_reads_verified_rows_and_leaves_out_excluded_ids(tmp_path):
    verified = _row("o__r-9", gold_files=["a.py", "b.py"], expected_spans={"a.py": ["C.m", "imports"]})
    path = _write_rows(tmp_path / "verified.jsonl", [verified, _row("o__r-1", gold_files=["c.py"])])
    qs = from_swebench(path)
    assert [q.id for q in qs] == ["o__r-9", "o__r-1"]
    assert qs[0].gold == [GoldItem("a.py", "C.m"), GoldItem("b.py", None)]
    assert qs[0].meta["source"] == "swe-bench"
    assert [q.id for q in from_swebench(path, exclude={"o__r-1"})] == ["o__r-9"]


VERIFIED = BENCH / "swebench_verified_gold_files.jsonl"


def test_verified_minus_lite_on_the_nine_repositories():
    assert VERIFIED.exists(), f"the SWE-bench Verified gold file is expected at {VERIFIED} (set SPYGLASS_BENCH_DIR)"
    lite = {q.id for q in from_swebench(LITE, only_locagent_274=False)}
    qs = from_swebench(VERIFIED, repos=SMALL_REPOS | {"sympy", "astropy"}, exclude=lite)
    assert len(qs) == 169
    assert not {q.id for q in qs} & lite
    assert all(q.gold and q.commit for q in qs)
    assert sum(len(q.gold_files) > 1 for q in qs) > 0  # Verified fixes may span several files
