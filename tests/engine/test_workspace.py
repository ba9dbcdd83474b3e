"""The engine end to end through its facade: real files, real SQLite, the real model."""

import dataclasses
import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from spyglass.engine import indexer
from spyglass.engine.answers import SearchAnswer
from spyglass.engine.errors import IndexCorrupt, IndexFromFuture, IndexMissing, OutsideWorkspace
from spyglass.engine.migrations import SCHEMA_VERSION
from spyglass.engine.search import DEFAULT_RANKING, TIERS, Searcher, SearchFilters
from spyglass.engine.store import Store
from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}


def _paths(result: SearchAnswer) -> list[str]:
    return [r.path for r in result.results]


def test_index_search_and_incremental_updates_with_the_model(polyglot: Path):
    with Workspace.open(polyglot, writer=True) as ws:
        first = ws.index()
        assert first.model_error is None
        assert first.added == first.seen >= 16 and first.parsed == first.seen
        fresh = ws.freshness()
        assert fresh.embedded_fraction == 1.0 and fresh.pending_embeddings == 0
        assert set(ws.store.languages()) >= {
            "python",
            "javascript",
            "typescript",
            "tsx",
            "go",
            "rust",
            "java",
            "c",
            "cpp",
            "csharp",
            "ruby",
            "php",
            "bash",
            "markdown",
        }

        result = ws.search("add an item to the shopping cart and compute the total", k=5)
        assert result.index.mode == "hybrid"
        assert "cart.js" in _paths(result)[:3]
        hit = result.results[0]
        assert {f.name for f in dataclasses.fields(hit)} == {
            "id",
            "path",
            "start_line",
            "end_line",
            "kind",
            "symbol",
            "language",
            "score",
            "snippet",
            "snippet_start_line",
            "match_line",
            "why",
            "file_matches",
        }
        assert 0 < hit.score <= 1 and hit.start_line <= hit.end_line and hit.file_matches >= 1

        # nothing changed: no parsing, no embedding
        again = ws.index()
        assert (again.parsed, again.texts_embedded, again.unchanged) == (0, 0, first.seen)

        # one edited file: only it is parsed, only its new span is embedded
        path = polyglot / "inventory.py"
        path.write_text(path.read_text() + "\n\ndef restock_from_supplier(order):\n    return order.items\n")
        edited = ws.index()
        assert edited.changed_paths == ["inventory.py"] and edited.parsed == 1
        assert 1 <= edited.texts_embedded <= 2  # the new function, and the module skeleton that lists it
        assert "restock_from_supplier" in [r.symbol for r in ws.search("restock_from_supplier").results]

        # a rename embeds only the module span, which is named by its path; a revert embeds nothing
        (polyglot / "server.go").rename(polyglot / "server_moved.go")
        renamed = ws.index()
        assert renamed.deleted_paths == ["server.go"] and renamed.texts_embedded == 1
        assert renamed.vectors_reused > 0
        path.write_text(path.read_text().split("\n\ndef restock_from_supplier")[0])
        reverted = ws.index()
        assert reverted.parsed == 1 and reverted.texts_embedded == 0

        # a deleted file disappears from results
        (polyglot / "cart.js").unlink()
        assert ws.index().deleted == 1
        assert "cart.js" not in _paths(ws.search("shopping cart total"))


