"""Numbered schema migrations, each applied atomically and recorded in ``schema_migrations``.

Append new migrations to ``MIGRATIONS``; never edit one that has shipped. The vector table is not here:
its width depends on the model, so the store creates it when the first embedding arrives.
"""

from __future__ import annotations

from collections.abc import Callable

import apsw

# The full-text columns of spans and of whole files, in schema order, each with the BM25 weight search
# gives it (store.fts, store.file_fts): the one definition of both. A new column needs a new migration.
SPAN_TEXT_COLUMNS = {"name": 4.0, "path": 2.0, "doc": 1.5, "body": 1.0, "terms": 0.7}
FILE_TEXT_COLUMNS = {"path": 2.0, "body": 1.0, "terms": 0.5}
COMMIT_TEXT_COLUMNS = {"message": 1.0, "touched": 1.5, "terms": 0.5}


def _m1_initial(con: apsw.Connection) -> None:
    con.execute(
        f"""
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);

        -- every file discovery saw; skipped files keep their reason so an unchanged one is not re-read
        CREATE TABLE files(
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            language TEXT,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            content_hash TEXT,
            skip_reason TEXT,
            parse_errors INTEGER NOT NULL DEFAULT 0,
            indexed_at REAL NOT NULL
        );

        CREATE TABLE spans(
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL REFERENCES files(id),
            span_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            qualname TEXT NOT NULL,
            signature TEXT NOT NULL,
            doc TEXT NOT NULL,
            parent TEXT,
            language TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            start_byte INTEGER NOT NULL,
            end_byte INTEGER NOT NULL,
            text TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            embed_hash TEXT NOT NULL,
            embedded INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX spans_file ON spans(file_id);
        CREATE INDEX spans_span_id ON spans(span_id);
        CREATE INDEX spans_name ON spans(name COLLATE NOCASE);
        CREATE INDEX spans_embed_hash ON spans(embed_hash);
        CREATE INDEX spans_pending ON spans(id) WHERE embedded = 0;

        -- vectors by the hash of what was embedded (model and recipe included in the hash): a span whose
        -- text comes back after a rename, branch switch or revert is never embedded twice
        CREATE TABLE embedding_cache(
            embed_hash TEXT PRIMARY KEY,
            vector BLOB NOT NULL,
            used_at REAL NOT NULL
        ) WITHOUT ROWID;

        -- contentless full text (the text lives in spans): names, path words, docs, code, sub-words
        CREATE VIRTUAL TABLE spans_fts USING fts5(
            {", ".join(SPAN_TEXT_COLUMNS)},
            content='', contentless_delete=1,
            tokenize="unicode61 remove_diacritics 2"
        );
        """
    )


def _m2_vector_log(con: apsw.Connection) -> None:
    # every vector added to or removed from span_vectors, in order (span = -1: all were dropped), so a
    # long-running reader can keep an in-memory copy fresh by applying only what changed
    con.execute(
        "CREATE TABLE vector_log(seq INTEGER PRIMARY KEY AUTOINCREMENT, span INTEGER NOT NULL, added INTEGER NOT NULL)"
    )


def _m3_vocabulary(con: apsw.Connection) -> None:
    # per-term document counts, so search can skip terms too common to tell spans apart
    con.execute("CREATE VIRTUAL TABLE spans_vocab USING fts5vocab(spans_fts, 'row')")


def _m4_file_text(con: apsw.Connection) -> None:
    # whole-file full text: long queries (a pasted issue) spread their words over a file, not one span
    con.execute(
        f"""
        CREATE VIRTUAL TABLE files_fts USING fts5(
            {", ".join(FILE_TEXT_COLUMNS)},
            content='', contentless_delete=1,
            tokenize="unicode61 remove_diacritics 2"
        );
        -- make the next run re-read every file to fill it; vectors come back from the cache
        UPDATE files SET content_hash = NULL, mtime_ns = -1 WHERE skip_reason IS NULL;
        """
    )


