"""The semble suite: its scoring rules, its aggregation, and `spyglass eval semble` end to end on a tiny suite
built here (a small git repository, a repos.json and a queries.jsonl), with the real model."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import commit, git

from spyglass.evaluation.semble import (
    BM25,
    PUBLISHED,
    SPYGLASS,
    RankedFile,
    SuiteError,
    SuiteQuery,
    SuiteRepo,
    Target,
    load_suite,
    ndcg,
    path_matches,
    rank_files,
    summarise,
    target_ranks,
)

# -- scoring rules ---------------------------------------------------------------------------------------


def test_a_path_matches_itself_or_a_suffix_after_a_slash():
    assert path_matches("lib/rack/utils.rb", "lib/rack/utils.rb")
    assert path_matches("/bench/rack/lib/rack/utils.rb", "lib/rack/utils.rb")  # the file ends with the target
    assert path_matches("rack/utils.rb", "lib/rack/utils.rb")  # the target ends with the file
    assert not path_matches("lib/rack/my_utils.rb", "utils.rb")  # a suffix, but not after a "/"
    assert not path_matches("lib/rack/utils.rb", "lib/rack/utils.rbx")


def test_a_target_with_lines_must_overlap_the_files_best_span():
    files = [RankedFile("a/x.py", 1, 3), RankedFile("b/x.py", 10, 20), RankedFile("c.py")]
    assert target_ranks(files, [Target("a/x.py", 5, 9)]) == [None]  # right file, its best span elsewhere
    assert target_ranks(files, [Target("a/x.py", 3, 9)]) == [1]  # touching at line 3 overlaps
    # suffix matching: the first file that matches the path and overlaps the lines
    assert target_ranks(files, [Target("x.py", 12, 12), Target("x.py")]) == [2, 1]
    assert target_ranks(files, [Target("c.py", 500, 600)]) == [3]  # a whole file overlaps any lines
    assert target_ranks(files, [Target("d.py")]) == [None]


def test_ndcg_is_binary_with_an_ideal_of_min_ten_and_the_number_of_targets():
    assert ndcg([1], 1) == 1.0
    assert ndcg([2], 1) == pytest.approx(1 / math.log2(3))
    # two targets, one found first: the ideal is two hits
    assert ndcg([1, None], 2) == pytest.approx(1 / (1 + 1 / math.log2(3)))
    # twelve targets, the top ten all targets: the ideal is capped at ten hits
    assert ndcg([*range(1, 11), 11, None], 12) == pytest.approx(1.0)
    assert ndcg([11], 1) == 0.0  # beyond the cut-off
    assert ndcg([1, 1], 2) == pytest.approx(1 / (1 + 1 / math.log2(3)))  # one rank holds two targets: one gain
    assert ndcg([], 0) == 0.0


def test_spans_roll_up_to_files_at_their_best_span_under_the_benchmark_root():
    class Span:
        def __init__(self, path: str, start: int, end: int) -> None:
            self.path, self.start_line, self.end_line = path, start, end

    files = rank_files([Span("x.py", 5, 9), Span("y.py", 1, 2), Span("x.py", 20, 30)], "lib/pkg")
    assert files == [RankedFile("lib/pkg/x.py", 5, 9), RankedFile("lib/pkg/y.py", 1, 2)]


def test_figures_are_the_mean_over_repositories_per_language_and_per_category():
    repos = {
        "a": SuiteRepo("a", "go", "https://github.com/o/a", "0"),
        "b": SuiteRepo("b", "go", "https://github.com/o/b", "0"),
        "c": SuiteRepo("c", "rust", "https://github.com/o/c", "0"),
    }
    queries = [
        SuiteQuery("a-1", "a", "q", (Target("x"),), "semantic"),
        SuiteQuery("a-2", "a", "q", (Target("x"),), "symbol"),
        SuiteQuery("a-3", "a", "q", (Target("x"),), "symbol"),
        SuiteQuery("b-1", "b", "q", (Target("x"),), "semantic"),
        SuiteQuery("c-1", "c", "q", (Target("x"),), "architecture"),
    ]
    row = summarise(queries, repos, {"a-1": 1.0, "a-2": 0.0, "a-3": 0.5, "b-1": 1.0, "c-1": 0.0})
    assert row["by_repo"] == {"a": 0.5, "b": 1.0, "c": 0.0}
    assert row["file_ndcg@10"] == 0.5  # (0.5 + 1.0 + 0.0) / 3 repositories, not 2.5 / 5 queries
    assert row["query_mean"] == 0.5
    assert row["by_language"] == {"go": 0.75, "rust": 0.0}  # the mean of its repositories' figures
    assert row["by_category"] == {"architecture": 0.0, "semantic": 1.0, "symbol": 0.25}  # the mean of its queries
    assert row["instances"] == 5 and row["repositories"] == 3


# -- a tiny suite ----------------------------------------------------------------------------------------

FILES = {
    "src/shop/cart.py": (
        "class Cart:\n"
        "    '''A shopping cart.'''\n"
        "\n"
        "    def add(self, item):\n"
        "        self.items.append(item)\n"
        "\n"
        "    def total(self):\n"
        "        '''Sum of the item prices.'''\n"
        "        return sum(i.price for i in self.items)\n"
    ),
    "src/shop/tax.py": "def vat(amount, rate):\n    '''Value added tax on an amount.'''\n    return amount * rate\n",
    "src/shop/users.py": "def login(name, password):\n    '''Check a user's password.'''\n    return False\n",
    "docs/guide.md": "# Guide\n\nHow the value added tax is computed.\n",
}


def _suite(tmp_path: Path) -> tuple[Path, Path, str, str]:
    """(suite folder, mirrors folder, pinned commit, newest commit)."""
    repo = tmp_path / "mirrors" / "acme+shop" / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    pinned = commit(repo, "first", FILES)
    newest = commit(repo, "second", {"src/shop/tax.py": FILES["src/shop/tax.py"] + "\n\nRATE = 0.2\n"})
    suite = tmp_path / "suite"
    suite.mkdir()
    url = "https://github.com/acme/shop.git"
    repos = [
        {"name": "shop", "language": "python", "url": url, "revision": pinned, "benchmark_root": "src"},
        # the same snapshot, the whole repository, at a revision the snapshot lacks
        {"name": "shop-all", "language": "go", "url": url, "revision": "f" * 40, "benchmark_root": None},
        {"name": "unused", "language": "c", "url": "https://github.com/acme/none", "revision": "0" * 40},
    ]
    (suite / "repos.json").write_text(json.dumps(repos), encoding="utf-8")
    queries = [
        {
            "repo": "shop",
            "query": "value added tax",
            "relevant": ["src/shop/tax.py"],
            "secondary": [],
            "category": "semantic",
        },
        {
            "repo": "shop",
            "query": "Cart.total",
            "relevant": [{"path": "src/shop/cart.py", "start_line": 7, "end_line": 9}],
            "secondary": [],
            "category": "symbol",
        },
        # a second target outside the benchmark root: never found, but it counts in the ideal
        {
            "repo": "shop",
            "query": "vat rate",
            "relevant": ["src/shop/tax.py"],
            "secondary": ["docs/guide.md"],
            "category": "semantic",
        },
        # a target given relative to a folder below the root: matched as a suffix
        {
            "repo": "shop-all",
            "query": "login password",
            "relevant": ["shop/users.py"],
            "secondary": [],
            "category": "semantic",
        },
    ]
    (suite / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    (suite / "published-semble.json").write_text(json.dumps({"ndcg10": {"shop": 0.5, "shop-all": 0.25}}))
    return suite, tmp_path / "mirrors", pinned, newest


def test_load_suite_reads_repositories_queries_and_published_figures(tmp_path: Path):
    folder, _, pinned, _ = _suite(tmp_path)
    suite = load_suite(folder)
    assert suite.repos["shop"].root == "src" and suite.repos["shop-all"].root == ""
    assert suite.repos["shop"].owner_name == "acme/shop" and suite.repos["shop"].revision == pinned
    assert [q.id for q in suite.queries] == ["shop-1", "shop-2", "shop-3", "shop-all-1"]
    assert suite.queries[1].targets == (Target("src/shop/cart.py", 7, 9),)
    assert suite.queries[2].targets == (Target("src/shop/tax.py"), Target("docs/guide.md"))  # relevant + secondary
    assert suite.repos_with_queries() == ["shop", "shop-all"]
    assert suite.published == {"shop": 0.5, "shop-all": 0.25}
    (folder / "queries.jsonl").write_text('{"repo": "nowhere", "query": "x", "relevant": []}\n')
    with pytest.raises(SuiteError, match="nowhere"):
        load_suite(folder)


def _eval(suite: Path, mirrors: Path, work: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "spyglass", "eval", "semble", str(suite), "--mirrors", str(mirrors)]
    return subprocess.run(
        [*cmd, "--work", str(work), "--out", str(out), *extra], capture_output=True, text=True, check=True
    )


def test_cli_runs_the_suite_end_to_end_and_reuses_a_warm_index(tmp_path: Path):
    suite, mirrors, pinned, newest = _suite(tmp_path)
    work, out = tmp_path / "work", tmp_path / "r.json"
    proc = _eval(suite, mirrors, work, out)
    report = json.loads(out.read_text())

    # only the benchmark root is materialised and indexed, never the project's folders
    assert sorted(p.name for p in (work / "shop").iterdir()) == [".spyglass", "shop"]
    assert (work / "shop-all" / "docs" / "guide.md").is_file()
    revisions = report["config"]["revisions"]
    assert revisions["shop"]["indexed"] == pinned and revisions["shop"]["note"] is None
    assert revisions["shop-all"]["indexed"] == newest and "not in the snapshot" in revisions["shop-all"]["note"]

    instances = report["instances"]
    assert instances["shop-1"][SPYGLASS]["file_ndcg@10"] == 1.0
    assert instances["shop-1"][SPYGLASS]["top_files"][0] == "src/shop/tax.py"  # scored from the repository root
    assert instances["shop-2"][SPYGLASS]["file_ndcg@10"] == 1.0  # the best span of cart.py is Cart.total
    # the target outside the root is listed as not in the corpus, and halves nothing but the ideal
    assert report["queries"]["shop-3"]["targets_not_in_corpus"] == ["docs/guide.md"]
    assert instances["shop-3"][SPYGLASS]["file_ndcg@10"] == pytest.approx(1 / (1 + 1 / math.log2(3)), abs=1e-4)
    assert instances["shop-all-1"][SPYGLASS]["file_rank"] == 1  # "shop/users.py" matches src/shop/users.py
    assert instances["shop-all-1"][BM25]["file_rank"] == 1

    systems = report["systems"]
    ours = systems[SPYGLASS]
    assert ours["by_repo"]["shop-all"] == 1.0
    assert ours["file_ndcg@10"] == pytest.approx((ours["by_repo"]["shop"] + 1.0) / 2, abs=1e-4)
    assert set(ours["by_language"]) == {"python", "go"} and set(ours["by_category"]) == {"semantic", "symbol"}
    assert systems[PUBLISHED]["by_repo"] == {"shop": 0.5, "shop-all": 0.25}
    assert systems[PUBLISHED]["file_ndcg@10"] == 0.375
    assert report["config"]["texts_embedded"] > 0
    assert report["config"]["encoder"] == "all-MiniLM-L6-v2 on onnx"  # the default: the bundled model on ONNX

    assert "| shop | python | 3 |" in proc.stdout and "| shop-all | go | 1 | 1.000 |" in proc.stdout
    assert "not in the snapshot" in proc.stdout and "| **mean of 2** |" in proc.stdout
    assert "| symbol |" in proc.stdout and "[4/4] shop-all-1" in proc.stderr
    assert report["config"]["split"] == {"shop": "tune", "shop-all": "tune"}
    assert "| tune | 2: shop, shop-all |" in proc.stdout and "| test | 0:  |" in proc.stdout

    # a second run reuses the index: nothing is embedded again, and the figures are the same
    _eval(suite, mirrors, work, tmp_path / "again.json", "--repos", "shop")
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["config"]["texts_embedded"] == 0 and again["config"]["repos"] == ["shop"]
    assert again["systems"][SPYGLASS]["by_repo"]["shop"] == ours["by_repo"]["shop"]

    # and `spyglass eval compare` reads the report
    compared = subprocess.run(
        [sys.executable, "-m", "spyglass", "eval", "compare", str(out), str(tmp_path / "again.json")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "file_ndcg@10" in compared


def test_every_third_repository_by_name_is_held_out_for_testing(tmp_path: Path):
    names = ["gin", "axum", "cobra", "flask", "zod", "chi", "rack"]  # sorted: axum chi cobra flask gin rack zod
    repos = [{"name": n, "language": "x", "url": f"https://github.com/o/{n}", "revision": "0" * 40} for n in names]
    queries = [{"repo": n, "query": "q", "relevant": ["a.py"], "secondary": [], "category": "symbol"} for n in names]
    (tmp_path / "repos.json").write_text(json.dumps(repos + [{**repos[0], "name": "no-queries"}]))
    (tmp_path / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    split = load_suite(tmp_path).split()
    assert [n for n, half in split.items() if half == "test"] == ["cobra", "rack"]
    assert [n for n, half in split.items() if half == "tune"] == ["axum", "chi", "flask", "gin", "zod"]


def test_cli_takes_one_half_of_the_split(tmp_path: Path):
    suite, mirrors, _, _ = _suite(tmp_path)  # shop and shop-all are both in the tune half
    cmd = [sys.executable, "-m", "spyglass", "eval", "semble", str(suite), "--split", "test"]
    proc = subprocess.run(
        [*cmd, "--mirrors", str(mirrors), "--work", str(tmp_path / "w")], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "none of the chosen repositories is in that half" in proc.stderr


def test_a_repository_that_cannot_be_had_is_reported_and_the_rest_run(tmp_path: Path):
    suite, mirrors, _, _ = _suite(tmp_path)
    repos = json.loads((suite / "repos.json").read_text())
    repos += [
        {"name": "gone", "language": "c", "url": "https://github.com/acme/gone", "revision": "0" * 40},
        # the pinned commit is missing and the newest commit has no such folder
        {
            "name": "lost",
            "language": "c",
            "url": "https://github.com/acme/shop",
            "revision": "e" * 40,
            "benchmark_root": "no/such/folder",
        },
    ]
    (suite / "repos.json").write_text(json.dumps(repos))
    with (suite / "queries.jsonl").open("a") as f:
        for name in ("gone", "lost"):
            f.write(json.dumps({"repo": name, "query": "x", "relevant": ["a.c"], "category": "symbol"}) + "\n")
    out = tmp_path / "r.json"
    proc = _eval(suite, mirrors, tmp_path / "w", out, "--repos", "shop,gone,lost")
    report = json.loads(out.read_text())
    assert report["config"]["repos"] == ["shop"]
    assert "no snapshot of acme/gone" in report["config"]["skipped"]["gone"]
    assert "no/such/folder" in report["config"]["skipped"]["lost"]
    assert report["systems"][SPYGLASS]["repositories"] == 1
    assert "| gone | not run |" in proc.stdout and "| lost | not run |" in proc.stdout


def test_cli_refuses_an_unknown_repository(tmp_path: Path):
    suite, mirrors, _, _ = _suite(tmp_path)
    cmd = [sys.executable, "-m", "spyglass", "eval", "semble", str(suite), "--repos", "shop,nope"]
    proc = subprocess.run(
        [*cmd, "--mirrors", str(mirrors), "--work", str(tmp_path / "w")], capture_output=True, text=True
    )
    assert proc.returncode != 0 and "nope" in proc.stderr
