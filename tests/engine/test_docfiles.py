"""Rust documentation kept in files of its own (``#[doc = include_str!("x.md")]``) is the doc of its module or
item, read only from files the index itself would index, with secrets redacted (engine/docfiles.py)."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from spyglass.engine.docfiles import included_path
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
