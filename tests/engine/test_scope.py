"""A scoped search (globs, paths, languages, kinds) ranks only what is in scope: every retriever is restricted
before ranking, so the confidence floor is relative to the scoped candidates, not to the whole workspace."""

from pathlib import Path

from spyglass.engine.search import SearchFilters
from spyglass.engine.workspace import Workspace


def _symbols(result: dict) -> set[str]:
    return {r.symbol for r in result.results}


def test_a_glob_scopes_every_retriever_before_ranking(scoped_workspace: Path, transport_functions: tuple[str, ...]):
    with Workspace.open(scoped_workspace, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        whole = ws.search("timeout", k=10)
        assert not any(r.path.startswith("pkg/transports/") for r in whole.results)
        scoped = ws.search("timeout", k=10, filters=SearchFilters(globs=["pkg/transports/*"]))
        assert all(r.path.startswith("pkg/transports/") for r in scoped.results)
        assert set(transport_functions) <= _symbols(scoped)


def test_languages_kinds_and_test_folders_scope_before_ranking_too(scoped_workspace: Path):
    (scoped_workspace / "notes.md").write_text("# Timeouts\n\nEvery timeout is a timeout.\n", encoding="utf-8")
    (scoped_workspace / "tests").mkdir()
    (scoped_workspace / "tests" / "test_sockets.py").write_text(
        "def test_read_gives_up():\n    assert read_until_deadline(slow(), Limits(seconds=0.1)) is None  # timeout\n",
        encoding="utf-8",
    )
    with Workspace.open(scoped_workspace, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        prose = ws.search("timeout", filters=SearchFilters(languages=["markdown"]))
        assert [r.path for r in prose.results] == ["notes.md"]
        modules = ws.search("timeout", k=50, filters=SearchFilters(kinds=["module"]))
        assert {r.kind for r in modules.results} == {"module"} and len(modules.results) > 1
        # a scope of tests (or of prose) is not lowered by the test (or prose) prior under the floor
        tests = ws.search("timeout", filters=SearchFilters(globs=["tests/*"]))
        assert [r.symbol for r in tests.results] == ["test_read_gives_up"]


def test_a_folder_of_prose_is_not_lowered_by_the_prose_prior(shop: Path):
    """Scoped to ``docs/``, whose candidates are all prose, a description finds the doc that answers it: the
    prose prior would lower every candidate alike, under the confidence floor."""
    with Workspace.open(shop, writer=True, overrides={}) as ws:
        ws.index()
        in_docs = ws.search("coupon codes", filters=SearchFilters(globs=["docs/**"])).results
        assert in_docs and all(r.path.startswith("docs/") for r in in_docs)
        assert in_docs[0].symbol == "Pricing.Coupons"


def test_a_scoped_hybrid_search_reads_vectors_in_scope_only(scoped_workspace: Path, transport_functions: tuple):
    with Workspace.open(scoped_workspace, writer=True, memory_vectors=True) as ws:
        ws.index()
        scoped = ws.search("timeout", k=10, filters=SearchFilters(globs=["pkg/transports/*"]))
        assert scoped.index.mode == "hybrid"
        assert set(transport_functions) <= _symbols(scoped)
    with Workspace.open(scoped_workspace) as ws:  # a one-shot reader: sqlite-vec's kNN, not the memory copy
        scoped = ws.search("timeout", k=10, filters=SearchFilters(globs=["pkg/transports/*"]))
        assert set(transport_functions) <= _symbols(scoped)
