"""Parse speed and span counts per language over git repositories (a benchmark, not a test).

    python bench/parse_speed.py GIT_DIR ... [--languages kotlin,scala,...]

Reads every file of the given languages from each repository's HEAD with ``git cat-file`` (nothing is
checked out), parses them all with the engine's ``parse_spans`` after one warm-up parse, and prints per
repository: files, MB, seconds, MB/s, files with syntax errors, files not parsed (empty, or windows) and
spans by kind. Point it at bare mirrors or any ``.git`` directory.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from collections import Counter

from spyglass.engine.languages import language_for
from spyglass.engine.parsing import parse_spans

DEFAULT = "kotlin,scala,swift,elixir,lua,zig,haskell,dart"


def _files(git_dir: str, languages: set[str]) -> list[tuple[str, bytes]]:
    tree = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "HEAD"], capture_output=True, text=True, check=True
    ).stdout
    wanted: list[tuple[str, str]] = []
    for line in tree.splitlines():
        meta, path = line.split("\t", 1)
        _, kind, sha = meta.split()
        if kind == "blob" and language_for(path) in languages:
            wanted.append((path, sha))
    if not wanted:
        return []
    batch = ("\n".join(sha for _, sha in wanted) + "\n").encode()
    out = subprocess.run(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"], input=batch, capture_output=True, check=True
    ).stdout
    files, pos = [], 0
    for path, _ in wanted:
        header_end = out.index(b"\n", pos)
        size = int(out[pos:header_end].split()[2])
        files.append((path, out[header_end + 1 : header_end + 1 + size]))
        pos = header_end + 1 + size + 1
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("git_dirs", nargs="+")
    ap.add_argument("--languages", default=DEFAULT, help=f"comma-separated (default {DEFAULT})")
    args = ap.parse_args()
    languages = set(args.languages.split(","))
    for git_dir in args.git_dirs:
        files = _files(git_dir, languages)
        if not files:
            print(f"{git_dir}: no files of {sorted(languages)}")
            continue
        parse_spans(*files[0])  # load the grammar outside the timing
        kinds: Counter[str] = Counter()
        by_language: Counter[str] = Counter()
        errors = unparsed = 0
        start = time.perf_counter()
        for path, data in files:
            r = parse_spans(path, data)
            by_language[r.language] += 1
            errors += r.had_errors
            unparsed += not r.parsed
            kinds.update(s.kind for s in r.spans)
        seconds = time.perf_counter() - start
        mb = sum(len(data) for _, data in files) / 1e6
        print(
            f"{git_dir} {dict(by_language)} files={len(files)} MB={mb:.2f} s={seconds:.2f} MB/s={mb / seconds:.2f}"
            f" syntax_error_files={errors} unparsed={unparsed} spans={sum(kinds.values())} {dict(kinds.most_common())}"
        )


if __name__ == "__main__":
    main()
