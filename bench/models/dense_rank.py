"""The vector alone on the function-level sets: where a model ranks each query's target among every span of
its repository, by cosine of the query's vector and the span's embedded text (issue 20, item 5; a benchmark
tool). It screens a model in minutes, before indexing anything with it.

    python bench/models/dense_rank.py --work /work/sem [--model FOLDER] [--out ranks.json]

``--work`` holds the sets' indexes (``spyglass eval semble bench/SET --work W``): their spans are read, and
their text is embedded as the index would (the ``summary`` recipe). ``--model`` is a sentence-transformers
folder (default: the bundled weights; needs torch, ``pip install torch==2.13.0``). Prints top 1 / top 5 /
top 10 and MRR per half of each set's fixed split, all queries and the behaviour queries.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import apsw
import numpy as np
from sentence_transformers import SentenceTransformer

from spyglass.engine.embedding import _bundled_weights
from spyglass.engine.embedtext import embed_text
from spyglass.evaluation.semble import is_definition, load_suite

BENCH = Path(__file__).resolve().parents[1]
SETS = ("behaviour", "behaviour_unseen", "behaviour_fresh", "behaviour_fresh2", "behaviour_fresh3")
SPANS_SQL = (
    "SELECT s.kind, s.qualname, s.signature, s.doc, s.text, f.path, s.start_line, s.end_line"
    " FROM spans s JOIN files f ON f.id = s.file_id"
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--model", default="", help="a sentence-transformers folder (default: the bundled weights)")
    ap.add_argument("--out", type=Path, help="every query's rank, as JSON")
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated sets of bench/ (default: the five)")
    args = ap.parse_args()
    model = SentenceTransformer(args.model or _bundled_weights(), device="cpu")
    model.max_seq_length = 256
    rows = []
    for name in args.sets.split(","):
        suite = load_suite(BENCH / name)
        split = suite.split()
        for repo_name, repo in suite.repos.items():
            queries = [q for q in suite.queries if q.repo == repo_name]
            db = args.work / repo_name / ".spyglass" / "index.db"
            if not queries or not db.exists():
                continue
            spans = list(apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY).execute(SPANS_SQL))
            texts = [embed_text(k, qn, sig, doc, text, 256, "summary", p) for k, qn, sig, doc, text, p, _, _ in spans]
            vectors = model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
            asked = model.encode([q.query for q in queries], normalize_embeddings=True, convert_to_numpy=True)
            for q, sims in zip(queries, asked @ vectors.T, strict=True):
                hits = np.array(
                    [
                        any(is_definition(t, f"{repo.root}/{p}" if repo.root else p, a, b) for t in q.targets)
                        for *_, p, a, b in spans
                    ],
                    dtype=bool,
                )
                if hits.any():
                    rank = int((sims > sims[hits].max()).sum()) + 1
                    rows.append(
                        {"set": name, "id": q.id, "half": split[repo_name], "category": q.category, "rank": rank}
                    )
            print(f"{name} {repo_name}: {len(spans)} spans", file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))
    for half in ("tune", "test"):
        for category in (None, "behaviour"):
            ranks = [r["rank"] for r in rows if r["half"] == half and category in (None, r["category"])]
            if ranks:
                print(
                    f"{half:5s} {category or 'all':9s} n={len(ranks)} top1 {sum(r == 1 for r in ranks)} "
                    f"top5 {sum(r <= 5 for r in ranks)} top10 {sum(r <= 10 for r in ranks)} "
                    f"MRR {np.mean([1 / r for r in ranks]):.3f}"
                )


if __name__ == "__main__":
    main()
