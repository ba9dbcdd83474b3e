"""Where the parser loses definitions, per language, over folders of source (a benchmark tool, not a test).

    python bench/parse_audit.py FOLDER ...                      # per language: errors, error regions, coverage
    python bench/parse_audit.py FOLDER ... --rewrites kotlin    # each file without and with its rewrite
    python bench/parse_audit.py FOLDER ... --save before.json   # every file's definitions, to compare with
    python bench/parse_audit.py FOLDER ... --against before.json  # after a change: what it changed, per language

The audit prints, per language: files, files whose tree has an error, lines inside error regions of 20 lines
or more (where the grammar gave up on a class or a file), the share of non-blank, non-comment lines outside
every definition (in a Vue, Svelte or Astro component, of its scripts' lines), and definitions; ``--worst N``
lists the files with the longest error regions.
``--rewrites LANGS`` parses every file of those languages without and with its rewrite (engine/rewrites/):
files with an error, definitions, and every file that parsed cleanly whose definitions the rewrite changed
(a false match: there should be none). Used in issue 20's twenty-eighth and twenty-ninth sessions.
``--save`` and ``--against`` compare any change to the parser (a query, a rewrite, parsing.py) over the same
folders: per language, files whose definitions changed, definitions gained and lost, files that parsed
cleanly before and not after, and ``--worst N`` examples of each (issue 20's thirty-first session).
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections import Counter, defaultdict
from collections.abc import Iterator

from tree_sitter import Parser

from spyglass.engine import rewrites
from spyglass.engine.languages import COMPONENT_LANGUAGES, grammar_for, has_grammar, language_for
from spyglass.engine.parsing import ParseResult, parse_spans
from spyglass.engine.rewrites import rewritten

SKIP = {".git", ".spyglass", "node_modules"}
BIG_ERROR_LINES = 20
MAX_BYTES = 1_000_000
COMMENT_STARTS = (b"//", b"#", b"*", b"/*", b"--", b"(*", b"%", b"!")  # C, shells, SQL; OCaml and F#, MATLAB, Fortran


def _files(folders: list[str]) -> Iterator[tuple[str, str, bytes]]:
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = [d for d in dirnames if d not in SKIP]
            for name in filenames:
                path = os.path.join(dirpath, name)
                if not has_grammar(language_for(path)) and not name.endswith(".h"):
                    continue
                try:
                    data = open(path, "rb").read()
                except OSError:
                    continue
                language = language_for(path, data)  # as the indexer reads it: a C++ or Objective-C header by its text
                if language and has_grammar(language) and language != "markdown" and len(data) <= MAX_BYTES:
                    yield path, language, data


def _error_lines(language: str, data: bytes) -> int:
    """Lines inside the tree's error regions of BIG_ERROR_LINES lines or more (the tree the indexer parses)."""
    grammar = grammar_for(language)
    if grammar is None:
        return 0
    total, stack = 0, [Parser(grammar[0]).parse(rewritten(language, data)).root_node]
    while stack:
        node = stack.pop()
        if node.is_error and node.end_point[0] - node.start_point[0] >= BIG_ERROR_LINES:
            total += node.end_point[0] - node.start_point[0]
        elif node.has_error:
            stack.extend(node.children)
    return total


def _definitions(result: ParseResult) -> set[tuple[str, str, int, int]]:
    return {(s.name, s.kind, s.start_line, s.end_line) for s in result.spans if s.kind != "module"}


def audit(folders: list[str], worst: int) -> None:
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    longest: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for path, language, data in _files(folders):
        result = parse_spans(path, data)
        # code lines as the grammar reads them: a component's scripts, not its markup (rewrites/components.py)
        read = rewritten(language, data) if language in COMPONENT_LANGUAGES else data
        code = {
            i
            for i, line in enumerate(read.split(b"\n"), 1)
            if line.strip() and not line.strip().startswith(COMMENT_STARTS)
        }
        covered = {n for s in result.spans if s.kind != "module" for n in range(s.start_line, s.end_line + 1)}
        error_lines = _error_lines(language, data) if result.had_errors else 0
        stats[language].update(
            files=1,
            errors=int(result.had_errors),
            error_lines=error_lines,
            lines=len(code),
            outside=len(code - covered),
            definitions=len(_definitions(result)),
        )
        if error_lines:
            longest[language].append((error_lines, path))
    print("| language | files | with an error | lines in error regions | code outside definitions | definitions |")
    print("|---|---|---|---|---|---|")
    for language, c in sorted(stats.items()):
        print(
            f"| {language} | {c['files']} | {c['errors']} | {c['error_lines']} "
            f"| {100 * c['outside'] / max(c['lines'], 1):.1f}% | {c['definitions']} |"
        )
    for language, rows in sorted(longest.items()):
        for lines, path in sorted(rows, reverse=True)[:worst]:
            print(f"{language}: {lines} lines in error regions: {path}")


