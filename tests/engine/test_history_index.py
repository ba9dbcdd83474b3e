"""The repository's history in the index (issue 22): real git repositories, real SQLite, the real parser."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from tests.history_repo import Repo

from spyglass.engine import OutsideWorkspace, Workspace
from spyglass.engine.live import LiveIndex

LEXICAL = {"embed": False}
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"

CART = """class Cart:
    def total(self, items):
        return sum(i.price for i in items)

    def discount(self, code):
        return 0.1 if code == "SAVE10" else 0.0
"""


def _shop(root: Path) -> Repo:
    repo = Repo(root)
    repo.commit("Add the cart", {"shop/cart.py": CART, "README.md": "# Shop\n"})
    repo.commit(
        "Fix the coupon discount: SAVE10 took 10% off instead of 15%",
        {"shop/cart.py": CART.replace("return 0.1 if", "return 0.15 if")},
    )
    repo.commit("Document the shop", {"README.md": "# Shop\n\nA small shop.\n"})
    return repo


def _open(root: Path, **overrides) -> Workspace:
    return Workspace.open(root, writer=True, overrides={**LEXICAL, **overrides})


def test_indexing_reads_each_commit_with_its_files_and_the_definitions_it_changed(tmp_path):
    repo = _shop(tmp_path / "w")
    with _open(repo.root) as ws:
        report = ws.index()
        assert (report.history_commits, report.history_added) == (3, 3)
        answer = ws.history("when did the coupon discount change")
        fix = answer.commits[0]
        assert fix.subject.startswith("Fix the coupon discount") and fix.date == "2026-01-02T12:00:00+00:00"
        assert [(f.path, f.added, f.deleted) for f in fix.files] == [("shop/cart.py", 1, 1)]
        [touched] = fix.files[0].symbols
        assert touched.name == "Cart.discount"
        assert ws.span(touched.span_id).status == "current"  # the definition as it is today
        assert "return 0.15" in ws.span(touched.span_id).text
        state = answer.history
        assert (state.head, state.branch, state.commits) == (repo.head(), "main", 3)
        assert (state.oldest, state.newest) == ("2026-01-01T12:00:00+00:00", "2026-01-03T12:00:00+00:00")
        assert [(h.path, h.commits) for h in ws.hot_files()] == [("README.md", 2), ("shop/cart.py", 2)]


def test_a_commit_that_changed_a_named_definition_comes_first(tmp_path):
    repo = _shop(tmp_path / "w")
    cart = (repo.root / "shop/cart.py").read_text()
    repo.commit("Speed up totals", {"shop/cart.py": cart.replace("sum(i.price", "sum(i.price * 1")})
    with _open(repo.root) as ws:
        ws.index()
        # one name: the commits that changed that definition, newest first (git log -L)
        changed = [c.subject for c in ws.history("Cart.discount").commits]
        assert changed[0].startswith("Fix the coupon") and changed[1] == "Add the cart"
        added = [c for c in ws.history("", path="shop/cart.py").commits if c.subject == "Add the cart"][0]
        assert {s.name for s in added.files[0].symbols} == {"Cart.total", "Cart.discount"}  # a new file: all of it
        assert ws.history("total").commits[0].subject == "Speed up totals"
        newest_first = [c.subject for c in ws.history("", path="README.md").commits]
        assert newest_first == ["Document the shop", "Add the cart"]
        touching = {c.subject for c in ws.history("cart", path="shop").commits}
        assert touching == {"Add the cart", "Speed up totals", ws.history("coupon").commits[0].subject}
        with pytest.raises(OutsideWorkspace):
            ws.history("x", path="../elsewhere")


def test_new_commits_are_read_alone_and_rewritten_ones_are_dropped(tmp_path):
    repo = _shop(tmp_path / "w")
    with _open(repo.root) as ws:
        ws.index()
        repo.commit("Add a refund rule", {"shop/refund.py": "def refund(order):\n    return order.total\n"})
        report = ws.sync_history()
        assert (report.added, report.removed, report.commits) == (1, 0, 4)
        assert ws.sync_history().added == 0  # HEAD did not move: nothing is read
        repo.git("reset", "-q", "--hard", "HEAD~2")  # the refund and the docs commit are gone
        report = ws.sync_history()
        assert (report.added, report.removed, report.commits) == (0, 2, 2)
        assert ws.history("refund rule").commits == []
        repo.git("checkout", "-q", "-b", "other")
        repo.commit("Another branch's change", {"shop/other.py": "X = 1\n"})
        assert ws.sync_history().added == 1
        assert ws.history_state().branch == "other"


def test_a_commit_whose_objects_are_missing_keeps_its_message_and_the_rest_is_read(tmp_path):
    repo = _shop(tmp_path / "w")
    repo.commit("Add the ledger", {"shop/ledger.py": "def balance(entries):\n    return sum(entries)\n"})
    blob = repo.git("rev-parse", "HEAD:shop/ledger.py").strip()
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()  # as in a partial or damaged clone
    repo.commit(
        "Add the refunds",  # and change the ledger, so git cannot take the lost version from the work tree
        {
            "shop/refund.py": "def refund(order):\n    return order\n",
            "shop/ledger.py": "def balance(e):\n    return 0\n",
        },
    )
    repo.commit("Add the taxes", {"shop/tax.py": "def tax(amount):\n    return amount\n"})
    with _open(repo.root) as ws:
        report = ws.index()
        assert report.history_commits == 6
        for subject in ("Add the ledger", "Add the refunds"):  # their diffs need the lost version
            [commit] = [c for c in ws.history(subject).commits if c.subject == subject]
            assert commit.files == []
        assert ws.history("taxes").commits[0].files[0].symbols[0].name == "tax"
        assert ws.history_state().head == repo.head()  # complete: the next sync reads nothing again
        assert ws.sync_history().added == 0


def test_the_depth_setting_bounds_the_history_and_zero_turns_it_off(tmp_path):
    repo = _shop(tmp_path / "w")
    with _open(repo.root, history_commits=2) as ws:
        assert ws.index().history_commits == 2
        assert [c.subject for c in ws.history("").commits] == [
            "Document the shop",
            "Fix the coupon discount: SAVE10 took 10% off instead of 15%",
        ]
    with _open(repo.root, history_commits=0) as ws:
        ws.index()
        assert ws.history_state().commits == 0 and ws.hot_files() == []


def test_secrets_in_messages_are_redacted_and_secret_files_never_listed(tmp_path):
    repo = _shop(tmp_path / "w")
    repo.commit(
        f"Wire the client\n\nexport GITHUB_TOKEN={TOKEN}", {".env": f"TOKEN={TOKEN}\n", "shop/client.py": "X = 1\n"}
    )
    with _open(repo.root) as ws:
        ws.index()
        [commit] = ws.history("wire the client").commits
        assert TOKEN not in commit.message and "[REDACTED:" in commit.message
        assert [f.path for f in commit.files] == ["shop/client.py"]
        assert ws.history(TOKEN[:20]).commits == []  # the value is not searchable either
        assert ".env" not in {h.path for h in ws.hot_files()}


def test_a_workspace_inside_a_repository_sees_only_its_own_folder(tmp_path):
    repo = _shop(tmp_path / "repo")
    repo.commit("Change the docs only", {"docs/guide.md": "# Guide\n"})
    with _open(repo.root / "shop") as ws:
        ws.index()
        subjects = [c.subject for c in ws.history("").commits]
        assert subjects == ["Fix the coupon discount: SAVE10 took 10% off instead of 15%", "Add the cart"]
        assert {f.path for c in ws.history("").commits for f in c.files} == {"cart.py"}  # relative to the workspace


def test_outside_git_there_is_no_history_and_the_index_says_why(tmp_path):
    root = tmp_path / "plain"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    with _open(root) as ws:
        report = ws.index()
        assert report.history_commits == 0 and report.spans_written > 0
        state = ws.history_state()
        assert state.commits == 0 and state.error and "not in a git repository" in state.error
        assert ws.history("anything").commits == []


def test_a_budget_cuts_commits_but_always_returns_the_first(tmp_path):
    repo = _shop(tmp_path / "w")
    repo.commit("A long story\n\n" + "Because of many reasons. " * 400, {"shop/x.py": "Y = 2\n"})
    with _open(repo.root) as ws:
        ws.index()
        answer = ws.history("story reasons", k=5, max_tokens=150)
        assert answer.truncated and len(answer.commits) == 1
        assert len(answer.commits[0].message) < 1000


@pytest.mark.slow
def test_a_live_index_follows_commits_that_change_no_file(tmp_path):
    repo = _shop(tmp_path / "w")
    ws = Workspace.open(repo.root, writer=True, overrides=LEXICAL)
    live = LiveIndex(ws).start()
    try:
        assert live.wait_idle(timeout=60)
        assert ws.history_state().head == repo.head()
        repo.write("shop/tax.py", "def tax(amount):\n    return amount * 0.2\n")
        repo.git("add", "-A")
        time.sleep(0.5)
        assert live.wait_idle(timeout=60)
        sha = repo.commit("Add the tax rule")  # only .git changes now
        deadline = time.monotonic() + 15
        while ws.history_state().head != sha and time.monotonic() < deadline:
            time.sleep(0.1)
        assert ws.history_state().head == sha
        [commit] = ws.history("tax rule").commits
        assert commit.files[0].symbols[0].name == "tax"
    finally:
        live.stop()


def test_file_recency_counts_how_often_and_how_lately_a_file_changed(tmp_path):
    repo = Repo(tmp_path / "w")
    for n in range(3):
        repo.commit(f"Tune a {n}", {"a.py": f"A = {n}\n"})
    repo.commit("Touch b", {"b.py": "B = 1\n"})
    with _open(repo.root) as ws:
        ws.index()
        recency = ws.store.file_recency(half_life=1.0)
    # a.py: ages 1, 2, 3 -> 0.5 + 0.25 + 0.125 = 0.875; b.py: age 0 -> 1.0 (the busiest is 1)
    assert recency == {"b.py": 1.0, "a.py": pytest.approx(0.875)}


def test_the_recency_signal_raises_recently_changed_files_only_when_turned_on(tmp_path):
    from dataclasses import replace

    from spyglass.engine.search.config import DEFAULT_RANKING

    repo = Repo(tmp_path / "w")
    body = "def refund_order(order):\n    '''Refund an order to its card.'''\n    return order.total\n"
    repo.commit("Add refunds", {"old/refund.py": body, "new/refund.py": body})
    for n in range(5):
        repo.commit(f"Rework new refunds {n}", {"new/refund.py": body + f"\n\nVERSION = {n}\n"})
    with _open(repo.root) as ws:
        ws.index()
        plain = [h.path for h in ws.search("refund an order", k=5, cut=False).results]
        ws.searcher.config = replace(DEFAULT_RANKING, recency=0.3)
        recent = [h.path for h in ws.search("refund an order", k=5, cut=False).results]
    assert plain[0] == "old/refund.py"  # without recency: the copy with nothing but the function
    assert recent[0] == "new/refund.py"


def test_odd_file_names_come_back_as_they_are(tmp_path):
    repo = Repo(tmp_path / "w")
    names = ["src/naïve file.py", "src/tab\tname.py", 'src/quote"d.py', "src/ b/x.py"]
    repo.commit("Add odd names", {name: "def f():\n    return 1\n" for name in names})
    with _open(repo.root) as ws:
        ws.index()
        [commit] = ws.history("odd names").commits
        assert sorted(f.path for f in commit.files) == sorted(names)
        assert all(f.symbols[0].name == "f" and f.symbols[0].span_id for f in commit.files)


def test_a_patch_holding_separator_bytes_is_read_whole(tmp_path):
    repo = Repo(tmp_path / "w")
    repo.commit("Add the table", {"data/table.py": 'ROWS = "a\x1eb\x1fc\x00"\n'.replace("\x00", "\x1d")})
    repo.commit("Extend the table", {"data/table.py": 'ROWS = "a\x1eb\x1fc\x1d\x1ed"\n'})
    repo.commit("Unrelated", {"x.py": "X = 1\n"})
    with _open(repo.root) as ws:
        assert ws.index().history_commits == 3
        touched = {c.subject: [f.path for f in c.files] for c in ws.history("").commits}
    assert touched == {"Add the table": ["data/table.py"], "Extend the table": ["data/table.py"], "Unrelated": ["x.py"]}


def test_recency_is_off_by_default_and_a_setting_turns_it_on(tmp_path):
    repo = Repo(tmp_path / "w")
    body = "def refund_order(order):\n    '''Refund an order to its card.'''\n    return order.total\n"
    repo.commit("Add refunds", {"old/refund.py": body, "new/refund.py": body + "\n\nVERSION = 0\n"})
    for n in range(5):
        repo.commit(f"Rework new refunds {n}", {"new/refund.py": body + f"\n\nVERSION = {n + 1}\n"})
    with _open(repo.root) as ws:
        ws.index()
        assert ws.searcher.config.recency == 0
        assert ws.search("refund an order", k=5, cut=False).results[0].path == "old/refund.py"
    with _open(repo.root, search={"recency": 4}) as ws:  # two files: reciprocal ranks differ little
        assert ws.search("refund an order", k=5, cut=False).results[0].path == "new/refund.py"
