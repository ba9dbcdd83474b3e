"""Nothing outside the workspace is read or returned, whatever path or span ID a client sends: `..`,
absolute paths, encoded forms, backslashes, NUL, file:// URIs, /proc, a sibling folder whose name starts
with the workspace's, and symlinks (relative, absolute, chains, to folders, to /etc/passwd, to
/proc/self/environ). Every attempt is refused (OutsideWorkspace, or an answer that reads nothing)."""

from pathlib import Path

import pytest

from spyglass.engine import Workspace
from spyglass.engine.errors import OutsideWorkspace

OUTSIDE_MARK = "OUTSIDE_CONTENT_7f3a"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("confine")
    root, sibling = base / "ws", base / "ws-evil"
    (root / "sub").mkdir(parents=True)
    (root / ".git").mkdir()
    sibling.mkdir()
    (root / "a.py").write_text("def inside():\n    return 1\n")
    (sibling / "x.py").write_text(f"def outside():\n    return '{OUTSIDE_MARK}'\n")
    (root / "passwd.py").symlink_to("/etc/passwd")
    (root / "environ.py").symlink_to("/proc/self/environ")
    (root / "evil").symlink_to(sibling, target_is_directory=True)
    (root / "rel.py").symlink_to("../ws-evil/x.py")
    (root / "chain.py").symlink_to("rel.py")
    (root / "sub" / "up").symlink_to("../..", target_is_directory=True)
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        yield ws, root, sibling


def attacks(root: Path, sibling: Path) -> list[str]:
    x = sibling / "x.py"
    return [
        "../ws-evil/x.py",
        str(x),
        "/etc/passwd",
        "/proc/self/environ",
        "/proc/self/cwd/a.py/../../ws-evil/x.py",
        f"{root}/../ws-evil/x.py",
        f"{root}-evil/x.py",
        "..%2Fws-evil%2Fx.py",
        "..%252Fws-evil%252Fx.py",
        "%2e%2e/ws-evil/x.py",
        "..\\ws-evil\\x.py",
        "..\\\\ws-evil\\\\x.py",
        "a.py\x00../../etc/passwd",
        "\x00",
        f"file://{x}",
        "file:///etc/passwd",
        "passwd.py",
        "environ.py",
        "evil/x.py",
        "rel.py",
        "chain.py",
        "sub/up/ws-evil/x.py",
        "sub/../../ws-evil/x.py",
        "a.py/../../ws-evil/x.py",
        "~/.bashrc",
        "/",
        "//etc/passwd",
        "./../ws-evil/x.py",
    ]


def _calls(ws: Workspace):
    return {
        "span": lambda p: ws.span(f"{p}:1-2#0000000000", context_lines=50),
        "context": lambda p: ws.context(p, 1),
        "related": lambda p: ws.related(p, 1),
        "span_at": lambda p: ws.span_at(p, 1),
    }


def test_every_path_attempt_is_refused_and_reads_nothing_outside(workspace):
    ws, root, sibling = workspace
    tried = refused = 0
    for attack in attacks(root, sibling):
        for name, call in _calls(ws).items():
            tried += 1
            try:
                answer = call(attack)
            except (OutsideWorkspace, ValueError):
                refused += 1
                continue
            shown = repr(answer)
            assert OUTSIDE_MARK not in shown and "root:x:0:0" not in shown and "PATH=" not in shown, (name, attack)
            assert getattr(answer, "text", "") == "", (name, attack)  # nothing read, whatever the answer says
    assert tried >= 100 and refused >= 60


def test_nothing_outside_was_indexed_through_a_symlink(workspace):
    ws, _, _ = workspace
    texts = [t for (t,) in ws.store.con.execute("SELECT text FROM spans")]
    assert texts and not any(OUTSIDE_MARK in t or "root:x:0:0" in t for t in texts)
    skipped = {s.path: s.reason for s in ws.status().skipped_files}
    assert skipped["passwd.py"] == skipped["rel.py"] == skipped["evil"] == "symlink outside root"
    assert ws.search(OUTSIDE_MARK, k=5).results == []
