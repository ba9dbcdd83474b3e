"""Train a cross-encoder re-ranker from the bundled all-MiniLM-L6-v2 on mined (description, code) pairs, with
hard negatives from the same code base (issue 20, item 5; a benchmark tool).

    python bench/models/code_pairs.py pairs.jsonl FOLDER ... --comments   # the pairs, from code in no benchmark
    python bench/models/cross_encoder.py pairs.jsonl OUT [--negs 3] [--val CORPUS,...]
    spyglass search ... --tier deep   with the setting  reranker = OUT

Needs torch (the CPU build: ``pip install torch==2.13.0``), transformers and sentence-transformers. For each
query, the negatives are drawn from the ``--pool`` targets of its own corpus nearest to it by the bundled
bi-encoder (never the query's own target), so the model learns what the vector alone gets wrong. The loss is
listwise: a softmax over the positive and its negatives. The ``--val`` corpora are held out: for each of
their queries, the bi-encoder's best 20 targets of its corpus are re-ranked, and MRR@20 is printed for the
bi-encoder's order and the cross-encoder's. ``OUT`` is a Hugging Face sequence-classification folder (one
logit) that sentence-transformers' ``CrossEncoder`` loads. Measured in docs/quality.md ("Twenty-fourth
session"): trained this way it ranks below the bi-encoder, and below the engine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
from sentence_transformers import SentenceTransformer
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from spyglass.engine.embedding import _bundled_weights

VAL = "uber-go+zap,pallets+click"


def nearest(pairs: list[dict], train: list[int], encoder: SentenceTransformer, pool: int) -> dict[int, list[int]]:
    """For each training pair (by index), the indices of the other pairs of its corpus whose targets are nearest
    to its query by the bi-encoder, best first; pairs that share the query's target are left out."""
    out: dict[int, list[int]] = {}
    by_corpus: dict[str, list[int]] = {}
    for i in train:
        by_corpus.setdefault(pairs[i]["corpus"], []).append(i)
    for corpus, idx in by_corpus.items():
        q = encoder.encode([pairs[i]["query"] for i in idx], normalize_embeddings=True, batch_size=64)
        v = encoder.encode([pairs[i]["target"] for i in idx], normalize_embeddings=True, batch_size=64)
        sims = q @ v.T
        for row, i in enumerate(idx):
            order = np.argsort(-sims[row])
            own = pairs[i]["target"]
            out[i] = [idx[j] for j in order if pairs[idx[j]]["target"] != own][:pool]
        print(f"mined {corpus}: {len(idx)} pairs", file=sys.stderr)
    return out


def scores(model, tokenizer, query: str, texts: list[str], max_tokens: int) -> np.ndarray:
    enc = tokenizer(
        [query] * len(texts), texts, truncation="only_second", max_length=max_tokens, padding=True, return_tensors="pt"
    )
    with torch.no_grad():
        return model(**enc).logits[:, 0].numpy()


def validate(
    model, tokenizer, pairs: list[dict], held: list[int], encoder: SentenceTransformer, max_tokens: int
) -> None:
    model.eval()
    before, after = [], []
    for corpus in sorted({pairs[i]["corpus"] for i in held}):
        idx = [i for i in held if pairs[i]["corpus"] == corpus]
        targets = sorted({pairs[i]["target"] for i in idx})
        q = encoder.encode([pairs[i]["query"] for i in idx], normalize_embeddings=True, batch_size=64)
        v = encoder.encode(targets, normalize_embeddings=True, batch_size=64)
        for row, i in enumerate(idx):
            top = [targets[j] for j in np.argsort(-(q[row] @ v.T))[:20]]
            own = pairs[i]["target"]
            if own not in top:
                before.append(0.0)
                after.append(0.0)
                continue
            before.append(1 / (top.index(own) + 1))
            s = scores(model, tokenizer, pairs[i]["query"], top, max_tokens)
            after.append(1 / (int((s > s[top.index(own)]).sum()) + 1))
    print(
        f"held out ({len(before)} queries): MRR@20 bi-encoder {np.mean(before):.3f}, "
        f"cross-encoder {np.mean(after):.3f}",
        file=sys.stderr,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--val", default=VAL, help="comma-separated corpora held out")
    ap.add_argument("--negs", type=int, default=3, help="hard negatives per query")
    ap.add_argument("--pool", type=int, default=10, help="negatives are drawn from this many nearest targets")
    ap.add_argument("--batch", type=int, default=8, help="queries per step")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--max-tokens", type=int, default=192)
    ap.add_argument("--limit", type=int, default=0, help="train on at most this many queries (0: all)")
    args = ap.parse_args()
    torch.manual_seed(0)
    rng = random.Random(0)
    pairs = [json.loads(line) for line in args.pairs.open(encoding="utf-8")]
    held_corpora = set(args.val.split(","))
    encoder = SentenceTransformer(_bundled_weights(), device="cpu")
    encoder.max_seq_length = 128
    held = [i for i, p in enumerate(pairs) if p["corpus"] in held_corpora]
    train = [i for i, p in enumerate(pairs) if p["corpus"] not in held_corpora]
    near = nearest(pairs, train, encoder, args.pool)  # the held-out corpora are not mined
    train = [i for i in train if len(near[i]) >= args.negs]
    rng.shuffle(train)
    if args.limit:
        train = train[: args.limit]

    tokenizer = AutoTokenizer.from_pretrained(_bundled_weights())
    model = AutoModelForSequenceClassification.from_pretrained(_bundled_weights(), num_labels=1)
    total = int(args.epochs * len(train)) // args.batch
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, 1 - s / total))
    started = time.perf_counter()
    model.train()
    for step in range(total):
        chunk = [train[(step * args.batch + j) % len(train)] for j in range(args.batch)]
        queries, texts = [], []
        for i in chunk:
            negs = rng.sample(near[i], args.negs)
            for t in [i, *negs]:
                queries.append(pairs[i]["query"])
                texts.append(pairs[t]["target"])
        enc = tokenizer(
            queries, texts, truncation="only_second", max_length=args.max_tokens, padding=True, return_tensors="pt"
        )
        logits = model(**enc).logits[:, 0].view(len(chunk), 1 + args.negs)
        loss = torch.nn.functional.cross_entropy(logits, torch.zeros(len(chunk), dtype=torch.long))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if (step + 1) % 25 == 0:
            print(
                f"step {step + 1}/{total} loss {loss.item():.3f} {time.perf_counter() - started:.0f}s", file=sys.stderr
            )
    validate(model, tokenizer, pairs, held, encoder, args.max_tokens)
    model.save_pretrained(str(args.out))
    tokenizer.save_pretrained(str(args.out))


if __name__ == "__main__":
    main()
