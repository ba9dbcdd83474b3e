"""Evaluation queries from a repository's own history: every bug-fix commit is one query.

SWE-bench is Python only; this turns any git repository, in any language Spyglass parses, into a set in
our JSONL format (``dataset.py``), so quality can be measured where users search:

- the query is the commit's message (subject and body, without trailers or pull-request numbers): what a
  developer would ask before the fix was written, in the words of someone who knows the answer;
- the corpus is the commit's parent;
- the gold is the code the fix changed: each changed source file (not tests, not docs), narrowed to the
  innermost definition around each changed line of the parent (Spyglass's own parser, so the symbols are
  named as search names them), or the whole file for lines outside any definition.

A commit is a fix when its subject says so (fix, bug, crash, panic, ...) and not a chore (docs, CI, typo,
dependency bumps, tests); it must change 1 to ``max_files`` existing source files. Commit messages are
shorter than issues and sometimes name the function they change: read figures from this set next to the
BM25 control of the same run, not next to SWE-bench's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..engine.filerules import is_side_path, is_test_path
from ..engine.history.gitlog import HUNK
from ..engine.history.touched import enclosing_symbols
from ..engine.languages import has_grammar, is_code, language_for_path
from .corpus import repo_label, run_git
from .dataset import EvalQuery, GoldItem

FIX = re.compile(
    r"\b(fix(es|ed|ing)?|bug(s|fix)?|crash(es|ed)?|panic(s|ked)?|wrong|incorrect|regression|broken)\b", re.I
)
CHORE = re.compile(
    r"^(\w+(\([^)]*\))?!?:\s*)?(docs?|ci|chore|build|style|tests?|release|revert|merge|bump|update deps?)\b"
    r"|\btypos?\b|\bbump(ed|s)?\b|\bdependabot\b|\bclippy\b|\blint(s|er|ing)?\b|\bformatting\b|\bci\b",
    re.I,
)
TRAILER = re.compile(
    r"^([A-Za-z]+(-[A-Za-z]+)*-by|change-id|pr-url|pr-close|cc):\s|^(fixes|fixed|fix|closes|closed|resolves|resolved|refs?)\b\W*#\d+\W*$",
    re.I,
)
PR_NUMBER = re.compile(r"\s*\((#\d+(,\s*)?)+\)")
TEST_SCOPES = frozenset({"test", "tests"})  # a test module inside a source file (Rust's ``mod tests``)
MIN_WORDS = 3


@dataclass(frozen=True, slots=True)
class Commit:
    sha: str
    parent: str
    message: str


def fix_commits(git_dir: Path, ref: str = "HEAD", scan: int = 5000) -> Iterator[Commit]:
    """Non-merge commits reachable from ``ref``, newest first, whose subject says they fix something."""
    out = run_git(git_dir, "log", "--no-merges", f"-n{scan}", "--format=%H%x00%P%x00%B%x1e", ref, "--")
    for record in out.decode("utf-8", "replace").split("\x1e"):
        parts = record.strip("\n").split("\x00")
        if len(parts) != 3:
            continue
        sha, parents, message = parts
        subject = message.strip().split("\n", 1)[0]
        if len(parents.split()) != 1 or not FIX.search(subject) or CHORE.search(subject):
            continue
        yield Commit(sha, parents.strip(), message.strip())


def query_text(message: str) -> str:
    """The commit message as a query: subject and body, without trailers and pull-request numbers."""
    subject, *body = message.strip().splitlines()
    text = "\n".join([subject, *(line for line in body if not TRAILER.match(line.strip()))]).strip()
    return PR_NUMBER.sub("", text).strip()


def is_source(path: str) -> bool:
    """A file whose change counts as the fix: code Spyglass parses, not a test, not docs or examples."""
    language = language_for_path(path)
    return is_code(language) and has_grammar(language) and not is_test_path(path) and not is_side_path(path)


def changed_lines(diff: bytes) -> dict[str, list[tuple[int, int]]]:
    """{path: parent-side line ranges} of a ``git diff -U0`` of existing files: each removed or changed line
    as ``(line, line)``; a pure insertion as the two lines around it, ``(line, line + 1)``."""
    out: dict[str, list[tuple[int, int]]] = {}
    path = None
    for line in diff.splitlines():
        if line.startswith(b"--- "):
            path = line[6:].decode("utf-8", "replace") if line.startswith(b"--- a/") else None
        elif path is not None and (m := HUNK.match(line)):
            start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            ranges = [(n, n) for n in range(start, start + count)] if count else [(start, start + 1)]
            out.setdefault(path, []).extend(ranges)
    return out


def gold_symbols(path: str, data: bytes, ranges: list[tuple[int, int]]) -> list[str | None]:
    """:func:`enclosing_symbols`, without ranges in a test module (Rust's ``mod tests``)."""
    return [s for s in enclosing_symbols(path, data, ranges) if not (s and TEST_SCOPES & set(s.split(".")))]


def query_for(git_dir: Path, repo: str, commit: Commit, max_files: int) -> EvalQuery | None:
    """The query of one fix commit, or None when it does not qualify (see the module docstring)."""
    text = query_text(commit.message)
    if len(text.split()) < MIN_WORDS:
        return None
    status = run_git(git_dir, "diff", "--no-renames", "--name-status", "-z", commit.parent, commit.sha, "--")
    fields = status.decode("utf-8", "replace").split("\x00")
    changed = [(fields[i], fields[i + 1]) for i in range(0, len(fields) - 1, 2)]
    sources = [p for s, p in changed if is_source(p)]
    modified = [p for s, p in changed if s == "M" and is_source(p)]
    if not modified or len(sources) > max_files:
        return None
    diff = run_git(git_dir, "diff", "-U0", "--no-renames", "--no-color", commit.parent, commit.sha, "--", *modified)
    gold: list[GoldItem] = []
    for path, ranges in changed_lines(diff).items():
        data = run_git(git_dir, "cat-file", "blob", f"{commit.parent}:{path}")
        symbols = gold_symbols(path, data, ranges)
        named = [s for s in symbols if s]
        if named:
            gold.extend(GoldItem(path, s) for s in named)
        elif symbols:  # changed outside any definition
            gold.append(GoldItem(path))
    if not gold:
        return None
    return EvalQuery(
        id=f"{repo_label(repo)}-{commit.sha[:10]}",
        query=text,
        repo=repo,
        commit=commit.parent,
        gold=gold,
        meta={"source": "history", "fix_commit": commit.sha},
    )


def from_history(git_dir: Path, repo: str, limit: int = 40, max_files: int = 3, ref: str = "HEAD") -> list[EvalQuery]:
    """The newest ``limit`` fix commits of ``repo`` (a path or "owner/name"; its git directory ``git_dir``) as
    queries, newest first."""
    queries: list[EvalQuery] = []
    for commit in fix_commits(git_dir, ref):
        q = query_for(git_dir, repo, commit, max_files)
        if q is not None:
            queries.append(q)
            if len(queries) >= limit:
                break
    return queries
