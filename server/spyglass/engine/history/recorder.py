"""Keeping the index's copy of recent history in step with the repository (the writer's side).

The index holds the newest ``depth`` non-merge commits reachable from HEAD that touch the workspace. A
sync asks git for that list (one ``rev-list``), drops the commits no longer in it (a branch switch, a
rebase, a reset) and reads only the new ones: moving HEAD by one commit costs one commit's diff.

For each commit it keeps the author date, the message (with secrets redacted), the files it touched
inside the workspace (secret files never) and, for code, the definitions around its changed lines.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from ..filerules import is_secret_file
from ..gitinfo import head as git_head
from ..languages import has_grammar, language_for_path
from ..redact import redact
from ..store import Store
from ..textnorm import path_words, subword_terms
from .gitlog import CommitChanges, GitUnavailable, Repository
from .touched import touched_symbols

log = logging.getLogger(__name__)

BATCH = 100  # commits read and written per transaction
MAX_BLOB_BYTES = 512 * 1024  # larger file versions are not parsed: the file is named, not its definitions
MAX_PARSED_FILES = 40  # a commit touching more files (a reformat, a vendored drop) names files only

META_HEAD, META_BRANCH, META_DEPTH, META_ERROR = "history_head", "history_branch", "history_depth", "history_error"


@dataclass
class HistoryReport:
    head: str | None = None
    commits: int = 0  # held after the sync
    added: int = 0
    removed: int = 0
    seconds: float = 0.0
    error: str | None = None  # why there is no history (not a repository, no git)
    complete: bool = True  # False: cancelled before every new commit was read (the next sync goes on)


def sync_history(
    store: Store,
    root: Path,
    depth: int,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    source: tuple[Path, str] | None = None,
) -> HistoryReport:
    """Bring the index's history up to HEAD's newest ``depth`` commits (0 forgets all of it); with
    ``source`` (a git directory and a commit), that repository's history up to that commit instead."""
    t0 = time.perf_counter()
    report = HistoryReport()
    try:
        repo = (Repository(root, *source) if source else Repository(root)) if depth > 0 else None
    except GitUnavailable as e:
        repo, report.error = None, str(e)
    head = repo.head() if repo else None
    report.head = head
    if head is not None and head == store.get_meta(META_HEAD) and str(depth) == store.get_meta(META_DEPTH):
        report.commits = int(cast(tuple, store.con.execute("SELECT COUNT(*) FROM commits").fetchone())[0])
        return report  # HEAD did not move: nothing to read
    held: dict[str, int] = {str(sha): int(cid) for sha, cid in store.con.execute("SELECT sha, id FROM commits")}
    try:
        wanted = repo.recent(depth) if repo and head else []
    except GitUnavailable as e:
        wanted, report.error = [], str(e)
    keep = set(wanted)
    gone = [cid for sha, cid in held.items() if sha not in keep]
    new = [sha for sha in wanted if sha not in held]
    with store.atomic() as con:
        for cid in gone:
            con.execute("DELETE FROM commits_fts WHERE rowid=?", (cid,))
            con.execute("DELETE FROM commit_files WHERE commit_id=?", (cid,))
            con.execute("DELETE FROM commit_symbols WHERE commit_id=?", (cid,))
            con.execute("DELETE FROM commits WHERE id=?", (cid,))
    report.removed = len(gone)
    read = 0
    if repo is not None and new:
        with repo.blobs() as blobs:
            for start in range(0, len(new), BATCH):
                if cancel is not None and cancel():
                    break
                batch = new[start : start + BATCH]
                changes = repo.changes(batch)  # without a commit git could not read at all
                with store.atomic() as con:
                    for commit in changes:
                        _record(con, commit, blobs)
                report.added += len(changes)
                read += len(batch)
                if progress:
                    progress(read, len(new))
    complete = report.complete = read == len(new)
    state = {
        META_HEAD: head if complete and head else "",
        META_BRANCH: "" if source else git_head(root)[1] or "",
        META_DEPTH: str(depth) if complete else "",
        META_ERROR: report.error or "",
    }
    if any(store.get_meta(key, "") != value for key, value in state.items()):  # outside git: written once
        with store.atomic():
            for key, value in state.items():
                store.set_meta(key, value)
    report.commits = len(held) - len(gone) + report.added
    report.seconds = time.perf_counter() - t0
    if report.added or report.removed:
        log.info(
            "history: %d commits (+%d, -%d) in %.1f s", report.commits, report.added, report.removed, report.seconds
        )
    return report


def _record(con, commit: CommitChanges, blobs) -> None:
    files = [f for f in commit.files if not is_secret_file(f.path)]
    message = redact(commit.message).text
    con.execute("INSERT OR IGNORE INTO commits(sha, time, message) VALUES(?, ?, ?)", (commit.sha, commit.time, message))
    cid = con.execute("SELECT id FROM commits WHERE sha=?", (commit.sha,)).fetchone()[0]
    names: list[str] = []
    parse = len(files) <= MAX_PARSED_FILES
    for f in files:
        con.execute(
            "INSERT OR REPLACE INTO commit_files(commit_id, path, added, deleted) VALUES(?, ?, ?, ?)",
            (cid, f.path, f.added, f.deleted),
        )
        if not (parse and f.blob and f.lines and has_grammar(language_for_path(f.path))):
            continue
        data = blobs.read(f.blob, MAX_BLOB_BYTES)
        if data is None:
            continue
        for qualname in touched_symbols(f.path, data, f.lines):
            names.append(qualname)
            con.execute(
                "INSERT OR IGNORE INTO commit_symbols(commit_id, path, qualname) VALUES(?, ?, ?)",
                (cid, f.path, qualname),
            )
    touched = " ".join([*(path_words(f.path) for f in files), *dict.fromkeys(names)])
    con.execute(
        "INSERT INTO commits_fts(rowid, message, touched, terms) VALUES(?, ?, ?, ?)",
        (cid, message, touched, subword_terms(f"{message} {' '.join(names)}")),
    )
