"""Spyglass's custom requests (spyglass/search, related, span, reindex), checked against the shared contract
(shared/lsp.schema.json); bad parameters get errors, not crashes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import LanguageClient

from .helpers import check, plain, request, status

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


async def test_search_request_matches_the_contract(client: LanguageClient, project: Path):
    answer = plain(await request(client, "spyglass/search", {"query": "coupon discount on the order total", "k": 5}))
    check(answer, "SearchResult")
    top = answer["results"][0]
    assert top["path"] == "shop/pricing.py" and top["symbol"] == "compute_discount"
    assert top["uri"] == (project / "shop" / "pricing.py").as_uri()
    assert top["range"]["start"]["line"] == 5
    assert top["why"]["signals"] and "discount" in top["why"]["terms"]
    assert answer["folders"][0]["mode"] == "hybrid"

    only_ts = plain(
        await request(client, "spyglass/search", {"query": "fetch order", "filters": {"languages": ["typescript"]}})
    )
    assert only_ts["results"] and {r["language"] for r in only_ts["results"]} == {"typescript"}


async def test_related_and_span_requests(client: LanguageClient, project: Path):
    uri = (project / "shop" / "pricing.py").as_uri()
    related = plain(
        await request(
            client, "spyglass/related", {"textDocument": {"uri": uri}, "position": {"line": 7, "character": 4}}
        )
    )
    check(related, "RelatedResult")
    assert related["span"]["symbol"] == "compute_discount"
    relations = {(r["path"], r["relation"]) for r in related["related"]}
    assert ("shop/cart.py", "uses") in relations and ("docs/pricing.md", "documents") in relations
    use = next(r for r in related["related"] if r["relation"] == "uses")
    assert (use["previewLine"], use["preview"]) == (
        31,
        "return add_tax(subtotal - compute_discount(subtotal, self.coupon))",
    )

    span = plain(await request(client, "spyglass/span", {"id": related["span"]["id"]}))
    check(span, "SpanResult")
    assert span["status"] == "current" and span["text"].startswith("def compute_discount")


async def test_reindex_reports_what_changed(client: LanguageClient, project: Path):
    (project / "shop" / "shipping.py").write_text(
        (project / "shop" / "shipping.py").read_text(encoding="utf-8") + "\n\nFREE_SHIPPING_OVER = 50\n",
        encoding="utf-8",
    )
    answer = plain(await request(client, "spyglass/reindex", {}))
    check(answer, "ReindexResult")
    assert answer["folders"][0]["ok"] is True
    one = plain(await request(client, "spyglass/reindex", {"paths": [(project / "shop" / "cart.py").as_uri()]}))
    check(one, "ReindexResult")
    report = one["folders"][0]["report"]
    assert report["unchanged"] >= 1 and report["parsed"] == 0  # the watcher may add its own unchanged files


@pytest.mark.parametrize(
    "method, params, message",
    [
        ("spyglass/search", {"k": 5}, "query"),
        ("spyglass/search", {"query": "x", "k": 0}, "k"),
        ("spyglass/search", {"query": "x", "bogus": 1}, "bogus"),
        ("spyglass/span", {"id": "not an id"}, "not a span ID"),
        (
            "spyglass/related",
            {"textDocument": {"uri": "file:///etc/passwd"}, "position": {"line": 0, "character": 0}},
            None,
        ),
        ("spyglass/reindex", {"paths": ["/etc/passwd"]}, "no open workspace folder"),
    ],
)
async def test_bad_requests_get_errors_not_crashes(client: LanguageClient, method, params, message):
    if message is None:  # outside every folder: an empty answer, not an error
        assert plain(await request(client, method, params)) == {"span": None, "related": []}
    else:
        with pytest.raises(JsonRpcInvalidParams, match=message):
            await request(client, method, params)
    assert (await status(client))["folders"][0]["state"] in ("idle", "indexing", "embedding")
