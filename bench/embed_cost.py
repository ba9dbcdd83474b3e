"""What each embed-text recipe costs: model tokens to embed a corpus (a benchmark, not a test).

    python bench/embed_cost.py CORPUS [--max-tokens 256] [--time SAMPLE]

Parses CORPUS once, builds every span's embedded text with each recipe, and counts the tokens the model
would read (after its cut). Embedding time is proportional to tokens (../shared/RECIPES.md), so the ratio
is the cost ratio; ``--time N`` also times ``model.encode`` on N random spans per recipe.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from spyglass.engine.discovery import discover
from spyglass.engine.embedding import Embedder
from spyglass.engine.embedtext import RECIPES, embed_text
from spyglass.engine.parsing import parse_spans
from spyglass.engine.settings import load_settings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--time", type=int, default=0, help="time model.encode on this many spans per recipe")
    args = ap.parse_args()
    settings, _ = load_settings(args.corpus, {"embed_max_tokens": args.max_tokens})
    spans = []
    for entry in discover(args.corpus, settings).files:
        data = (args.corpus / entry.path).read_bytes()
        spans.extend(parse_spans(entry.path, data, settings).spans)
    embedder = Embedder(settings.model, max_tokens=args.max_tokens)
    embedder.load()
    sample = random.Random(0).sample(range(len(spans)), min(args.time, len(spans))) if args.time else []
    out = {"corpus": str(args.corpus), "spans": len(spans), "max_tokens": args.max_tokens}
    for recipe in RECIPES:
        texts = [embed_text(s.kind, s.qualname, s.signature, s.doc, s.text, args.max_tokens, recipe) for s in spans]
        tokens = embedder.count_tokens(texts)
        row = {"tokens": tokens, "tokens_per_span": round(tokens / max(1, len(texts)), 1)}
        if sample:
            chosen = sorted((texts[i] for i in sample), key=len)
            t = time.perf_counter()
            embedder.encode(chosen)
            row["encode_seconds_sample"] = round(time.perf_counter() - t, 2)
        out[recipe] = row
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
