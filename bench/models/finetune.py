"""Fine-tune the bundled all-MiniLM-L6-v2 on mined (description, code) pairs (issue 20, item 5; a benchmark tool).

    python bench/models/code_pairs.py pairs.jsonl FOLDER ...        # the pairs, from code in no benchmark
    python bench/models/finetune.py pairs.jsonl OUT [--epochs 1] [--val CORPUS,...]
    spyglass export-model OUT OUT-onnx                               # then: --set model=OUT-onnx

Needs torch (the CPU build: ``pip install torch==2.13.0``) and sentence-transformers. Contrastive training
with in-batch negatives, each batch drawn from one corpus (negatives from the same code base are the hard
ones), the loss symmetric (query -> code and code -> query), AdamW with a 10% warm-up and linear decay.
The ``--val`` corpora are held out; their pairs' retrieval (each query against every target of its corpus)
is printed before and after. On this 2-core machine one epoch of 13,959 pairs takes about 17 minutes.
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

from spyglass.engine.embedding import _bundled_weights

VAL = "uber-go+zap,date-fns+date-fns,rails+thor,google+googletest,pallets+click"


def evaluate(model: SentenceTransformer, pairs: list[dict], corpora: list[str], tag: str) -> None:
    model.eval()
    rows = []
    for corpus in corpora:
        ps = [p for p in pairs if p["corpus"] == corpus]
        with torch.no_grad():
            q = model.encode([p["query"] for p in ps], normalize_embeddings=True, batch_size=64)
            v = model.encode([p["target"] for p in ps], normalize_embeddings=True, batch_size=64)
        sims = q @ v.T
        ranks = (sims > sims.diagonal()[:, None]).sum(1) + 1
        rows.append((corpus, len(ps), (ranks == 1).mean(), (ranks <= 5).mean(), (1 / ranks).mean()))
    mean = [float(np.mean([r[i] for r in rows])) for i in (2, 3, 4)]
    print(f"{tag}: held-out R@1 {mean[0]:.3f} R@5 {mean[1]:.3f} MRR {mean[2]:.3f}", file=sys.stderr)
    for r in rows:
        print(f"    {r[0]} ({r[1]} pairs) R@1 {r[2]:.3f} R@5 {r[3]:.3f} MRR {r[4]:.3f}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--model", default="", help="a sentence-transformers folder (default: the bundled weights)")
    ap.add_argument("--val", default=VAL, help="comma-separated corpora held out")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--scale", type=float, default=20.0, help="cosine similarity times this are the logits")
    ap.add_argument("--max-tokens", type=int, default=128)
    args = ap.parse_args()
    torch.manual_seed(0)
    rng = random.Random(0)
    pairs = [json.loads(line) for line in args.pairs.open(encoding="utf-8")]
    held_out = sorted(set(args.val.split(",")) & {p["corpus"] for p in pairs})
    by_corpus: dict[str, list[dict]] = {}
    for p in pairs:
        if p["corpus"] not in held_out:
            by_corpus.setdefault(p["corpus"], []).append(p)
    model = SentenceTransformer(args.model or _bundled_weights(), device="cpu")
    model.max_seq_length = args.max_tokens
    evaluate(model, pairs, held_out, "before")

    total = int(args.epochs * sum(len(ps) // args.batch + (len(ps) % args.batch >= 8) for ps in by_corpus.values()))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, 1 - s / total))

    def embed(texts: list[str]) -> torch.Tensor:
        return torch.nn.functional.normalize(model(model.tokenize(texts))["sentence_embedding"], dim=-1)

    step, started = 0, time.perf_counter()
    while step < total:
        batches = []
        for ps in by_corpus.values():
            rng.shuffle(ps)
            batches += [
                ps[i : i + args.batch] for i in range(0, len(ps), args.batch) if len(ps[i : i + args.batch]) >= 8
            ]
        rng.shuffle(batches)
        model.train()
        for batch in batches[: total - step]:
            logits = args.scale * embed([p["query"] for p in batch]) @ embed([p["target"] for p in batch]).T
            labels = torch.arange(len(batch))
            loss = (
                torch.nn.functional.cross_entropy(logits, labels) + torch.nn.functional.cross_entropy(logits.T, labels)
            ) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 50 == 0:
                print(
                    f"step {step}/{total} loss {loss.item():.3f} {time.perf_counter() - started:.0f}s", file=sys.stderr
                )
    evaluate(model, pairs, held_out, "after")
    model.save(str(args.out))


if __name__ == "__main__":
    main()
