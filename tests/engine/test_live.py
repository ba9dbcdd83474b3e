"""LiveIndex (engine/live.py): one workspace kept fresh by one writer thread, on real files and a real SQLite
index. No watcher here (``watch=False``): each test says itself what changed, so nothing happens by chance."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from spyglass.engine.errors import SpyglassError
from spyglass.engine.live import LiveIndex
from spyglass.engine.workspace import Workspace

LEXICAL = {"embed": False}
REFUND = "def refund_amount(paid: float) -> float:\n    return paid\n"


def until(condition: Callable[[], object], timeout: float = 60.0) -> None:
    """Wait (generously) for ``condition`` to hold."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def found(ws: Workspace, name: str) -> bool:
    """A definition named ``name`` is in the index (as any reader sees it once the writer has committed)."""
    return bool(ws.store.spans_named_exactly([name]))


def indexed(root: Path) -> None:
    """Index ``root`` lexically once, as a terminal's `spyglass index` would, and release it."""
    with Workspace.open(root, writer=True, overrides=LEXICAL) as ws:
        ws.index()


@pytest.fixture
def started():
    """``started(live)`` starts ``live`` and stops it after the test."""
    running: list[LiveIndex] = []

    def start(live: LiveIndex) -> LiveIndex:
        running.append(live.start())
        return live

    yield start
    for live in reversed(running):
        live.stop()


def test_buffers_are_applied_before_files(shop: Path, started):
    indexed(shop)
    pricing = shop / "shop" / "pricing.py"
    text = pricing.read_text(encoding="utf-8")
    ws = Workspace.open(shop, writer=True, overrides=LEXICAL)
    names = ("discount_from_buffer", "discount_from_disk", "refund_amount")
    seen: list[dict[str, bool]] = []  # after each write the writer applies: which names a search finds

    def on_status(_status: dict) -> None:
        if live.updates > len(seen):
            seen.append({name: found(ws, name) for name in names})

    live = LiveIndex(ws, watch=False, debounce=0.0, on_status=on_status)
    # queued together, before the writer runs: the disk changes a file and adds one, an editor changes the file
    pricing.write_text(text.replace("def compute_discount(", "def discount_from_disk("), encoding="utf-8")
    (shop / "shop" / "returns.py").write_text(REFUND, encoding="utf-8")
    live.files_changed([pricing, shop / "shop" / "returns.py"])
    live.buffer_changed(pricing, text.replace("def compute_discount(", "def discount_from_buffer("))
    started(live)
    assert live.wait_idle(60)

    assert seen[0] == {"discount_from_buffer": True, "discount_from_disk": False, "refund_amount": False}
    assert seen[1]["refund_amount"]  # then the files
    # and the unsaved buffer still wins over the disk for its file, after the files and the reconcile
    assert found(ws, "discount_from_buffer") and not found(ws, "discount_from_disk")
    assert found(ws, "refund_amount")


def test_paused_the_reconcile_waits_edits_do_not_and_a_sync_resumes(shop: Path, started):
    indexed(shop)
    (shop / "shop" / "returns.py").write_text(REFUND, encoding="utf-8")  # nobody is told
    live = LiveIndex(Workspace.open(shop, writer=True, overrides=LEXICAL), watch=False, debounce=0.0)
    live.pause()
    started(live)
    assert live.wait_idle(60)
    assert live.paused and live.last_report is not None and live.last_report.cancelled
    assert not found(live.ws, "refund_amount")  # the reconcile stopped before it

    shipping = shop / "shop" / "shipping.py"
    live.buffer_changed(shipping, shipping.read_text(encoding="utf-8").replace("shipping_cost", "parcel_fee"))
    (shop / "web" / "orders.ts").write_text("export function cancelOrder(id: string) {}\n", encoding="utf-8")
    live.files_changed([shop / "web" / "orders.ts"])
    until(lambda: found(live.ws, "parcel_fee") and found(live.ws, "cancelOrder"))  # still indexed, paused
    assert live.paused and not found(live.ws, "refund_amount")

    summary = live.request_sync().result(60)
    assert not live.paused and summary["added"] == 1 and not summary["cancelled"]
    assert found(live.ws, "refund_amount")


@pytest.mark.slow
def test_paused_no_vectors_are_made_until_a_sync_resumes(shop: Path, started):
    with Workspace.open(shop, writer=True) as ws:
        ws.index(embed=False)  # every span waits for its vector
    live = LiveIndex(Workspace.open(shop, writer=True), watch=False)
    live.pause()
    started(live)
    embedder = live.ws.embedder
    assert embedder is not None
    until(lambda: embedder.loaded or live.model_error, timeout=120)
    assert live.model_error is None
    assert live.wait_idle(60)
    assert live.paused and live.state == "idle" and live.ws.store.count_pending() > 0

    live.request_sync().result(60)
    assert live.wait_idle(120, embedded=True)
    assert live.ws.store.count_pending() == 0


def test_waiters_get_an_answer_when_the_writers_work_fails(shop: Path, tmp_path: Path, started):
    ws = Workspace.open(shop, writer=True, db=tmp_path / "index" / "index.db", overrides=LEXICAL)
    live = started(LiveIndex(ws, watch=False))
    assert live.wait_idle(60) and live.error is None
    shop.rename(tmp_path / "elsewhere")  # the workspace folder is gone: a reconcile cannot walk it
    try:
        for ask in (lambda: live.request_sync().result(60), live.update):  # update: as `spyglass index` asks
            with pytest.raises(SpyglassError, match="indexing failed: .*No such file or directory"):
                ask()
        until(lambda: live.state == "error")
        assert live.error is not None and live.error.startswith("indexing failed")
    finally:
        (tmp_path / "elsewhere").rename(shop)
    assert live.request_sync().result(60)["seen"] == 6  # back: the next sync works and clears the error
    assert live.error is None


def test_a_sync_still_waiting_when_the_index_stops_gets_an_answer(shop: Path, started):
    owner = started(LiveIndex(Workspace.open(shop, writer=True, overrides=LEXICAL), watch=False))
    assert owner.wait_idle(60)
    follower = started(LiveIndex(Workspace.open(shop, writer=True, overrides=LEXICAL), watch=False))
    until(lambda: follower.state == "following")
    waiting = follower.request_sync()  # a follower writes nothing: the sync waits for the writer lock
    follower.stop()
    with pytest.raises(SpyglassError, match="closed before it was brought up to date"):
        waiting.result(60)
    with pytest.raises(SpyglassError, match="closed before"):
        follower.request_sync().result(60)  # asked after the stop


def test_a_follower_reads_then_takes_over_when_the_owner_closes(shop: Path, started):
    first = started(LiveIndex(Workspace.open(shop, writer=True, overrides=LEXICAL), watch=False))
    assert first.wait_idle(60) and first.role == "owner"
    second = started(LiveIndex(Workspace.open(shop, writer=True, overrides=LEXICAL), watch=False))
    until(lambda: second.state == "following")
    assert second.role == "follower" and found(second.ws, "compute_discount")  # it reads the owner's index

    (shop / "web" / "orders.ts").write_text("export function cancelOrder(id: string) {}\n", encoding="utf-8")
    first.request_sync([shop / "web" / "orders.ts"]).result(60)
    assert found(second.ws, "cancelOrder")  # each commit of the owner is seen at once
    (shop / "shop" / "returns.py").write_text(REFUND, encoding="utf-8")  # the owner is not told

    first.stop()
    until(lambda: second.role == "owner")
    assert second.wait_idle(60)
    assert found(second.ws, "refund_amount")  # the new owner reconciled what the old one missed
    assert second.state == "idle" and second.error is None
