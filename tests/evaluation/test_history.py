"""Queries from a repository's bug-fix commits: which commits qualify, the query text, the gold symbols."""

import json
import subprocess
from pathlib import Path

from gitrepo import _env, commit, git

from spyglass.cli.main import main
from spyglass.evaluation.dataset import load_queries
from spyglass.evaluation.history import changed_lines, from_history, query_text
from spyglass.evaluation.runner import EvalConfig, _groups

SERVER_GO = """package srv

type Server struct {
\tport int
}

func (s *Server) Start() error {
\tif s.port == 0 {
\t\treturn nil
\t}
\treturn nil
}

func helper() int {
\treturn 1
}
"""


def make_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A bare snapshot at <mirrors>/acme+srv/repo of a small Go project with fixes, chores and tests."""
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    shas = {"base": commit(work, "initial import", {"srv/server.go": SERVER_GO, "README.md": "# srv\n"})}
    shas["start"] = commit(
        work,
        "Fix crash in Start when the port is unset (#12)\n\nStart dereferenced a nil config.\n\n"
        "Signed-off-by: A Dev <a@example.com>\nFixes #11",
        {
            "srv/server.go": SERVER_GO.replace("\t\treturn nil\n\t}", "\t\treturn errNoPort\n\t}"),
            "srv/server_test.go": "package srv\n",
        },
    )
    shas["docs"] = commit(work, "docs: fix typo in the readme", {"README.md": "# srv, a server\n"})
    shas["tests"] = commit(work, "Fix flaky test", {"srv/server_test.go": "package srv\n\n// flaky\n"})
    after_start = (work / "srv/server.go").read_text()
    shas["insert"] = commit(
        work,
        "Fix missing stop: servers could not be stopped",
        {"srv/server.go": after_start.replace("func helper", "func (s *Server) Stop() {}\n\nfunc helper")},
    )
    shas["feature"] = commit(work, "Add a Port accessor", {"srv/server.go": after_start + "\n// Port\n"})
    mirrors = tmp_path / "mirrors"
    bare = mirrors / "acme+srv" / "repo"
    bare.parent.mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True, env=_env())
    return mirrors, shas


def test_fix_commits_become_queries_with_the_changed_definitions_as_gold(tmp_path):
    mirrors, shas = make_repo(tmp_path)
    queries = from_history(mirrors / "acme+srv" / "repo", "acme/srv")
    # newest first; the docs chore, the test-only fix and the feature are not queries
    assert [q.meta["fix_commit"] for q in queries] == [shas["insert"], shas["start"]]
    insert, start = queries

    assert start.id == f"acme__srv-{shas['start'][:10]}"
    assert start.repo == "acme/srv" and start.commit == shas["base"]  # the corpus is the parent
    assert start.query == "Fix crash in Start when the port is unset\n\nStart dereferenced a nil config."
    # the test file changed too, but gold is the source: the innermost definition around the changed line
    assert [(g.path, g.symbol) for g in start.gold] == [("srv/server.go", "Server.Start")]

    # a new function between two others belongs to neither: the file alone is the gold
    assert [(g.path, g.symbol) for g in insert.gold] == [("srv/server.go", None)]


def test_query_text_drops_trailers_and_pull_request_numbers_but_keeps_a_scoped_subject():
    message = "ignore: fix deadlock (#3201, #3202)\n\nWorkers stop.\nCloses #3200\nCo-authored-by: B <b@x>\n"
    assert query_text(message) == "ignore: fix deadlock\n\nWorkers stop."


def test_changed_lines_reads_modified_lines_and_insertion_points():
    diff = (
        b"diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n"
        b"@@ -3,2 +3,2 @@ def f():\n-a\n-b\n+c\n+d\n"
        b"@@ -10,0 +11,1 @@\n+new\n"
        b"@@ -20 +21 @@\n-old\n+new\n"
        b"diff --git a/y.py b/y.py\nnew file mode 100644\n--- /dev/null\n+++ b/y.py\n@@ -0,0 +1 @@\n+x\n"
    )
    assert changed_lines(diff) == {"x.py": [(3, 3), (4, 4), (10, 11), (20, 20)]}


def test_cli_writes_queries_that_load_back_and_reports_a_bad_repository(tmp_path, capsys):
    mirrors, shas = make_repo(tmp_path)
    out = tmp_path / "history.jsonl"
    assert main(["eval", "history", "acme/srv", "--mirrors", str(mirrors), "--out", str(out), "--limit", "1"]) == 0
    loaded = load_queries(out)
    assert [q.meta["fix_commit"] for q in loaded] == [shas["insert"]]
    assert json.loads(out.read_text().splitlines()[0])["gold"] == [{"path": "srv/server.go", "symbol": None}]
    assert "1 queries (1 gold files)" in capsys.readouterr().err

    assert main(["eval", "history", "acme/none", "--mirrors", str(mirrors), "--out", str(out)]) == 2
    assert "no git snapshot of acme/none" in capsys.readouterr().err

    assert main(["eval", "history", "acme/srv", "--mirrors", str(mirrors), "--out", str(out), "--limit", "0"]) == 2
    assert "--limit and --max-files must be at least 1" in capsys.readouterr().err


def test_cli_takes_a_path_to_any_git_repository(tmp_path, capsys, monkeypatch):
    mirrors, shas = make_repo(tmp_path)
    work, bare = tmp_path / "work", mirrors / "acme+srv" / "repo"
    git(work, "worktree", "add", "-q", str(tmp_path / "tree"), shas["feature"])
    out = tmp_path / "q.jsonl"
    monkeypatch.chdir(tmp_path)
    paths = {str(work): "work", str(bare): "repo", str(tmp_path / "tree"): "tree", "./work": "work"}
    for path, name in {**paths, str(work / ".git"): "work"}.items():
        assert main(["eval", "history", path, "--out", str(out), "--limit", "1"]) == 0, path
        (q,) = load_queries(out)
        assert q.meta["fix_commit"] == shas["insert"]
        assert q.id == f"{name}-{shas['insert'][:10]}"
        assert q.repo == str(Path(path).resolve())  # absolute, so that `eval run` finds the repository again
    assert "1 queries (1 gold files)" in capsys.readouterr().err
    (group,) = _groups(load_queries(out), EvalConfig(work=tmp_path / "runs"))
    assert group[1] == work / ".git"

    plain = tmp_path / "plain"
    plain.mkdir()
    assert main(["eval", "history", str(plain), "--out", str(out)]) == 2
    assert f"{plain} is not a git repository" in " ".join(capsys.readouterr().err.split())