def test_functions_of_every_newly_parsed_language_are_found_by_name(polyglot: Path):
    expected = {  # query -> (language, path, kind, symbol, start line)
        "formatCents": ("kotlin", "Orders.kt", "function", "formatCents", 56),
        "trialBalance": ("scala", "Ledger.scala", "method", "Ledger.trialBalance", 50),
        "totalDuration": ("swift", "Playlist.swift", "method", "Playlist.totalDuration", 45),
        "enqueue": ("elixir", "stack.ex", "function", "Collections.Queue.enqueue", 53),
        "total_weight": ("lua", "inventory.lua", "method", "Inventory.total_weight", 37),
        "clamp": ("zig", "ring.zig", "function", "clamp", 61),
        "perimeter": ("haskell", "Shapes.hs", "function", "perimeter", 38),
        "parseTask": ("dart", "todo.dart", "function", "parseTask", 59),
        "toggleTodo": ("vue", "TodoList.vue", "function", "toggleTodo", 15),
        "formatCount": ("svelte", "Counter.svelte", "function", "formatCount", 2),
        "slugify": ("astro", "Card.astro", "function", "slugify", 11),
        "fetchPath": ("objective-c", "Downloader.m", "method", "Downloader.fetchPath", 37),
        "rotate": ("perl", "Rotate.pm", "function", "rotate", 8),
        "Publish-Build": ("powershell", "Deploy.ps1", "function", "Publish-Build", 5),
        "smooth_readings": ("python", "readings.ipynb", "function", "smooth_readings", 49),
        "launch_softmax": ("cuda", "softmax.cu", "function", "launch_softmax", 37),
        "innovation": ("julia", "Kalman.jl", "function", "KalmanFilters.innovation", 43),
        "clip_edges": ("matlab", "smooth_signal.m", "function", "clip_edges", 37),
        "signed_amount": ("ocaml", "ledger.ml", "function", "signed_amount", 37),
        "splitSegments": ("fsharp", "Routing.fs", "function", "Shop.Web.Routing.splitSegments", 31),
        "withRetry": ("groovy", "Retry.groovy", "function", "withRetry", 42),
        "fromShares": ("solidity", "Vault.sol", "function", "fromShares", 17),
        "circle_area": ("fortran", "geometry.f90", "function", "geometry.circle_area", 35),
    }
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        for query, (language, path, kind, symbol, start) in expected.items():
            top = ws.search(query).results[0]
            assert (top.language, top.path, top.kind, top.symbol, top.start_line) == (
                language,
                path,
                kind,
                symbol,
                start,
            ), query
            only = ws.search(query, filters=SearchFilters(languages=[language])).results
            assert only and all(r.language == language for r in only)


def test_filters_and_empty_results(polyglot: Path):
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        only_go = ws.search("server handler", filters=SearchFilters(languages=["go"]))
        assert only_go.results and all(r.language == "go" for r in only_go.results)
        only_classes = ws.search("cart", filters=SearchFilters(kinds=["class"]))
        assert all(r.kind == "class" for r in only_classes.results)
        globbed = ws.search("cart", filters=SearchFilters(globs=["*.ts*"]))
        assert all(r.path.endswith((".ts", ".tsx")) for r in globbed.results)
        assert ws.search("zzqxy nonexistentword").results == []
        lexical = ws.search("cart")
        assert lexical.index.mode == "lexical" and lexical.index.note

        files = ws.search("add item to cart", k=20, per_file=1).results
        assert len({r.path for r in files}) == len(files) > 1  # one result per file: a ranking of files
        # the spans' files come in the files' order, but for the rules that re-order a description's spans
        # across files once they are ranked (code that runs, and does more, first: ranking.code_before_data)
        ws.searcher.config = replace(ws.searcher.config, words_code_first=False, words_short_code=(0, 0.0))
        spans = ws.search("add item to cart", k=20).results
        assert [r.path for r in files] == list(dict.fromkeys(r.path for r in spans))[: len(files)]
        by_path = {}
        for r in spans:
            by_path[r.path] = by_path.get(r.path, 0) + 1
        assert all(r.file_matches >= by_path.get(r.path, 1) for r in files)


def test_odd_files_are_indexed_or_skipped_never_fatal(tmp_path: Path):
    root = tmp_path / "odd"
    root.mkdir()
    (root / "ok.py").write_text("def fine():\n    return 1\n")
    (root / "binary.py").write_bytes(b"\x00\x01\x02def x(): pass\x00" * 100)
    (root / "latin1.py").write_bytes("def caf\xe9():\n    return 'd\xe9j\xe0'\n".encode("latin-1"))
    (root / "broken.py").write_text("def broken(:\n    return (\n\nclass Fine:\n    pass\n")
    (root / "crlf.js").write_bytes(b"function a() {\r\n  return 1;\r\n}\rfunction b() {\n  return 2;\n}\n")
    with (root / "huge.txt").open("wb") as f:
        f.truncate(50 * 1024 * 1024)  # a 50 MB file
    (root / "loop").symlink_to(root, target_is_directory=True)
    (root / "escape").symlink_to(tmp_path, target_is_directory=True)
    (root / ".env").write_text("SECRET_TOKEN=abc\n")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        report = ws.index()
        indexed = set(ws.store.file_states()) - {p for p, s in ws.store.file_states().items() if s.skip_reason}
        assert indexed == {"ok.py", "latin1.py", "broken.py", "crlf.js"}
        assert report.skipped["binary"] == 1 and report.skipped["too large"] == 1
        assert report.skipped["secret"] == 1 and report.skipped["symlink loop"] == 1
        assert report.skipped["symlink outside root"] == 1
        assert report.syntax_errors >= 1
        assert "Fine" in [r.symbol for r in ws.search("Fine").results]
        b = [r for r in ws.search("function b", k=20).results if r.symbol == "b"]
        assert b and b[0].start_line == 4  # lone CR counts as a line break, like editors do
        status = ws.status()
        assert status.skipped["binary"] == 1 and status.skipped_total >= 5


