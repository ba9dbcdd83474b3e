"""The BM25 control: whole non-test source files in FTS5."""

import os
from pathlib import Path

import pytest

from spyglass.evaluation.baseline import BM25Files, control_files, fts_query, is_test_path, query_terms

CORPUS = {
    "src/auth/login.py": "def check_password(user, password):\n    return hash_password(password) == user.digest\n",
    "src/db/models.py": "class Customer:\n    table = 'customers'\n    def save(self, session): ...\n",
    "src/render/html.ts": "export function renderTemplate(name: string): string { return escapeHtml(name) }\n",
    "cmd/server/main.go": "package main\nfunc main() { listenAndServe(port) }\n",
    "tests/test_login.py": "password password hash digest check_password password\n",
    "src/auth/login_test.go": "password hash digest password\n",
    "docs/passwords.md": "# Password hashing\npassword digest hash\n",
    "setup.cfg": "[metadata]\nname = password\n",
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for rel, text in CORPUS.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_control_files_are_non_test_source_files():
    assert control_files(sorted(CORPUS)) == [
        "cmd/server/main.go",
        "src/auth/login.py",
        "src/db/models.py",
        "src/render/html.ts",
    ]


def test_the_file_naming_the_query_words_ranks_first(root):
    with BM25Files() as bm25:
        stats = bm25.build(root, control_files(sorted(CORPUS)))
        assert (stats.indexed, stats.skipped, len(bm25)) == (4, 0, 4)
        issue = "Login fails: the password hash does not match the stored digest when I check it."
        assert bm25.search(issue, 3)[0] == "src/auth/login.py"
        assert bm25.search("customers table is not saved in the session", 1) == ["src/db/models.py"]
        assert bm25.search("escapeHtml in renderTemplate", 10) == ["src/render/html.ts"]
        assert bm25.search("the path html.ts", 10) == ["src/render/html.ts"]  # paths are indexed too
        assert bm25.search("password", 0) == []


@pytest.mark.parametrize(
    "query",
    [
        'password" OR (hash* NEAR ^digest) -- AND: NOT {path content}: "',
        "col:password * + - ^ ( ) { } [ ] ' \" : NEAR/3 AND OR NOT",
        '"""',
        "",
        "the of and a to",  # stopwords only
        "émigré naïve 密码 password_hash",
        "x\0y password",
    ],
)
def test_fts_syntax_in_the_query_never_breaks_it(root, query):
    with BM25Files() as bm25:
        bm25.build(root, control_files(sorted(CORPUS)))
        hits = bm25.search(query, 5)
    assert isinstance(hits, list)
    if "password" in query.lower():
        assert hits and hits[0] == "src/auth/login.py"


def test_query_terms():
    assert query_terms("The Foo_bar() failed: foo BAR, x = 2; __init__ 42") == ["foo", "bar", "failed", "init", "42"]
    assert len(query_terms(" ".join(f"word{i}" for i in range(200)))) == 64
    assert query_terms("w1 w2 w3", limit=2) == ["w1", "w2"]
    assert fts_query("to be") is None
    assert fts_query('say "hi"') == '"say" OR "hi"'


def test_update_follows_the_files(root):
    paths = control_files(sorted(CORPUS))
    with BM25Files(root / "control.db") as bm25:
        bm25.build(root, paths)
        (root / "src/db/models.py").write_text("class Invoice:\n    pass\n", encoding="utf-8")
        os.utime(root / "src/db/models.py", ns=(1, 1))
        (root / "src/render/html.ts").unlink()
        (root / "src/huge.py").write_text("giant " * 200_000, encoding="utf-8")
        (root / "src/billing.py").write_text("def customers_invoice_total(): ...\n", encoding="utf-8")
        new_paths = [p for p in paths if p != "src/render/html.ts"] + ["src/billing.py", "src/huge.py"]
        stats = bm25.update(root, new_paths)
        assert (stats.indexed, stats.removed, stats.unchanged, stats.skipped) == (2, 1, 2, 1)
        assert bm25.search("customers", 5) == ["src/billing.py"]
        assert bm25.search("invoice", 5)[0] == "src/db/models.py"
        assert bm25.search("renderTemplate", 5) == []
        assert bm25.search("giant", 5) == []
        assert len(bm25) == 4


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tests/test_login.py", True),
        ("pkg/tests/helpers.py", True),
        ("testing/util.py", True),
        ("src/__tests__/app.js", True),
        ("spec/models/user_spec.rb", True),
        ("lib/user_spec.rb", True),
        ("test_core.py", True),
        ("server/handler_test.go", True),
        ("crate/src/parse_tests.rs", True),
        ("web/app.test.tsx", True),
        ("web/app.spec.ts", True),
        ("conftest.py", True),
        ("pkg/conftest.py", True),
        ("src/test/java/FooTest.java", True),
        ("Tests\\Unit\\Thing.cs", True),
        ("src/main.py", False),
        ("src/attest.py", False),
        ("src/latest/contest.py", False),
        ("src/testutils.py", False),
        ("src/_pytest/python.py", False),
        ("src/specs.py", False),
        ("docs/test", False),
        ("", False),
    ],
)
def test_is_test_path(path, expected):
    assert is_test_path(path) is expected


def test_split_identifiers_finds_camel_case_parts(tmp_path: Path):
    (tmp_path / "a.ts").write_text("export function renderTemplate(name) {}\n", encoding="utf-8")
    (tmp_path / "b.ts").write_text("const other = 1\n", encoding="utf-8")
    assert query_terms("renderTemplate engine", split=True) == ["rendertemplate", "render", "template", "engine"]
    assert query_terms("renderTemplate engine") == ["rendertemplate", "engine"]
    with BM25Files() as plain:
        plain.build(tmp_path, ["a.ts", "b.ts"])
        assert plain.search("render the template", 5) == []
    with BM25Files(split_identifiers=True) as split:
        split.build(tmp_path, ["a.ts", "b.ts"])
        assert split.search("render the template", 5) == ["a.ts"]
        assert split.search("renderTemplate", 5) == ["a.ts"]
