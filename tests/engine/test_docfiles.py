"""Rust documentation kept in files of its own (``#[doc = include_str!("x.md")]``) is the doc of its module or
item, read only from files the index itself would index, with secrets redacted (engine/docfiles.py)."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from spyglass.engine.docfiles import INCLUDED_CHARS, MAX_INCLUDES, included_path, with_included_docs
from spyglass.engine.parsing import parse_spans
from spyglass.engine.workspace import Workspace

GITHUB = "ghp_" + "a1B2" * 9

MOD_RS = """\
#![doc = include_str!("../docs/extract.md")]

mod raw_form;

pub use self::raw_form::RawForm;

pub struct Router;

impl Router {
    #[doc = include_str!("../docs/nest.md")]
    #[doc(alias = "scope")] // other libraries call it a scope
    #[track_caller]
    pub fn nest(self, path: &str) -> Self {
        self
    }

    #[doc = include_str!("../../../outside.md")]
    pub fn escape(self) -> Self {
        self
    }

    #[doc = include_str!("../docs/private.md")]
    pub fn private(self) -> Self {
        self
    }
}
"""

FILES = {
    "src/extract/mod.rs": MOD_RS,
    "src/extract/raw_form.rs": "pub struct RawForm(pub Vec<u8>);\n",
    "src/docs/extract.md": "Types and traits for pulling typed values out of an incoming request.\n",
    "src/docs/nest.md": f"Mount a whole sub-application under a prefix. Token: {GITHUB}\n",
    "src/docs/private.md": "Confidential roadmap notes.\n",
    ".spyglassignore": "src/docs/private.md\n",
}


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "crate"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (tmp_path / "outside.md").write_text("Words from outside the workspace.\n", encoding="utf-8")
    return root


def _docs(root: Path) -> dict[str, str]:
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.index()
    return _stored_docs(root)


def _stored_docs(root: Path) -> dict[str, str]:
    con = apsw.Connection(str(root / ".spyglass" / "index.db"), flags=apsw.SQLITE_OPEN_READONLY)
    rows = con.execute(
        "SELECT s.kind, s.name, s.doc FROM spans s JOIN files f ON f.id = s.file_id WHERE f.path = 'src/extract/mod.rs'"
    )
    return {("file" if kind == "module" else name): doc for kind, name, doc in rows}


def test_an_inner_doc_attribute_gives_the_module_its_documentation(tmp_path: Path):
    root = _workspace(tmp_path)
    docs = _docs(root)
    assert docs["file"].startswith("Types and traits for pulling typed values out of an incoming request.")
    with Workspace.open(root, overrides={"embed": False}) as ws:
        first = ws.search("pulling typed values out of an incoming request", per_file=1).results[0]
    assert first.path == "src/extract/mod.rs"


def test_an_outer_doc_attribute_documents_its_item_past_a_trailing_comment(tmp_path: Path):
    docs = _docs(_workspace(tmp_path))
    nest = docs["nest"]
    assert nest.startswith("Mount a whole sub-application under a prefix")
    assert GITHUB not in nest and "[REDACTED:" in nest  # the included file's secrets are redacted


def test_nothing_outside_the_workspace_or_ignored_becomes_a_doc(tmp_path: Path):
    docs = _docs(_workspace(tmp_path))
    assert docs["escape"] == "" and docs["private"] == ""
    assert not any("outside the workspace" in d or "Confidential" in d for d in docs.values())


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        ("src/extract/mod.rs", "../docs/extract.md", "src/docs/extract.md"),
        ("src/lib.rs", "../README.md", "README.md"),
        ("lib.rs", "docs/a.md", "docs/a.md"),
        ("src/lib.rs", "../../etc/passwd", None),
        ("src/lib.rs", "/etc/passwd", None),
        ("src/lib.rs", "..\\..\\secret", None),
        ("lib.rs", ".", None),
    ],
)
def test_include_paths_are_relative_to_the_source_file_and_stay_inside(source, target, expected):
    assert included_path(source, target) == expected


def test_a_comment_after_an_attribute_keeps_the_attributes_in_the_span():
    spans = parse_spans("src/extract/mod.rs", MOD_RS.encode()).spans
    nest = next(s for s in spans if s.name == "nest")
    assert nest.text.lstrip().startswith('#[doc = include_str!("../docs/nest.md")]')
    assert nest.start_line == 10


def test_a_changed_or_deleted_doc_file_refreshes_what_it_documents(tmp_path: Path):
    root = _workspace(tmp_path)
    _docs(root)
    (root / "src/docs/extract.md").write_text("Extractors read headers, bodies and paths.\n", encoding="utf-8")
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.update_file("src/docs/extract.md")
    assert _stored_docs(root)["file"].startswith("Extractors read headers, bodies and paths.")
    (root / "src/docs/extract.md").unlink()
    assert _docs(root)["file"] == ""  # a full sync sees the deletion too


def test_a_doc_file_written_marks_what_reads_it_so_no_crash_or_cancel_leaves_it_stale(tmp_path: Path):
    root = _workspace(tmp_path)
    _docs(root)
    md = root / "src/docs/extract.md"
    md.write_text("Extractors read headers, bodies and paths.\n", encoding="utf-8")
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        st = md.stat()
        ws.store.write_file(  # the Markdown's new text is written, and the process stops before anything else
            "src/docs/extract.md",
            size=st.st_size,
            mtime_ns=st.st_mtime_ns,
            language="markdown",
            content_hash="x",
            parse_errors=False,
            records=[],
        )
        assert ws.store.stale_documented() == ["src/extract/mod.rs"]
    assert _docs(root)["file"].startswith("Extractors read headers, bodies and paths.")  # the next sync


def test_an_unsaved_doc_buffer_changes_nothing_until_it_is_saved(tmp_path: Path):
    root = _workspace(tmp_path)
    before = _docs(root)["file"]
    md = root / "src/docs/extract.md"
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.update_file(md, text="Typed values, unsaved.\n")
        assert _stored_docs(root)["file"] == before  # the includer reads the disk, which has not changed
        md.write_text("Typed values, saved.\n", encoding="utf-8")
        ws.update_file(md)
        assert _stored_docs(root)["file"].startswith("Typed values, saved.")


def test_a_refresh_keeps_the_tree_of_the_file_the_update_was_for(tmp_path: Path):
    root = _workspace(tmp_path)
    (root / "src/a.rs").write_text('#![doc = include_str!("b.rs")]\npub fn a() {}\n', encoding="utf-8")
    (root / "src/b.rs").write_text("pub fn b() {}\n", encoding="utf-8")
    _docs(root)
    (root / "src/b.rs").write_text("pub fn b() {}\npub fn c() {}\n", encoding="utf-8")
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        report = ws.update_file("src/b.rs")
        assert report.parse_tree is not None and b"pub fn c()" in report.parse_tree.root_node.text


def test_a_hostile_include_is_read_once_bounded_and_never_crashes_the_index(tmp_path: Path):
    root = _workspace(tmp_path)
    padding = 'const PAD: &str = "' + "x" * 9000 + '";\n\n'  # past the binary sniff of the first 8 KB
    hostile = padding + '#[doc = include_str!("a\0b.md")]\npub fn nul() {}\n'
    hostile += "".join(f'#![doc = include_str!("../README{i % 3}.md")]\n' for i in range(500)) + "pub fn many() {}\n"
    (root / "src/hostile.rs").write_text(hostile, encoding="utf-8")
    for i in range(3):
        (root / f"README{i}.md").write_text(f"Readme {i}. " * 20000, encoding="utf-8")
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        assert ws.index().parsed >= 1
        rows = list(
            ws.store.con.execute(
                "SELECT s.name, s.doc FROM spans s JOIN files f ON f.id = s.file_id WHERE f.path = 'src/hostile.rs'"
            )
        )
    module_docs = [doc for name, doc in rows if name == "hostile.rs"]
    assert len(module_docs) == 5  # a long file's module span comes in parts: each has the doc
    assert all(d.startswith("Readme 0.") and len(d) <= INCLUDED_CHARS for d in module_docs)
    assert dict(rows)["nul"] == ""

    asked: list[str] = []

    def read(rel: str) -> str:
        asked.append(rel)
        return ""  # nothing to add: every target would be tried, up to the bound

    span = parse_spans("src/hostile.rs", hostile.encode()).spans[0]
    with_included_docs("src/hostile.rs", "rust", [span], read)
    assert len(asked) == len(set(asked)) <= MAX_INCLUDES
