"""Reading the index's history: searching commits, hot spots, and what the history holds.

A history search is full text over each commit's message, the paths it touched and the definitions it
changed (BM25, weights in ``migrations.COMMIT_TEXT_COLUMNS``); a commit that changed a definition or a
file the query names outright comes first, and among equals the newer one. A query that is one name lists
the commits that changed that definition, newest first. Each commit comes back with
its files and, for each definition it changed, the span that defines that name in the file today.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import cast

from ..answers import CommitHit, HistoryState, HotFile, TouchedFile, TouchedSymbol
from ..migrations import COMMIT_TEXT_COLUMNS
from ..search.query import parse_query
from ..search.shaping import tokens_of
from ..store import Store
from .recorder import META_BRANCH, META_ERROR, META_HEAD

POOL = 200  # commits BM25 hands on to be ordered
NAMED = 1.0  # a commit that changed a definition or file the query names, over the best BM25 (1.0)
NEWER = 0.15  # the newest commit's edge over the oldest, among otherwise equal ones
MAX_FILES = 12  # files listed per commit (files_total says how many it touched)
MAX_SYMBOLS = 8  # definitions listed per file
MAX_MESSAGE_CHARS = 1200


def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")


class HistoryReader:
    def __init__(self, store: Store):
        self.store = store

    def state(self) -> HistoryState:
        con = self.store.con
        count, newest, oldest = cast(
            tuple[int, int | None, int | None],
            con.execute("SELECT COUNT(*), MAX(time), MIN(time) FROM commits").fetchone(),
        )
        return HistoryState(
            head=self.store.get_meta(META_HEAD) or None,
            branch=self.store.get_meta(META_BRANCH) or None,
            commits=int(count),
            newest=iso(newest) if newest is not None else None,
            oldest=iso(oldest) if oldest is not None else None,
            error=self.store.get_meta(META_ERROR) or None,
        )

    def hot_files(self, n: int = 10) -> list[HotFile]:
        """The files the most indexed commits touched (files still in the index only), then the newest."""
        rows = self.store.con.execute(
            "SELECT cf.path, COUNT(*) AS n, MAX(c.time) AS last FROM commit_files cf "
            "JOIN commits c ON c.id = cf.commit_id JOIN files f ON f.path = cf.path AND f.skip_reason IS NULL "
            "GROUP BY cf.path ORDER BY n DESC, last DESC, cf.path LIMIT ?",
            (int(n),),
        )
        return [HotFile(path, int(count), iso(last)) for path, count, last in rows]

    def search(
        self, query: str, k: int = 10, path: str | None = None, max_tokens: int | None = None
    ) -> tuple[list[CommitHit], bool]:
        """The commits that best answer ``query`` (newest first when it is empty), touching ``path`` (a
        file or a folder) when given; and whether ``max_tokens`` cut something."""
        scores = self._scores(query, path)
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])[: max(0, int(k))]
        hits: list[CommitHit] = []
        truncated = False
        budget = max_tokens
        for cid, score in ranked:
            hit = self._hit(cid, score, path)
            cost = tokens_of(len(hit.message) + sum(len(f.path) + 20 * (1 + len(f.symbols)) for f in hit.files) + 80)
            if budget is not None and cost > budget:
                truncated = True
                if hits:
                    break
                hit = _trimmed(hit, budget)  # the first always comes back, cut to fit
                cost = budget
            hits.append(hit)
            if budget is not None:
                budget -= cost
        return hits, truncated

    # -- internals -----------------------------------------------------------------------------
    def _scores(self, query: str, path: str | None) -> dict[int, float]:
        con = self.store.con
        within, args = _touching(path)
        newest = con.execute(f"SELECT id, time FROM commits WHERE 1{within} ORDER BY time DESC, id DESC", args)
        order = [int(cid) for cid, _ in newest]
        if not order:
            return {}
        recency = {cid: NEWER * (1 - i / len(order)) for i, cid in enumerate(order)}
        parsed = parse_query(query)
        match = parsed.fts_match
        if not match:
            return recency
        weights = ", ".join(str(w) for w in COMMIT_TEXT_COLUMNS.values())
        rows = con.execute(
            f"SELECT rowid, bm25(commits_fts, {weights}) AS r FROM commits_fts WHERE commits_fts MATCH ? "
            f"ORDER BY r LIMIT ?",
            (match, POOL * 5 if path else POOL),
        ).fetchall()
        bm25 = [(int(cast(int, cid)), float(cast(float, r))) for cid, r in rows]
        best = min((r for _, r in bm25), default=0.0)
        scores = {cid: (r / best if best else 0.0) for cid, r in bm25 if cid in recency}
        for cid in self._naming(parsed.identifiers, parsed.paths):
            if cid in recency:
                # a query that is one name asks what `git log -L` answers: the commits that changed it,
                # newest first (their messages need not say its name); otherwise the words count too
                scores[cid] = NAMED if parsed.whole_name else scores.get(cid, 0.0) + NAMED
        return {cid: s + recency[cid] for cid, s in scores.items()}

    def _naming(self, names: Sequence[str], paths: Sequence[str]) -> set[int]:
        """Commits that changed a definition named (by its name or qualified name) or a file named."""
        found: set[int] = set()
        con = self.store.con
        for name in dict.fromkeys(names):
            rows = con.execute(
                "SELECT DISTINCT commit_id FROM commit_symbols WHERE qualname = ? OR qualname LIKE ? ESCAPE '\\'",
                (name, "%." + _like(name)),
            )
            found.update(int(r[0]) for r in rows)
        for path in dict.fromkeys(paths):
            rows = con.execute(
                "SELECT DISTINCT commit_id FROM commit_files WHERE path = ? OR path LIKE ? ESCAPE '\\'",
                (path, "%/" + _like(path)),
            )
            found.update(int(r[0]) for r in rows)
        return found

    def _hit(self, cid: int, score: float, path: str | None) -> CommitHit:
        con = self.store.con
        sha, when, message = cast(
            tuple[str, int, str], con.execute("SELECT sha, time, message FROM commits WHERE id=?", (cid,)).fetchone()
        )
        rows = cast(
            list[tuple[str, int, int]],
            con.execute(
                "SELECT path, added, deleted FROM commit_files WHERE commit_id=? ORDER BY added + deleted DESC, path",
                (cid,),
            ).fetchall(),
        )
        if path:  # the files asked about first
            rows.sort(key=lambda r: not _under(r[0], path))
        symbols: dict[str, list[str]] = {}
        for p, name in con.execute("SELECT path, qualname FROM commit_symbols WHERE commit_id=?", (cid,)):
            symbols.setdefault(str(p), []).append(str(name))
        files = [
            TouchedFile(
                p, int(a), int(d), [TouchedSymbol(n, self._span_of(p, n)) for n in symbols.get(p, [])[:MAX_SYMBOLS]]
            )
            for p, a, d in rows[:MAX_FILES]
        ]
        message = str(message)
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[:MAX_MESSAGE_CHARS].rstrip() + " …"
        subject = message.split("\n", 1)[0]
        return CommitHit(str(sha), iso(when), subject, message, files, len(rows), round(score, 4))

    def _span_of(self, path: str, qualname: str) -> str | None:
        row = self.store.con.execute(
            "SELECT s.span_id FROM spans s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.qualname = ? "
            "ORDER BY s.start_line LIMIT 1",
            (path, qualname),
        ).fetchone()
        return str(row[0]) if row else None


def _touching(path: str | None) -> tuple[str, tuple]:
    if not path:
        return "", ()
    folder = path.rstrip("/")
    return (
        " AND id IN (SELECT commit_id FROM commit_files WHERE path = ? OR path LIKE ? ESCAPE '\\')",
        (folder, _like(folder) + "/%"),
    )


def _under(path: str, asked: str) -> bool:
    asked = asked.rstrip("/")
    return path == asked or path.startswith(asked + "/")


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _trimmed(hit: CommitHit, budget: int) -> CommitHit:
    chars = max(200, budget * 4 - 200)
    files = hit.files[: max(1, budget // 60)]
    message = hit.message if len(hit.message) <= chars else hit.message[:chars].rstrip() + " …"
    return CommitHit(hit.sha, hit.date, hit.subject, message, files, hit.files_total, hit.score)