def compare_rewrites(folders: list[str], languages: set[str]) -> None:
    stats: Counter[str] = Counter()
    for path, language, data in _files(folders):
        rewrite = rewrites.REWRITES.get(language)
        if language not in languages or rewrite is None:
            continue
        stats["files"] += 1
        if rewrite(data) == data:
            continue
        stats["rewritten"] += 1
        del rewrites.REWRITES[language]
        try:
            before = parse_spans(path, data)
        finally:
            rewrites.REWRITES[language] = rewrite
        after = parse_spans(path, data)
        old, new = _definitions(before), _definitions(after)
        stats.update(
            errors_before=int(before.had_errors),
            errors_after=int(after.had_errors),
            definitions_before=len(old),
            definitions_after=len(new),
        )
        if not before.had_errors and old != new:
            stats["cleanly_parsed_changed"] += 1
            print(f"changed though it parsed cleanly: {path}: {sorted(old - new)[:3]} -> {sorted(new - old)[:3]}")
    print(dict(stats))


def definitions_by_file(folders: list[str]) -> dict[str, dict[str, object]]:
    """Every file's language, whether its tree has an error, and its definitions (kind, qualname, lines)."""
    out: dict[str, dict[str, object]] = {}
    for path, language, data in _files(folders):
        result = parse_spans(path, data)
        definitions = sorted([s.kind, s.qualname, s.start_line, s.end_line] for s in result.spans if s.kind != "module")
        out[path] = {"language": language, "errors": result.had_errors, "definitions": definitions}
    return out


def compare(before: dict[str, dict[str, object]], after: dict[str, dict[str, object]], examples: int) -> None:
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    samples: dict[str, list[str]] = defaultdict(list)
    for path in sorted(before.keys() & after.keys()):
        old_file, new_file = before[path], after[path]
        language = str(new_file["language"])
        old = {tuple(d) for d in old_file["definitions"]}  # type: ignore[attr-defined]
        new = {tuple(d) for d in new_file["definitions"]}  # type: ignore[attr-defined]
        stats[language].update(files=1, changed=int(old != new), gained=len(new - old), lost=len(old - new))
        if new_file["errors"] and not old_file["errors"]:
            stats[language]["new_errors"] += 1
            samples[language].append(f"  now with an error: {path}")
        for d in sorted(new - old)[:2]:
            samples[language].append(f"  + {path}: {d}")
        for d in sorted(old - new)[:2]:
            samples[language].append(f"  - {path}: {d}")
    print("| language | files | changed | definitions gained | lost | newly with an error |")
    print("|---|---|---|---|---|---|")
    for language, c in sorted(stats.items()):
        if c["changed"] or c["new_errors"]:
            print(f"| {language} | {c['files']} | {c['changed']} | {c['gained']} | {c['lost']} | {c['new_errors']} |")
    rng = random.Random(0)
    for language, lines in sorted(samples.items()):
        print(f"{language}:")
        print("\n".join(sorted(rng.sample(lines, min(examples, len(lines))))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--worst", type=int, default=3, help="files with the longest error regions, per language")
    parser.add_argument("--rewrites", help="languages (comma-separated): parse without and with their rewrite")
    parser.add_argument("--save", help="write every file's definitions to this JSON file")
    parser.add_argument("--against", help="compare every file's definitions with a file --save wrote")
    args = parser.parse_args()
    if args.save:
        with open(args.save, "w") as f:
            json.dump(definitions_by_file(args.folders), f)
    elif args.against:
        with open(args.against) as f:
            compare(json.load(f), definitions_by_file(args.folders), args.worst)
    elif args.rewrites:
        compare_rewrites(args.folders, set(args.rewrites.split(",")))
    else:
        audit(args.folders, args.worst)


if __name__ == "__main__":
    main()
