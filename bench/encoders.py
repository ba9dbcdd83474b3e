"""The embedding encoders side by side on the same texts (issue 19's figures; a benchmark, not a test).

    python bench/encoders.py CORPUS [--sample 2000] [--rounds 3] [--variant NAME=MODEL[@ENCODER]] ... [--out F]
                             [--embed-url URL]   (for variants whose ENCODER is openai: an endpoint's base URL)

CORPUS must be indexed (`spyglass index CORPUS`): the texts are what the indexer embeds for its spans (the
workspace's own recipe and token cut), a random sample of them. Default variants: the bundled model on ONNX
Runtime (``onnx``) and on sentence-transformers (``torch``). For each variant:
  - load: a fresh process that imports Spyglass, loads the model and embeds one query (seconds, peak RSS);
    its RSS, PSS and private memory (/proc/self/smaps_rollup) then, and after one batch of 32 texts (which
    makes the prepacked batch session an indexing process has);
  - query: one short query embedded 50 times, median ms;
  - batch: the sample embedded as the indexer does (length-sorted batches of the workspace's batch size),
    tokens/s and texts/s; variants take turns round by round, so a busy machine slows each alike;
  - agreement with the first variant: min and mean cosine of the sample's vectors.
Tokens are counted once, by the first variant (the same texts for all), so tokens/s compare; an endpoint's
own count (``usage.prompt_tokens``) is reported beside it as ``tokens_reported``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from spyglass.engine import Embedder, Workspace
from spyglass.engine.embedtext import embed_text

sys.path.insert(0, str(Path(__file__).parent))
from common import emit  # noqa: E402

LOAD = """
import json, resource, sys, time
t = time.perf_counter()
from spyglass.engine import Embedder
e = Embedder({model!r}, encoder={encoder!r}, embed_url={url!r})
e.encode(["where is the configuration file parsed"])
seconds = time.perf_counter() - t


def memory():
    fields = {{}}
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                fields[parts[0].rstrip(":")] = int(parts[1]) / 1024
    private = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return {{"rss_mb": fields.get("Rss", 0), "pss_mb": fields.get("Pss", 0), "private_mb": private}}


after_query = memory()
e.encode(["def parse_config(path): read the settings file and return a dict of options"] * 32)
print(json.dumps({{
    "seconds": seconds,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "after_query": after_query,
    "after_batch": memory(),
}}))
"""


def parse_variant(text: str) -> tuple[str, str, str]:
    name, _, spec = text.partition("=")
    model, _, encoder = spec.partition("@")
    return name, model, encoder or "auto"


def fresh_load(model: str, encoder: str, url: str, runs: int = 3) -> dict:
    results = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", LOAD.format(model=model, encoder=encoder, url=url)], capture_output=True, text=True
        )
        if done.returncode:
            raise RuntimeError(done.stderr[-2000:])
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    out: dict = {
        "seconds_median": round(statistics.median(r["seconds"] for r in results), 2),
        "peak_rss_mb": round(max(r["peak_rss_mb"] for r in results)),
    }
    for when in ("after_query", "after_batch"):  # a lone process: PSS charges it all of the mapped weights
        out[when] = {key: round(statistics.median(r[when][key] for r in results)) for key in results[0][when]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--sample", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--variant", action="append", default=[], help="NAME=MODEL[@ENCODER], repeatable")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--embed-url", default="", help="the endpoint of variants with ENCODER openai")
    args = ap.parse_args()
    variants = [parse_variant(v) for v in args.variant] or [
        ("onnx", "all-MiniLM-L6-v2", "onnx"),
        ("torch", "all-MiniLM-L6-v2", "sentence-transformers"),
    ]
    with Workspace.open(args.corpus) as ws:
        settings = ws.settings
        rows = ws.store.con.execute("SELECT kind, qualname, signature, doc, text FROM spans GROUP BY embed_hash")
        texts = [embed_text(*r, settings.embed_max_tokens, settings.embed_text) for r in rows.fetchall()]
    sample = random.Random(1).sample(texts, min(args.sample, len(texts)))
    embedders = {
        name: Embedder(
            model,
            encoder=encoder,
            threads=settings.threads,
            max_tokens=settings.embed_max_tokens,
            batch_size=settings.batch_size,
            embed_url=args.embed_url,
        )
        for name, model, encoder in variants
    }
    out: dict = {"corpus": str(args.corpus), "sample_texts": len(sample), "variants": {}}
    for name, model, encoder in variants:
        embedder = embedders[name]
        embedder.load()
        queries = []
        for _ in range(50):
            t = time.perf_counter()
            embedder.encode(["where is the configuration file parsed"])
            queries.append(time.perf_counter() - t)
        out["variants"][name] = {
            "model": model,
            "encoder": embedder.kind,
            "load": fresh_load(model, encoder, args.embed_url),
            "query_ms_median": round(statistics.median(queries) * 1000, 2),
            "tokens_reported": embedder.count_tokens(sample),
            "batch_seconds": [],
        }
        print(f"{name}: loaded", file=sys.stderr)
    vectors = {}
    for round_ in range(args.rounds):
        for name, embedder in embedders.items():
            t = time.perf_counter()
            vectors[name] = embedder.encode(sample)
            seconds = time.perf_counter() - t
            out["variants"][name]["batch_seconds"].append(round(seconds, 2))
            print(f"round {round_ + 1} {name}: {seconds:.1f}s", file=sys.stderr)
    first = next(iter(vectors.values()))
    tokens = next(iter(out["variants"].values()))["tokens_reported"]
    for name, row in out["variants"].items():
        seconds = statistics.median(row["batch_seconds"])
        row["tokens"] = tokens
        row["tokens_per_s"] = round(tokens / seconds)
        row["texts_per_s"] = round(len(sample) / seconds, 1)
        cosines = (vectors[name] * first).sum(1)
        row["cosine_to_first"] = {"min": round(float(np.min(cosines)), 5), "mean": round(float(np.mean(cosines)), 5)}
    out["peak_rss_mb_this_process"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    emit(out, args.out)


if __name__ == "__main__":
    main()