def test_file_deleted_mid_run_is_not_fatal(tmp_path: Path):
    root = tmp_path / "many"
    root.mkdir()
    for i in range(200):
        (root / f"m{i:03}.py").write_text(f"def f{i}():\n    return {i}\n")
    victim = root / "m199.py"

    def progress(phase: str, done: int, total: int) -> None:
        if phase == "parse" and done and victim.exists():
            victim.unlink()  # removed after the walk listed it, before it was read

    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        report = ws.index(progress=progress)
        assert not victim.exists()
        assert "m199.py" not in ws.store.file_states()
        assert report.parsed == 199


def test_cancelled_run_leaves_a_valid_index_that_the_next_run_completes(polyglot: Path):
    cancel = threading.Event()

    def progress(phase: str, done: int, total: int) -> None:
        if phase == "embed" and done:
            cancel.set()

    with Workspace.open(polyglot, writer=True, overrides={"batch_size": 4}) as ws:
        first = ws.index(progress=progress, cancel=cancel)
        assert first.cancelled and 0 < ws.freshness().embedded_fraction < 1
        assert ws.search("cart total").results  # searchable meanwhile
        second = ws.index()
        assert second.parsed == 0 and second.texts_embedded > 0
        assert ws.freshness().embedded_fraction == 1.0


def test_span_lookup_current_moved_stale_missing(polyglot: Path):
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        hit = next(r for r in ws.search("in_stock", k=20).results if r.symbol == "Item.in_stock")
        found = ws.span(hit.id)
        assert found.status == "current" and found.current_id == hit.id
        lines = (polyglot / hit.path).read_text().splitlines()
        assert found.text == "\n".join(lines[hit.start_line - 1 : hit.end_line])

        path = polyglot / hit.path
        path.write_text("# a new first line\n\n" + path.read_text())
        moved = ws.span(hit.id)
        assert moved.status == "moved" and moved.start_line == hit.start_line + 2
        assert moved.text == found.text

        method = hit.symbol.split(".")[-1]
        path.write_text(path.read_text().replace(f"def {method}(", f"def {method}(extra_arg, "))
        stale = ws.span(hit.id)
        assert stale.status == "stale" and "extra_arg" in stale.text

        path.unlink()
        assert ws.span(hit.id).status == "missing"
        with pytest.raises(ValueError):
            ws.span("not-an-id")
        with pytest.raises(OutsideWorkspace):
            ws.span("../outside.py:1-2#0123456789")


def test_unsaved_buffer_is_searchable_and_served_by_span(polyglot: Path):
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        text = (polyglot / "inventory.py").read_text() + "\n\ndef unsaved_buffer_helper():\n    return 42\n"
        ws.update_file("inventory.py", text=text)
        hit = ws.search("unsaved_buffer_helper").results[0]
        assert hit.symbol == "unsaved_buffer_helper"
        assert ws.span(hit.id).status == "current"  # served from the buffer, not the disk
        with pytest.raises(OutsideWorkspace):
            ws.update_file(polyglot.parent / "elsewhere.py", text="x = 1")


def test_model_that_cannot_load_leaves_a_working_lexical_index(polyglot: Path):
    with Workspace.open(polyglot, writer=True, overrides={"model": "/no/such/model"}) as ws:
        report = ws.index()
        assert report.model_error and "/no/such/model" in report.model_error
        result = ws.search("cart total")
        assert result.results and result.index.mode == "lexical"
        assert "/no/such/model" in result.index.note


def test_changing_the_model_re_embeds_with_a_message(polyglot: Path):
    from spyglass.engine.embedding import bundled_model_dir

    with Workspace.open(polyglot, writer=True) as ws:
        ws.index()
    with Workspace.open(polyglot, writer=True, overrides={"model": str(bundled_model_dir())}) as ws:
        report = ws.index()
        assert report.model_reset and "re-embedding" in report.model_reset
        assert report.texts_embedded > 0 and ws.freshness().embedded_fraction == 1.0


