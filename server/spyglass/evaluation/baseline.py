"""The plain BM25 control: whole files in an SQLite FTS5 table.

Every evaluation run scores this control next to Spyglass, as the bench README asks ("always run a
plain BM25 baseline, e.g. SQLite FTS5 over whole files, in the same run as a control"). It is deliberately
untuned: one row per file (its path and its whole content), the ``unicode61`` tokenizer, FTS5's default
BM25 ranking, and a query that ORs the issue text's distinct words. With ``split_identifiers`` (the semble
suite's control) camelCase identifiers are also indexed and searched by their parts (``parseConfig``:
``parse``, ``config``), as ``unicode61`` already does for snake_case.

:func:`control_files` picks the control's corpus the way the README's control did (whole non-test
source files), without being Python-only: a file is a source file if its extension names a language
with a tree-sitter grammar in :mod:`spyglass.engine.languages` (Python, TypeScript, Go, Rust, Java, ...;
Markdown is prose, not source, and is left out), and a test file by :func:`is_test_path`, whose rules
cover the common conventions of those languages.
"""

from __future__ import annotations

import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

import apsw

from spyglass.engine.filerules import is_test_path
from spyglass.engine.languages import is_code, language_for_path
from spyglass.engine.textnorm import split_identifier, subword_terms

log = logging.getLogger(__name__)

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_QUERY_TERMS",
    "BM25Files",
    "BuildStats",
    "control_files",
    "fts_query",
    "is_source_path",
    "is_test_path",
    "query_terms",
]

MAX_FILE_BYTES = 1_000_000  # larger files are left out of the control
MAX_QUERY_TERMS = 64

# Languages that have a grammar but are documentation rather than source code.


# Very common English words: they match nearly every file and only add noise (and time) to the query.
STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing done down during each either else etc even ever every
    few for from further get gets got had has have having he her here hers herself him himself his how
    however i if in into is it its itself just let lets like may me might more most must my myself need
    no nor not now of off on once one only or other our ours ourselves out over own per please quite
    rather really same see seems shall she should since so some still such than that the their theirs
    them themselves then there these they this those though through thus to too under until up upon us
    use used using very via was way we well were what when where whether which while who whom whose why
    will with within without would yet you your yours yourself yourselves
    """.split()
)

# unicode61's token characters are letters, digits and private-use characters; everything else
# (underscore and punctuation included) separates tokens. [^\W_] is letters and digits.
_WORD_RE = re.compile(r"[^\W_]+")


def is_source_path(path: str) -> bool:
    """Whether ``path``'s name marks it as source code: a programming language (``is_code``), not prose."""
    language = language_for_path(path)
    return is_code(language)


def control_files(files: list[str]) -> list[str]:
    """The control's corpus out of ``files``: the non-test source files, in the given order.

    Mirrors the bench README's control (whole non-test ``.py`` files on SWE-bench) but is
    language-agnostic: "source" is any language with a grammar (see :func:`is_source_path`), "test" is
    :func:`is_test_path`.
    """
    return [f for f in files if is_source_path(f) and not is_test_path(f)]


def query_terms(text: str, limit: int = MAX_QUERY_TERMS, split: bool = False) -> list[str]:
    """The distinct lower-case word tokens of ``text`` in order of appearance, without stopwords and
    single characters, at most ``limit`` of them. Tokens split as ``unicode61`` splits them; with ``split``,
    a camelCase word is followed by its parts."""
    seen: dict[str, None] = {}
    for m in _WORD_RE.finditer(text):
        word = m.group()
        parts = split_identifier(word) if split else []
        for term in [word.lower(), *(parts if len(parts) > 1 else [])]:
            if len(term) < 2 or term in STOPWORDS or term in seen:
                continue
            seen[term] = None
            if len(seen) >= limit:
                return list(seen)
    return list(seen)


def fts_query(text: str, limit: int = MAX_QUERY_TERMS, split: bool = False) -> str | None:
    """An FTS5 ``MATCH`` expression ORing the words of ``text`` (each one quoted, so no FTS5 syntax can
    leak in), or None when it has none; ``split`` as in :func:`query_terms`."""
    terms = query_terms(text, limit, split)
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


@dataclass(frozen=True, slots=True)
class BuildStats:
    """What :meth:`BM25Files.build` or :meth:`BM25Files.update` did."""

    indexed: int  # files (re)read and indexed
    removed: int  # files taken out of the index
    unchanged: int  # files whose size and mtime had not changed (update only)
    skipped: int  # files too large or unreadable
    seconds: float


