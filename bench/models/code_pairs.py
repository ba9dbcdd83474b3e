"""Mine (description, code) pairs from source trees for fine-tuning the embedding model (issue 20, item 5).

    python bench/models/code_pairs.py OUT.jsonl FOLDER [FOLDER ...] [--cap 3000] [--comments]

Each definition that has a doc comment gives one pair: the query is the doc's first sentence (4-30 words,
markup and tag lines dropped, a leading repeat of the name dropped, as Go's "Marshal returns ..." starts),
the target is what Spyglass embeds for the span (``embed_text``, the default ``summary`` recipe) with the
doc taken out, so the model learns to find code from what it does, not from its comment. Files in test,
example, vendor and doc folders are skipped. At most ``--cap`` pairs per folder, a random sample, so one
large tree (a standard library) does not drown the rest. Every line names its folder, file, language and
qualified name. Use it only on code that is in no benchmark (docs/quality.md lists what was used).

``--comments`` (the twenty-third session's recipe): functions and methods of Python, Go, TypeScript and
JavaScript only; each gives its doc's first sentence and every comment inside its body (5-40 words of prose,
no tool directive) as queries, and the target is its summary with every comment taken out as well.
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
from spyglass.engine.parsing import ParseResult, parse_spans

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


def parsed_files(folder: Path) -> Iterator[tuple[str, ParseResult]]:
    """Every source file under ``folder`` that parses, but tests, examples, vendored code and docs."""
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
            if parsed.parsed:
                yield rel, parsed


def pairs(folder: Path) -> Iterator[dict[str, str]]:
    for rel, parsed in parsed_files(folder):
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


# --comments: the comments inside a function say what its steps do, in the words a question uses
COMMENT_LANGUAGES = frozenset({"python", "go", "typescript", "tsx", "javascript"})
HASH_LINE_RE = re.compile(r"^\s*#\s?(.*)$")
SLASH_LINE_RE = re.compile(r"^\s*(?://+|/\*+|\*+/?)\s?(.*?)\s*(?:\*/)?$")
TRAILING_RE = {"hash": re.compile(r"\s#.*$"), "slash": re.compile(r"\s//.*$")}
NOT_PROSE = ("todo", "fixme", "xxx", "nolint", "eslint", "noqa", "type: ignore", "pragma", "istanbul", "ts-ignore",
             "ts-expect", "prettier", "copyright", "license", "hack", "nosec", "lint:", "go:", "@ts")  # fmt: skip


def comment_blocks(lines: list[str], line_re: re.Pattern[str]) -> list[str]:
    """Each run of whole-line comments in ``lines``, as one line of text."""
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if (m := line_re.match(line)) and line.strip():
            run.append(m.group(1).strip())
        elif run:
            out.append(" ".join(w for w in run if w))
            run = []
    return out


def prose(text: str) -> bool:
    """Whether a comment reads as a description (5-40 words of mostly letters, no tool directive)."""
    lowered = text.lower()
    return (
        5 <= len(text.split()) <= 40
        and not any(w in lowered for w in NOT_PROSE)
        and sum(c.isalpha() or c == " " for c in text) >= 0.85 * len(text)
    )


def without_comments(lines: list[str], line_re: re.Pattern[str], trailing: re.Pattern[str]) -> str:
    """``lines`` without whole-line comments, and without trailing ones on lines that hold no string."""
    kept = [line for line in lines if not (line.strip() and line_re.match(line))]
    return "\n".join(line if any(q in line for q in "\"'`") else trailing.sub("", line) for line in kept)


def comment_pairs(folder: Path) -> Iterator[dict[str, str]]:
    """Pairs of functions and methods of four languages: the doc's first sentence, and each comment inside
    the body; the target is the function's summary with every comment taken out (its words would give the
    answer away: the summary lists the body's identifiers, and a comment's words read as identifiers)."""
    for rel, parsed in parsed_files(folder):
        if parsed.language not in COMMENT_LANGUAGES:
            continue
        hashes = parsed.language == "python"
        line_re = HASH_LINE_RE if hashes else SLASH_LINE_RE
        trailing = TRAILING_RE["hash" if hashes else "slash"]
        for s in parsed.spans:
            if s.kind not in ("function", "method"):
                continue
            lines = (without_doc(s.text, s.doc) if s.doc else s.text).splitlines()
            if len(lines) < 4:
                continue
            code = without_comments(lines, line_re, trailing)
            target = embed_text(s.kind, s.qualname, s.signature, "", code, 256, "summary")
            base = {"corpus": folder.name, "path": rel, "lang": parsed.language, "name": s.qualname, "target": target}
            if s.doc and (query := first_sentence(s.doc, s.name)):
                yield {**base, "query": query, "src": "doc"}
            for block in comment_blocks(lines[1:], line_re):
                if prose(block):
                    yield {**base, "query": block, "src": "comment"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--cap", type=int, default=3000, help="at most this many pairs per folder")
    ap.add_argument("--comments", action="store_true", help="functions only, comments inside them as queries too")
    args = ap.parse_args()
    with args.out.open("w", encoding="utf-8") as out:
        for folder in args.folders:
            found = list((comment_pairs if args.comments else pairs)(folder))
            random.Random(0).shuffle(found)
            for p in found[: args.cap]:
                out.write(json.dumps(p) + "\n")
            print(f"{folder.name}: {min(len(found), args.cap)} pairs of {len(found)}", file=sys.stderr)


if __name__ == "__main__":
    main()
