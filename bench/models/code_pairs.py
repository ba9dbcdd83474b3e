"""Mine (description, code) pairs from source trees for fine-tuning the embedding model (issue 20, item 5).

    python bench/models/code_pairs.py OUT.jsonl FOLDER [FOLDER ...] [--cap 3000]

Each definition that has a doc comment gives one pair: the query is the doc's first sentence (4-30 words,
markup and tag lines dropped, a leading repeat of the name dropped, as Go's "Marshal returns ..." starts),
the target is what Spyglass embeds for the span (``embed_text``, the default ``summary`` recipe) with the
doc taken out, so the model learns to find code from what it does, not from its comment. Files in test,
example, vendor and doc folders are skipped. At most ``--cap`` pairs per folder, a random sample, so one
large tree (a standard library) does not drown the rest. Every line names its folder, file, language and
qualified name. Use it only on code that is in no benchmark (docs/quality.md lists what was used).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from spyglass.engine.embedtext import embed_text
from spyglass.engine.languages import language_for_path
from spyglass.engine.parsing import parse_spans

SKIP_DIRS = frozenset(
    {"test", "tests", "testing", "__tests__", "testdata", "spec", "specs", "fixtures", "examples", "example",
     "vendor", "node_modules", "third_party", "deps", "docs", "doc", "benchmarks", "bench"}
)  # fmt: skip
SKIP_WORDS = ("deprecated", "todo", "fixme", "copyright", "license", "generated", "do not edit", "inheritdoc")
MARKUP_RE = re.compile(r"\{@\w+\s+([^}]*)\}|<[^>]+>|[`*]|(?<!\w)@\w+")  # {@link X} -> X; tags, html, emphasis
TAG_LINE_RE = re.compile(
    r"^\s*[@:](param|return|returns|throws|raises|type|rtype|since|see|example|internal)\b", re.IGNORECASE
)
COMMENT_RE = re.compile(r"^\s*(///?|#+|\*+|/\*\*?|\*/|--|;+|\"\"\"|''')\s?")
SENTENCE_END_RE = re.compile(r"(?<=[a-z0-9)\]])\.(\s|$)")


def first_sentence(doc: str, name: str) -> str | None:
    """The doc's first sentence as a query, or None when it would make a poor one."""
    kept: list[str] = []
    for line in doc.splitlines():
        if TAG_LINE_RE.match(line) or not line.strip():
            if kept:
                break
            continue
        kept.append(line.strip())
    text = MARKUP_RE.sub(lambda m: m.group(1) or "", " ".join(kept))
    end = SENTENCE_END_RE.search(text)
    text = " ".join((text[: end.start()] if end else text).split())
    words = text.split()
    if words and words[0] == name:
        words = words[1:]
    if not 4 <= len(words) <= 30 or any(w in text.lower() for w in SKIP_WORDS):
        return None
    if sum(c.isalpha() for c in text) < 0.6 * len(text):
        return None
    return " ".join(words)


def without_doc(text: str, doc: str) -> str:
    """``text`` without the lines of its doc comment or docstring."""
    flat = " ".join(doc.split())
    kept = []
    for line in text.splitlines():
        core = COMMENT_RE.sub("", line).strip().strip("\"'").strip()
        if not (len(core) > 3 and core in flat):
            kept.append(line)
    return "\n".join(kept)


def pairs(folder: Path) -> Iterator[dict[str, str]]:
    for dirpath, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d.lower() not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(dirpath) / name
            rel = path.relative_to(folder).as_posix()
            lowered = name.lower()
            if "test" in lowered or "spec" in lowered or lowered.endswith(".d.ts") or language_for_path(rel) is None:
                continue
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if len(data) > 400_000:
                continue
            parsed = parse_spans(rel, data)
            if not parsed.parsed:
                continue
            for s in parsed.spans:
                if s.kind in ("module", "window", "section") or not s.doc:
                    continue
                query = first_sentence(s.doc, s.name)
                body = without_doc(s.text, s.doc)
                if query is None or len(body.splitlines()) < 3:
                    continue
                yield {
                    "corpus": folder.name,
                    "path": rel,
                    "lang": parsed.language,
                    "name": s.qualname,
                    "query": query,
                    "target": embed_text(s.kind, s.qualname, s.signature, "", body, 256, "summary"),
                }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--cap", type=int, default=3000, help="at most this many pairs per folder")
    args = ap.parse_args()
    with args.out.open("w", encoding="utf-8") as out:
        for folder in args.folders:
            found = list(pairs(folder))
            random.Random(0).shuffle(found)
            for p in found[: args.cap]:
                out.write(json.dumps(p) + "\n")
            print(f"{folder.name}: {min(len(found), args.cap)} pairs of {len(found)}", file=sys.stderr)


if __name__ == "__main__":
    main()