class BM25Files:
    """Whole files in an FTS5 table (columns ``path`` and ``content``, ``unicode61``), ranked by BM25.

    ``db_path`` None keeps the table in memory; a path keeps it in that SQLite file (emptied when
    opened and by :meth:`build`). ``split_identifiers`` adds each file's camelCase sub-words to its content
    and splits the query's camelCase words the same way. Use as a context manager or call :meth:`close`.
    """

    def __init__(self, db_path: Path | None = None, split_identifiers: bool = False) -> None:
        self.split_identifiers = split_identifiers
        self._db = apsw.Connection(os.fspath(db_path) if db_path is not None else ":memory:")
        self._db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        self._rows: dict[str, tuple[int, int, int]] = {}  # path -> (rowid, size, mtime_ns)
        self._reset()

    # -- building ----------------------------------------------------------------------------------
    def build(self, root: Path, paths: list[str]) -> BuildStats:
        """Index ``paths`` (POSIX, relative to ``root``) from scratch, replacing whatever was indexed."""
        start = time.perf_counter()
        self._reset()
        indexed, skipped = self._add(Path(root), paths)
        return BuildStats(indexed, 0, 0, skipped, time.perf_counter() - start)

    def update(self, root: Path, paths: list[str]) -> BuildStats:
        """Make the index hold exactly ``paths``: drop the others, (re)index files that are new or whose
        size or mtime changed since they were indexed, leave the rest alone."""
        start = time.perf_counter()
        root = Path(root)
        wanted = dict.fromkeys(paths)
        drop = [p for p in self._rows if p not in wanted]
        removed = len(drop)
        todo: list[str] = []
        unchanged = 0
        for p in wanted:
            row = self._rows.get(p)
            if row is not None:
                try:
                    st = os.stat(root / p)
                except OSError:  # listed but gone: take it out
                    drop.append(p)
                    removed += 1
                    continue
                if (st.st_size, st.st_mtime_ns) == row[1:]:
                    unchanged += 1
                    continue
                drop.append(p)  # changed: re-index below
            todo.append(p)
        with self._db:
            for p in drop:
                self._db.execute("DELETE FROM files WHERE rowid = ?", (self._rows.pop(p)[0],))
        indexed, skipped = self._add(root, todo)
        return BuildStats(indexed, removed, unchanged, skipped, time.perf_counter() - start)

    def __len__(self) -> int:
        return len(self._rows)

    # -- searching ---------------------------------------------------------------------------------
    def search(self, query: str, k: int) -> list[str]:
        """The paths of the ``k`` best files for ``query`` (any text: an issue, a few words), best first."""
        match = fts_query(query, split=self.split_identifiers)
        if match is None or k <= 0:
            return []
        rows = self._db.execute("SELECT path FROM files WHERE files MATCH ? ORDER BY rank LIMIT ?", (match, k))
        return [r[0] for r in rows]

    # -- lifetime ----------------------------------------------------------------------------------
    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> BM25Files:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------------
    def _reset(self) -> None:
        self._rows.clear()
        self._db.execute(
            "DROP TABLE IF EXISTS files; CREATE VIRTUAL TABLE files USING fts5(path, content, tokenize = 'unicode61')"
        )

    def _add(self, root: Path, paths: list[str]) -> tuple[int, int]:
        indexed = skipped = 0
        with self._db:
            for p in paths:
                try:
                    with open(root / p, "rb") as f:
                        st = os.fstat(f.fileno())
                        if st.st_size > MAX_FILE_BYTES:
                            skipped += 1
                            continue
                        data = f.read(MAX_FILE_BYTES + 1)
                except OSError as e:
                    log.debug("control: cannot read %s: %s", p, e)
                    skipped += 1
                    continue
                if len(data) > MAX_FILE_BYTES:
                    skipped += 1
                    continue
                text = data.decode("utf-8", "replace")
                if self.split_identifiers:
                    text = f"{text}\n{subword_terms(text)}"
                self._db.execute("INSERT INTO files (path, content) VALUES (?, ?)", (p, text))
                self._rows[p] = (self._db.last_insert_rowid(), st.st_size, st.st_mtime_ns)
                indexed += 1
        return indexed, skipped
