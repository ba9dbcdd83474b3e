"""Do an index's stored vectors still match what an encoder makes now? (A benchmark, not a test.)

    python bench/parity.py ROOT [--model all-MiniLM-L6-v2] [--encoder onnx] [--sample N] [--out report.json]

ROOT is an indexed, embedded workspace (its ``.spyglass/index.db``, opened read-only). Every distinct embed
text of its spans is rebuilt the way the indexer built it (``embed_text`` with the recipe and token cut the
index records in its ``span_settings``), embedded again with the chosen model and encoder, and compared with
the vector stored for each span. Printed: the cosine over all spans (min, 0.1th and 1st percentile, median,
mean, how many fall below 0.999 and 0.9999), the same over distinct texts, the worst spans, and the encoder's
throughput on these texts.

Use it when the encoder of an existing index changes (issue 19: vectors made by torch, now read beside
queries embedded by ONNX Runtime), or to see how far a quantized model drifts from the vectors of an index.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from spyglass.engine.embedding import Embedder
from spyglass.engine.embedtext import embed_text
from spyglass.engine.store import Store

sys.path.insert(0, str(Path(__file__).parent))
from common import emit  # noqa: E402


def quantiles(values: np.ndarray) -> dict:
    return {
        "n": int(values.size),
        "min": round(float(values.min()), 7),
        "max_distance": f"{1 - float(values.min()):.2e}",  # 1 - min cosine, readable where min rounds to 1
        "p0.1": round(float(np.percentile(values, 0.1)), 7),
        "p1": round(float(np.percentile(values, 1)), 6),
        "median": round(float(np.median(values)), 6),
        "mean": round(float(values.mean()), 7),
        "below_0.9999": int((values < 0.9999).sum()),
        "below_0.999": int((values < 0.999).sum()),
        "below_0.99": int((values < 0.99).sum()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path, help="an indexed workspace")
    ap.add_argument("--model", help="model to embed with (default: the index's model id)")
    ap.add_argument("--encoder", default="auto", choices=["auto", "onnx", "sentence-transformers"])
    ap.add_argument("--threads", type=int, default=0, help="model threads (0: one per core)")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--sample", type=int, default=0, help="only this many distinct texts, at random (0: all)")
    ap.add_argument("--worst", type=int, default=5, help="list this many of the least similar spans")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    store = Store(args.root / ".spyglass" / "index.db", readonly=True, create=False)
    span_settings = json.loads(store.get_meta("span_settings", "{}") or "{}")
    max_tokens = int(span_settings.get("embed_max_tokens", 256))
    recipe = str(span_settings.get("embed_text", "summary"))
    stored_model = store.get_meta("model_id", "") or ""
    rowids, stored = store.vectors()
    if not len(rowids):
        raise SystemExit(f"{args.root}: the index holds no vectors")
    hash_of = dict(store.con.execute("SELECT id, embed_hash FROM spans WHERE embedded = 1"))
    texts: dict[str, tuple] = {}
    for row in store.con.execute(
        "SELECT s.embed_hash, s.kind, s.qualname, s.signature, s.doc, s.text, f.path "
        "FROM spans s JOIN files f ON f.id = s.file_id WHERE s.embedded = 1 GROUP BY s.embed_hash"
    ):
        texts[row[0]] = row[1:]
    hashes = sorted(texts)
    if args.sample and args.sample < len(hashes):
        hashes = sorted(random.Random(1).sample(hashes, args.sample))
    strings = [embed_text(*texts[h][:5], max_tokens, recipe) for h in hashes]

    embedder = Embedder(
        args.model or stored_model,
        encoder=args.encoder,
        threads=args.threads,
        max_tokens=max_tokens,
        batch_size=args.batch_size,
    )
    if args.model is None and embedder.model_id != stored_model:
        raise SystemExit(f"the index's model {stored_model!r} is not one this script can load; pass --model")
    embedder.load()
    tokens = embedder.count_tokens(strings)
    t = time.perf_counter()
    fresh = embedder.encode(strings)
    seconds = time.perf_counter() - t
    row_of = {h: i for i, h in enumerate(hashes)}

    # one cosine per span: spans sharing a text share its stored vector (the embedding cache), so compare each
    keep = np.array([hash_of.get(int(r)) in row_of for r in rowids])
    span_ids, span_vectors = rowids[keep], stored[keep]
    rows = np.array([row_of[hash_of[int(r)]] for r in span_ids])
    stored_unit = span_vectors / np.linalg.norm(span_vectors, axis=1, keepdims=True)
    cosines = (stored_unit * fresh[rows]).sum(1)
    per_text = np.full(len(hashes), np.nan)
    per_text[rows] = cosines  # a text's spans all hold the same vector, so any of them stands for it
    per_text = per_text[~np.isnan(per_text)]

    worst = []
    for i in np.argsort(cosines)[: args.worst]:
        h = hashes[rows[i]]
        kind, qualname, *_rest, path = texts[h]
        worst.append(
            {
                "cosine": round(float(cosines[i]), 7),
                "path": path,
                "kind": kind,
                "qualname": qualname,
                "tokens": embedder.count_tokens([strings[rows[i]]]),
            }
        )
    report = {
        "root": str(args.root),
        "index_model": stored_model,
        "embedded_with": {"model": embedder.model_id, "encoder": embedder.kind, "threads": embedder.threads},
        "recipe": recipe,
        "max_tokens": max_tokens,
        "spans": quantiles(cosines),
        "distinct_texts": quantiles(per_text),
        "worst": worst,
        "tokens": tokens,
        "encode_seconds": round(seconds, 1),
        "tokens_per_s": round(tokens / seconds),
    }
    emit(report, args.out)


if __name__ == "__main__":
    main()
