"""The evaluation end to end on a small real git repository, with the real model."""

import json
import subprocess
import sys
from pathlib import Path

from gitrepo import commit, git

from spyglass.evaluation.dataset import EvalQuery, GoldItem, save_queries
from spyglass.evaluation.runner import EvalConfig, run

FILES_V1 = {
    "shop/cart.py": "class Cart:\n    def total(self):\n        '''Sum of item prices.'''\n        return 0\n",
    "shop/users.py": "def login(name, password):\n    '''Check a password.'''\n    return False\n",
    "tests/test_cart.py": "def test_total():\n    assert True\n",
}
FILES_V2 = {
    **FILES_V1,
    "shop/tax.py": "def vat(amount, rate):\n    '''Value added tax on an amount.'''\n    return amount * rate\n",
}


def _queries(c1: str, c2: str) -> list[EvalQuery]:
    return [
        EvalQuery("q1", "the cart total is wrong", "acme/shop", c1, [GoldItem("shop/cart.py", "Cart.total")]),
        EvalQuery("q2", "vat computes the value added tax wrong", "acme/shop", c2, [GoldItem("shop/tax.py", "vat")]),
    ]


def test_run_scores_ours_and_the_control_across_commits(tmp_path: Path):
    mirrors = tmp_path / "mirrors"
    repo = mirrors / "acme+shop" / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    c1, c2 = commit(repo, "c", FILES_V1), commit(repo, "c", FILES_V2)
    report = run(_queries(c1, c2), EvalConfig(work=tmp_path / "work", mirrors=mirrors))
    ours, control = report["systems"]["spyglass"], report["systems"]["bm25 control"]
    assert ours["instances"] == control["instances"] == 2
    assert ours["file_acc@1"] == 100.0 and ours["function_acc@5"] == 100.0
    assert control["file_acc@1"] == 100.0 and control["function_acc@5"] is None
    assert report["config"]["texts_embedded"] > 0
    assert report["instances"]["q2"]["spyglass"]["top_files"][0] == "shop/tax.py"


def test_cli_run_and_compare(tmp_path: Path):
    corpus = tmp_path / "corpus"
    for rel, text in FILES_V2.items():
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / rel).write_text(text, encoding="utf-8")
    queries = tmp_path / "q.jsonl"
    save_queries(queries, [EvalQuery("q", "value added tax", gold=[GoldItem("shop/tax.py", "vat")])])
    for name in ("a.json", "b.json"):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "spyglass",
                "eval",
                "run",
                str(queries),
                "--corpus",
                str(corpus),
                "--no-embed",
                "--work",
                str(tmp_path / "w"),
                "--out",
                str(tmp_path / name),
                "--published",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        assert "| spyglass |" in proc.stdout and "bm25 control" in proc.stdout and "published" in proc.stdout
    assert json.loads((tmp_path / "a.json").read_text())["systems"]["spyglass"]["file_acc@1"] == 100.0
    out = subprocess.run(
        [sys.executable, "-m", "spyglass", "eval", "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "spyglass" in out
    table = subprocess.run(
        [
            sys.executable,
            "-m",
            "spyglass",
            "eval",
            "table",
            str(tmp_path / "a.json"),
            str(tmp_path / "b.json"),
            "--merge",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "| a: spyglass | 1 | 100.00 |" in table and "| b: bm25 control |" in table
    assert "| all: spyglass | 1 | 100.00 |" in table  # the same query in both reports counts once


def test_cli_run_leaves_out_the_ids_of_an_excluded_file(tmp_path: Path):
    corpus = tmp_path / "corpus"
    for rel, text in FILES_V2.items():
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / rel).write_text(text, encoding="utf-8")
    queries, seen = tmp_path / "q.jsonl", tmp_path / "seen.jsonl"
    save_queries(
        queries,
        [
            EvalQuery("new", "value added tax", gold=[GoldItem("shop/tax.py", "vat")]),
            EvalQuery("old", "the cart total", gold=[GoldItem("shop/cart.py", "Cart.total")]),
        ],
    )
    save_queries(seen, [EvalQuery("old", "anything", gold=[])])
    base = [sys.executable, "-m", "spyglass", "eval", "run", str(queries), "--corpus", str(corpus), "--no-embed"]
    subprocess.run(
        [*base, "--work", str(tmp_path / "w"), "--exclude", str(seen), "--out", str(tmp_path / "r.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert list(json.loads((tmp_path / "r.json").read_text())["instances"]) == ["new"]
    proc = subprocess.run(
        [*base, "--work", str(tmp_path / "w"), "--exclude", str(queries)], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "no queries to run" in proc.stderr


def test_each_commit_is_searched_with_history_up_to_it_and_variants_score_on_the_same_index(tmp_path: Path):
    from dataclasses import replace

    from spyglass.engine import Workspace
    from spyglass.engine.search.config import DEFAULT_RANKING

    mirrors = tmp_path / "mirrors"
    repo = mirrors / "acme+shop" / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    c1, c2 = commit(repo, "Add the cart", FILES_V1), commit(repo, "Add the tax", FILES_V2)
    commit(repo, "Later work the evaluation must not see", {"shop/later.py": "X = 1\n"})
    config = EvalConfig(work=tmp_path / "work", mirrors=mirrors, overrides={"embed": False})
    report = run(_queries(c1, c2), config, variants={"recent": replace(DEFAULT_RANKING, recency=0.2)})
    assert set(report["systems"]) == {"spyglass", "spyglass recent", "bm25 control"}
    assert report["systems"]["spyglass recent"]["instances"] == 2
    with Workspace.open(tmp_path / "work" / "acme+shop") as ws:
        state = ws.history_state()
        assert (state.head, state.commits) == (c2, 2)  # the last query's commit, nothing after it