def test_missing_future_and_corrupt_indexes(polyglot: Path):
    with pytest.raises(IndexMissing, match="spyglass index"):
        Workspace.open(polyglot)
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        db = ws.db_path
    store = Store(db)
    store.con.execute("INSERT INTO schema_migrations VALUES(?, 0)", (SCHEMA_VERSION + 1,))
    store.close()
    with pytest.raises(IndexFromFuture):
        Workspace.open(polyglot, writer=True)
    Workspace.open(polyglot, writer=True, rebuild=True, overrides=LEXICAL).close()  # --rebuild recovers

    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(IndexCorrupt, match="--rebuild"):
        Workspace.open(polyglot)
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:  # a writer moves it aside
        assert any("damaged" in w for w in ws.warnings)
        assert ws.index().parsed >= 16
    assert list(db.parent.glob("index.db.corrupt-*"))


def test_an_empty_gitignore_left_by_a_kill_is_written_again(polyglot: Path):
    # kill -9 between creating .spyglass/.gitignore and writing it leaves it empty: the index would then
    # show up in `git status` (and in `git add -A`) for good
    (polyglot / ".spyglass").mkdir()
    (polyglot / ".spyglass" / ".gitignore").write_text("")
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
    assert (polyglot / ".spyglass" / ".gitignore").read_text() == "*\n"
    assert [p.name for p in (polyglot / ".spyglass").glob(".gitignore*")] == [".gitignore"]


def test_index_folder_ignores_itself_and_db_can_live_elsewhere(polyglot: Path, tmp_path: Path):
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
    assert (polyglot / ".spyglass" / ".gitignore").read_text() == "*\n"
    artifact = tmp_path / "artifacts" / "index.db"
    with Workspace.open(polyglot, db=artifact, writer=True, overrides=LEXICAL) as ws:
        assert ws.index().parsed >= 16
    with Workspace.open(polyglot, db=artifact) as ws:
        assert ws.search("cart").results


def test_code_ranks_above_docs_and_tests_that_share_its_words(tmp_path: Path):
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "tests").mkdir()
    words = "refund the invoice when the payment gateway rejects the card"
    body = "".join(f"    total = total + line_{i}.amount\n" for i in range(3))
    (root / "src" / "billing.py").write_text(f'def settle(doc):\n    """{words}."""\n    total = 0\n{body}')
    (root / "tests" / "test_billing.py").write_text(f'def test_settle():\n    """{words}."""\n')
    (root / "NOTES.txt").write_text(f"{words}\n")
    (root / "README.md").write_text(f"# Billing\n\n{words}.\n")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        paths = _paths(ws.search(words, k=10, cut=False))
        assert paths[0] == "src/billing.py"
        assert set(paths) == {"src/billing.py", "tests/test_billing.py", "NOTES.txt", "README.md"}
        assert _paths(ws.search("tests for settle", k=10, cut=False))[0] == "tests/test_billing.py"


def test_files_named_in_a_traceback_are_found_by_their_path_suffix(tmp_path: Path):
    root = tmp_path / "ws"
    for rel, body in {
        "src/shop/cart.py": "def checkout(cart):\n    return sum(item.cost for item in cart)\n",
        "src/shop/pricing.py": "def compute(cart):\n    raise ValueError('empty')\n",
        "vendor/other/pricing.py": "def compute(rows):\n    return rows\n",
        "src/shop/report.py": "def summary(rows):\n    return len(rows)\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)
    trace = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/shop/cart.py", line 2, in checkout\n'
        '  File "/usr/lib/python3/site-packages/shop/pricing.py", line 2, in compute\n'
        "ValueError: empty\n"
    )
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        results = ws.search(trace, k=10, cut=False).results
    first = {}
    for r in results:
        first.setdefault(r.path, r)
    ranked = list(first)
    assert ranked[:2] == ["src/shop/pricing.py", "src/shop/cart.py"]  # innermost frame first
    assert first["src/shop/pricing.py"].why.signals["path"] == 1.0
    assert first["src/shop/cart.py"].why.signals["path"] == 0.5
    assert "vendor/other/pricing.py" not in first or "path" not in first["vendor/other/pricing.py"].why.signals