def _m5_open_buffers(con: apsw.Connection) -> None:
    # files whose indexed text is an editor's unsaved buffer, and the session (one open Workspace of one
    # process) that sent it: once that session has ended, the disk's version is put back
    con.execute(
        "CREATE TABLE open_buffers(path TEXT PRIMARY KEY, session TEXT NOT NULL, pid INTEGER NOT NULL, "
        "since REAL NOT NULL) WITHOUT ROWID"
    )


def _m6_file_secrets(con: apsw.Connection) -> None:
    # the secrets found in each file's indexed text (redact.FileSecrets as JSON, tagged with the rules'
    # version), so a search redacts a hit's excerpt without scanning the whole file again; NULL: not yet
    con.execute("ALTER TABLE files ADD COLUMN secrets TEXT")


def _m7_qualname_index(con: apsw.Connection) -> None:
    # a dotted name in a query (``fmt.printf``, ``Sinatra.Helpers``) is looked up by qualified name too:
    # without an index that read every span (40 ms at 100k spans)
    con.execute("CREATE INDEX spans_qualname ON spans(qualname)")


def _m8_history(con: apsw.Connection) -> None:
    # the repository's recent commits (engine/history): what changed, when and why, for history search
    # and the recency of files; paths are relative to the workspace, symbols are qualified names
    con.execute(
        f"""
        CREATE TABLE commits(
            id INTEGER PRIMARY KEY,
            sha TEXT NOT NULL UNIQUE,
            time INTEGER NOT NULL,
            message TEXT NOT NULL
        );
        CREATE TABLE commit_files(
            commit_id INTEGER NOT NULL REFERENCES commits(id),
            path TEXT NOT NULL,
            added INTEGER NOT NULL,
            deleted INTEGER NOT NULL,
            PRIMARY KEY(commit_id, path)
        ) WITHOUT ROWID;
        CREATE INDEX commit_files_path ON commit_files(path);
        CREATE TABLE commit_symbols(
            commit_id INTEGER NOT NULL REFERENCES commits(id),
            path TEXT NOT NULL,
            qualname TEXT NOT NULL,
            PRIMARY KEY(commit_id, path, qualname)
        ) WITHOUT ROWID;
        -- message, touched paths and names, and their sub-words
        CREATE VIRTUAL TABLE commits_fts USING fts5(
            {", ".join(COMMIT_TEXT_COLUMNS)},
            content='', contentless_delete=1,
            tokenize="unicode61 remove_diacritics 2"
        );
        """
    )


def _m9_compact_embedding_cache(con: apsw.Connection) -> None:
    # a vector (1.5 KB) does not fit in a leaf of a WITHOUT ROWID table: each row took an overflow page and
    # random keys split the leaves, 7 KB per vector. In rowid order rows are appended and fill their pages.
    con.execute(
        """
        CREATE TABLE embedding_cache_new(
            id INTEGER PRIMARY KEY,
            embed_hash TEXT NOT NULL UNIQUE,
            vector BLOB NOT NULL,
            used_at REAL NOT NULL
        );
        INSERT INTO embedding_cache_new(embed_hash, vector, used_at)
            SELECT embed_hash, vector, used_at FROM embedding_cache ORDER BY used_at;
        DROP TABLE embedding_cache;
        ALTER TABLE embedding_cache_new RENAME TO embedding_cache;
        """
    )


def _m10_doc_includes(con: apsw.Connection) -> None:
    # which files a file takes documentation from (docfiles.py): when one changes, the files it documents
    # are parsed again, though their own bytes did not change
    con.execute(
        """
        CREATE TABLE doc_includes(
            source TEXT NOT NULL,
            included TEXT NOT NULL,
            PRIMARY KEY(source, included)
        ) WITHOUT ROWID;
        CREATE INDEX doc_includes_included ON doc_includes(included);
        """
    )


MIGRATIONS: list[Callable[[apsw.Connection], None]] = [
    _m1_initial,
    _m2_vector_log,
    _m3_vocabulary,
    _m4_file_text,
    _m5_open_buffers,
    _m6_file_secrets,
    _m7_qualname_index,
    _m8_history,
    _m9_compact_embedding_cache,
    _m10_doc_includes,
]
SCHEMA_VERSION = len(MIGRATIONS)