def test_a_long_query_is_focused_by_its_first_line(tmp_path: Path):
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "export.py").write_text(
        "def export_invoice_pdf(invoice):\n    'Render the invoice as a PDF document.'\n    return render(invoice)\n"
    )
    chatter = "the server the request the response the session the logger the config the client the worker"
    (root / "src" / "server.py").write_text(f"def handle(request):\n    '''{chatter}'''\n    return request\n")
    issue = (
        "Invoice PDF export renders blank pages\n\n"
        f"When the server handles the request, {chatter}, and after the session ends the logger shows the config "
        "of the client and the worker, the response has no pages."
    )
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        long_hits = ws.search(issue, k=5, cut=False).results
        short_hits = ws.search("invoice pdf export", k=5, cut=False).results
    export = next(h for h in long_hits if h.path == "src/export.py")
    assert export.why.signals["title"] == 1.0  # a long query: its first line is searched on its own
    assert "title" not in next(h for h in long_hits if h.path == "src/server.py").why.signals
    assert short_hits[0].path == "src/export.py"
    assert all("title" not in h.why.signals for h in short_hits)  # a short query has no separate title


def test_changing_a_span_setting_re_parses_every_file_once(polyglot: Path):
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        first = ws.index()
        assert ws.index().parsed == 0
    changed = {**LEXICAL, "window_lines": 30}
    with Workspace.open(polyglot, writer=True, overrides=changed) as ws:
        again = ws.index()
        assert again.parsed == first.parsed > 0
        assert ws.index().parsed == 0


def test_a_new_parser_version_re_parses_every_file_once(polyglot: Path, monkeypatch: pytest.MonkeyPatch):
    """An upgrade whose parser names or cuts spans differently reaches files that did not change."""
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        first = ws.index()
    monkeypatch.setattr(indexer, "PARSER_VERSION", indexer.PARSER_VERSION + 1)
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        assert ws.index().parsed == first.parsed > 0
        assert ws.index().parsed == 0


def test_a_file_with_several_spans_near_the_query_gets_a_stronger_file_vector_signal(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "payments.py").write_text(
        "def refund_card(payment):\n    '''Refund a card payment to the customer.'''\n    return payment\n\n"
        "def charge_card(card, amount):\n    '''Charge the customer's credit card.'''\n    return amount\n\n"
        "def void_payment(payment):\n    '''Cancel a card payment before it settles.'''\n    return payment\n"
    )
    (root / "misc.py").write_text(
        "def refund_note(order):\n    '''Write a note that a refund was made.'''\n    return order\n\n"
        "def parse_date(text):\n    '''Read an ISO date.'''\n    return text\n"
    )
    signals = {}
    for memory in (True, False):  # the server's in-memory vectors and the CLI's sqlite-vec scan agree
        with Workspace.open(root, writer=True, memory_vectors=memory) as ws:
            ws.index()
            hits = ws.search("refund a card payment", k=10, cut=False).results
        signals[memory] = {h.symbol: h.why.signals for h in hits}
    assert signals[True] == signals[False]
    got = signals[True]
    assert got["refund_card"]["file_vector"] > got["refund_note"]["file_vector"] > 0
    assert got["refund_card"]["file_vector"] == got["void_payment"]["file_vector"]  # one value per file


def test_a_candidate_found_by_another_retriever_gets_its_bm25_from_beyond_the_pool(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "billing.py").write_text('def invoice_total(lines):\n    """The invoice total."""\n    return sum(lines)\n')
    found = {}
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        for depth in (0, 1000):
            # only the best BM25 hit joins the candidates
            config = replace(DEFAULT_RANKING, candidates=1, lexical_depth=depth)
            hits = Searcher(ws.store, None, config=config).search("invoice total", k=10, cut=False).hits
            found[depth] = {h.kind: h.why.signals for h in hits}
    # the module span joins as the best whole file's head; its own BM25 is read only from the deeper hits
    assert "lexical" not in found[0]["module"] and found[0]["module"]["file"] == 1.0
    assert 0 < found[1000]["module"]["lexical"] < found[1000]["function"]["lexical"] == 1.0


def test_damage_found_while_answering_is_the_engines_index_corrupt(polyglot):
    """Front ends never see SQLite's own errors: damage met by a query is IndexCorrupt, saying how to fix it."""
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
    db = polyglot / ".spyglass" / "index.db"
    with Workspace.open(polyglot, overrides=LEXICAL) as ws:
        data = bytearray(db.read_bytes())
        page = int.from_bytes(data[16:18], "big") or 65536
        data[page:] = b"\xa5" * (len(data) - page)  # every page but the first (the schema) is garbage
        db.write_bytes(bytes(data))
        for ask in (lambda: ws.search("cart total"), lambda: ws.symbols("Cart"), lambda: ws.status()):
            with pytest.raises(IndexCorrupt, match="--rebuild"):
                ask()


def test_a_file_name_that_is_not_utf8_does_not_stop_indexing(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "good.py").write_text("def parse_invoice(text):\n    return text\n")
    with open(os.fsencode(root) + b"/bad\xff\xfe.py", "wb") as f:
        f.write(b"def broken_name():\n    return 2\n")
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        report = ws.index()
        assert report.skipped.get("name not UTF-8") == 1
        assert ws.search("parse invoice", k=3).results[0].path == "good.py"
        assert ws.index().parsed == 0  # and the next sync is clean


SECRET_FILES = {
    ".env.production": "API_KEY=sk_live_51Habcdefghijklmnopqrstuv\nDB_PASSWORD=correct-horse-battery\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789\n",
    "id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END",
    "certs/server.pem": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n",
    "config/secrets.yaml": "aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
    ".netrc": "machine api.example.com login deploy password s3cr3t-netrc-pass\n",
    ".docker/config.json": '{"auths": {"ghcr.io": {"auth": "ZGVwbG95OmdocF9hYmNkZWZnaGlqa2xtbm9w"}}}\n',
}


def test_a_made_up_span_id_for_a_file_the_index_left_out_reads_nothing(tmp_path: Path):
    """Span IDs come from clients: one naming a secret file that the index never took in (its path, any
    lines, any hash) gets the answer a file that does not exist gets, and no byte of it."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / ".git").mkdir()
    (root / "app.py").write_text("def handler(event):\n    return event\n")
    for rel, text in SECRET_FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        assert ws.span("app.py:1-2#0000000000").text.startswith("def handler")  # an indexed file: still read
        for rel, text in SECRET_FILES.items():
            for span_id in (f"{rel}:1-1#0000000000", f"{rel}:2-2#0000000000", f"{rel}:1-9#ffffffffff"):
                found = ws.span(span_id, context_lines=5)
                assert (found.status, found.text) == ("missing", ""), span_id
                assert found.message == f"no such file in the index or the workspace: {rel}"
            context = ws.context(rel, 1)
            assert context.imports == [] and context.span is None
            assert not any(line in repr(context) for line in text.splitlines() if len(line) > 8)


def test_a_folder_swapped_for_a_symlink_to_outside_while_indexing_is_not_read(tmp_path: Path):
    """The walk saw a real folder; by the time its files are read it is a symlink to a folder outside the
    workspace. Nothing from outside is indexed."""
    root, outside = tmp_path / "ws", tmp_path / "outside"
    (root / "pkg").mkdir(parents=True)
    (outside / "pkg").mkdir(parents=True)
    (root / "app.py").write_text("def app():\n    return 1\n")
    for i in range(5):
        (root / "pkg" / f"m{i}.py").write_text(f"def inside_{i}():\n    return {i}\n")
        (outside / "pkg" / f"m{i}.py").write_text(f"def outside_secret_{i}():\n    return 'leaked'\n")

    def swap(phase: str, done: int, total: int) -> None:
        if phase == "parse" and done == 0:
            (root / "pkg").rename(root / "pkg_moved")
            (root / "pkg").symlink_to(outside / "pkg", target_is_directory=True)

    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        report = ws.index(progress=swap)
        assert report.skipped["symlink outside root"] == 5
        texts = [t for (t,) in ws.store.con.execute("SELECT text FROM spans")]
        assert texts and not any("outside_secret" in t or "leaked" in t for t in texts)
        assert all("outside_secret" not in h.snippet for h in ws.search("outside secret leaked", k=10).results)


def test_a_hostile_tree_indexes_and_every_skipped_file_is_counted_under_its_reason(tmp_path: Path):
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "src" / "ok.py").write_text("def fine():\n    return 1\n")
    (root / "src" / "huge.py").write_text("x = 1\n" * 60_000)  # over the max_file_size set below
    (root / "src" / "noise.py").write_bytes(bytes(range(256)) * 40)  # binary under a code extension
    (root / "src" / "wide.py").write_bytes("def utf_sixteen():\n    return 1\n".encode("utf-16"))
    (root / "src" / "latin.py").write_bytes(b"def latin_one():\n    return '\xe9t\xe9'\n")  # invalid UTF-8
    (root / "src" / "deep.py").write_text("x = " + "[" * 10_000 + "]" * 10_000 + "\ndef after_deep():\n    pass\n")
    (root / "loop_a").symlink_to("loop_b")
    (root / "loop_b").symlink_to("loop_a")
    (root / "dangling.py").symlink_to("nowhere.py")
    (root / "passwd.py").symlink_to("/etc/passwd")
    os.mkfifo(root / "fifo.py")
    swapped = root / "src" / "later.py"
    swapped.write_text("def later():\n    return 2\n")

    def fifo_after_the_walk(phase: str, done: int, total: int) -> None:
        if phase == "parse" and done == 0:
            swapped.unlink()
            os.mkfifo(swapped)  # reading it would block forever

    with Workspace.open(root, writer=True, overrides={**LEXICAL, "max_file_size": 200_000}) as ws:
        report = ws.index(progress=fifo_after_the_walk)
        assert {k: report.skipped[k] for k in ("too large", "binary", "symlink loop", "broken symlink")} == {
            "too large": 1,
            "binary": 2,
            "symlink loop": 2,
            "broken symlink": 1,
        }
        assert report.skipped["symlink outside root"] == 1 and report.skipped["not a regular file"] == 2
        names = {h.symbol for h in ws.search("latin one after deep fine", k=10, cut=False).results}
        assert {"fine", "latin_one", "after_deep"} <= names
        listed = {s.path: s.reason for s in ws.status().skipped_files}
        assert listed["src/huge.py"] == "too large" and listed["fifo.py"] == "not a regular file"
        assert listed["src/later.py"] == "not a regular file"


def test_each_tier_answers_and_says_what_it_cost(polyglot: Path):
    """fast reads names and full text only (no model, even where vectors exist); balanced is the hybrid
    ranking; deep also searches with its best results' names. Every answer names its tier and its cost."""
    with Workspace.open(polyglot, writer=True) as ws:
        ws.index()
        query = "add an item to the shopping cart and compute the total"
        answers = {tier: ws.search(query, k=5, tier=tier) for tier in TIERS}
        assert ws.search("shopping cart total", k=3).tier == "balanced"  # the setting's default
        with pytest.raises(ValueError, match="unknown search tier"):
            ws.search("cart", tier="turbo")  # type: ignore[arg-type]
    for tier, answer in answers.items():
        assert answer.elapsed_ms > 0 and answer.results, tier
    assert answers["fast"].tier == "fast" and answers["balanced"].tier == "balanced"
    # deep needs a re-ranker to judge its wider pool (docs/quality.md): without one it runs balanced, and says so
    assert answers["deep"].tier == "balanced" and "needs a re-ranker" in answers["deep"].index.note
    assert [h.id for h in answers["deep"].results] == [h.id for h in answers["balanced"].results]
    assert answers["fast"].index.mode == "lexical" and "vector" not in answers["fast"].results[0].why.signals
    assert answers["balanced"].index.mode == answers["deep"].index.mode == "hybrid"
    top = {tier: answers[tier].results[0].path for tier in TIERS}
    assert set(top.values()) == {"cart.js"}, top  # the plain answer is found whatever the tier


def test_the_fast_tier_leaves_out_terms_too_common_to_read_quickly(tmp_path: Path):
    """In a large index FTS5's cost is the spans holding a query's common words; fast reads none found in
    more than ``fast_max_term_spans`` spans (balanced still does), and the telling words still find the code."""
    from dataclasses import replace

    from spyglass.engine.search.config import DEFAULT_RANKING

    root = tmp_path / "w"
    root.mkdir()
    for n in range(12):  # "value" in a third of the spans: common enough for fast's limit, not for the 50% rule
        word = "value" if n < 4 else "item"
        (root / f"m{n}.py").write_text(f"def handler_{n}({word}):\n    return {word}\n")
    (root / "codec.py").write_text("def decode_frame(value):\n    return value  # one websocket frame\n")
    with Workspace.open(root, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        ws.searcher.config = replace(DEFAULT_RANKING, fast_max_term_spans=5)
        fast = ws.search("decode websocket frame value", k=3, tier="fast").results
        balanced = ws.search("decode websocket frame value", k=3, cut=False).results
    assert fast[0].symbol == balanced[0].symbol == "decode_frame"
    assert "value" not in fast[0].why.terms and "value" in balanced[0].why.terms
