"""Bring the index in line with the files: discover, diff, parse what changed, then embed what is new.

Phase one (lexical) makes every changed file searchable by name and full text as soon as it is parsed;
phase two (vectors) embeds spans whose text the cache has never seen. A file is re-read only when its
(size, mtime) changed, re-parsed only when its content hash changed, and a span is re-embedded only when
its embedded text is new, so an unchanged tree costs one directory walk.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

from .discovery import Escaped, FileEntry, check_path, discover, looks_binary, read_inside
from .docfiles import INCLUDED_CHARS, with_included_docs
from .embedding import Embedder
from .embedtext import embed_hash, embed_text
from .errors import ModelLoadError
from .filerules import MISSING, NOT_REGULAR, SYMLINK_OUTSIDE_ROOT, TOO_LARGE
from .notebooks import code_view, size_limit
from .parsing import PARSER_VERSION, parse_spans
from .redact import SECRETS_VERSION, FileSecrets, redact, unmarked
from .settings import Settings
from .store import PendingEmbedding, SpanRecord, Store
from .textnorm import path_words, subword_terms

log = logging.getLogger(__name__)

Phase = Literal["scan", "parse", "model", "embed"]
"""What indexing is doing when it reports progress: walking the tree, parsing files, loading the model (no
count) or embedding texts. Each front end words them its own way, in a table keyed by this type."""
PHASES: tuple[Phase, ...] = get_args(Phase)

ProgressFn = Callable[[Phase, int, int], None]
"""``progress(phase, done, total)``."""


class Cancel(Protocol):
    """What stops a long run between steps: a ``threading.Event``, or anything else with ``is_set``."""

    def is_set(self) -> bool: ...


FILES_PER_TRANSACTION = 64
BATCHES_PER_WRITE = 8  # vectors are written after this many model batches
CACHE_KEEP_UNUSED = 50_000
CACHE_PRUNE_EVERY = 2_000  # vectors cached between two looks for unused ones
SKIPPED_PATHS_KEPT = 2000  # paths skipped by discovery's rules kept for status (the counts are all kept)


CHANGE_COUNTS = ("added", "changed", "unchanged", "deleted", "parsed", "spans_written", "vectors_reused")
"""The counts of an ``IndexReport`` that say what an update changed (a file at a time, they add up)."""


@dataclass
class IndexReport:
    """What a sync did; every count is of files unless it says spans."""

    seen: int = 0
    added: int = 0
    changed: int = 0
    unchanged: int = 0
    deleted: int = 0
    parsed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    spans_written: int = 0
    vectors_reused: int = 0
    spans_embedded: int = 0
    texts_embedded: int = 0
    syntax_errors: int = 0
    files_with_secrets: int = 0  # of the files read: redacted in every answer
    model_error: str | None = None
    model_reset: str | None = None
    cancelled: bool = False
    history_commits: int = 0  # commits of the repository's history the index holds after the sync
    history_added: int = 0
    parse_tree: Any = None  # update_path of a buffer: its new syntax tree (not part of the summary)
    seconds: dict[str, float] = field(default_factory=dict)
    changed_paths: list[str] = field(default_factory=list)
    deleted_paths: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        """The counts as plain JSON-ready data (without the path lists)."""
        data = {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if not f.name.endswith("_paths") and f.name != "parse_tree"
        }
        data["skipped"] = dict(self.skipped)
        data["seconds"] = {k: round(v, 3) for k, v in self.seconds.items()}
        return data

    @classmethod
    def from_summary(cls, data: dict) -> IndexReport:
        """The report a :meth:`summary` describes (as another process sent it); unknown keys are ignored."""
        known = {f.name for f in fields(cls)} - {"parse_tree", "changed_paths", "deleted_paths"}
        report = cls(**{k: v for k, v in data.items() if k in known})
        report.skipped = Counter(report.skipped)
        return report


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def span_records(
    path: str,
    data: bytes,
    settings: Settings,
    old_tree: Any = None,
    secrets: FileSecrets | None = None,
    read_doc: Callable[[str], str | None] | None = None,
) -> tuple[str, bool, list[SpanRecord], Any]:
    """Parse a file's bytes into records ready for the store: (language, had syntax errors, records, the
    syntax tree for a later incremental parse, or None). The file's ``secrets``, when it has any, are
    replaced by their markers in what is searched and embedded: a search for a secret's value finds nothing.
    ``read_doc`` reads the files the code names as documentation (docfiles.py); None: none are read."""
    result = parse_spans(path, data, settings, old_tree=old_tree)
    spans = with_included_docs(path, result.language, result.spans, read_doc) if read_doc else result.spans
    pwords = path_words(path)
    clean = secrets.clean if secrets is not None and secrets.count else None
    records = []
    for s in spans:
        if clean is not None:  # names, signature and doc are stored without the secrets (the text is not)
            name, qualname, signature, doc = clean(s.name), clean(s.qualname), clean(s.signature), clean(s.doc)
            s = replace(s, name=name, qualname=qualname, signature=signature, doc=doc)
        body = unmarked(clean(s.text)) if clean is not None else s.text
        text = embed_text_of(s.kind, s.qualname, s.signature, s.doc, s.text, settings, clean, path)
        names = unmarked(f"{s.name} {s.qualname}")
        records.append(
            SpanRecord(
                span=s,
                span_id=s.span_id(path),
                embed_hash=embed_hash(text, settings.embed_max_tokens),
                fts=(names + " " + subword_terms(names), pwords, unmarked(s.doc), body, subword_terms(body)),
            )
        )
    return result.language, result.had_errors, records, result.tree


def embed_text_of(
    kind: str,
    qualname: str,
    signature: str,
    doc: str,
    text: str,
    settings: Settings,
    clean: Callable | None,
    path: str,
) -> str:
    """What is embedded for a span of the file at ``path``: the recipe's text of its fields, its file's
    secrets replaced by their markers (``clean``: ``FileSecrets.clean`` of the file, or None when it has
    none). The one definition, used when the span is indexed (for its hash) and when it is embedded."""
    if clean is not None:
        qualname, signature, doc, text = clean(qualname), clean(signature), clean(doc), clean(text)
    return embed_text(kind, qualname, signature, doc, text, settings.embed_max_tokens, settings.embed_text, path)


DOC_READ_BYTES = 65536  # of a file included as documentation, what is read and redacted

# settings that change the spans a file gives or the text embedded for them
SPAN_SETTINGS = ("window_lines", "window_overlap", "max_span_lines", "embed_max_tokens", "embed_text")


class Indexer:
    """The only writer of a workspace's index (the caller holds the workspace's writer lock)."""

    def __init__(self, root: Path, store: Store, settings: Settings, embedder: Embedder | None):
        self.root = root
        self.store = store
        self.settings = settings
        self.embedder = embedder if settings.embed else None

    def _doc_file(self, rel: str) -> str | None:
        """The start of a file the code names as its documentation (docfiles.py), its secrets replaced by
        their markers; None unless it is a file this index would index itself."""
        try:
            if check_path(self.root, rel, self.settings) is not None:
                return None
            if (self.root / rel).stat().st_size > self.settings.max_file_size:
                return None
            data = read_inside(self.root, rel)
        except (OSError, ValueError):  # ValueError: a NUL in the path
            return None
        if looks_binary(data[:8192]):
            return None
        # the doc keeps its first INCLUDED_CHARS: redact a generous prefix (a secret across the cut is whole)
        return redact(data[:DOC_READ_BYTES].decode("utf-8", "replace")).text[:INCLUDED_CHARS]

    def _refresh_documented(self, report: IndexReport) -> None:
        """Parse again the files whose documentation comes from a file that changed or went since they were
        parsed (the store marks them: ``Store.stale_documented``): their own bytes are the same, their docs
        are not. An open editor buffer is left to its session (it is parsed again when it changes or
        closes: the mark stays until then)."""
        stale = self.store.stale_documented()
        if not stale:  # the common case, on every update: nothing more to read
            return
        buffers = self.store.open_buffers()
        tree = report.parse_tree  # the tree of the file the report is about, not of these
        for source in stale:
            if source in buffers:
                continue
            try:
                st = (self.root / source).stat()
                data = read_inside(self.root, source)
            except OSError:  # gone or unreadable: the next sync judges it
                continue
            with self.store.atomic():
                self._index_bytes(source, data, st.st_size, st.st_mtime_ns, report, again=True, docs_only=True)
        report.parse_tree = tree

    # -- the whole tree --------------------------------------------------------------------------
    def sync(self, progress: ProgressFn | None = None, cancel: Cancel | None = None, embed: bool = True) -> IndexReport:
        """Bring the index up to date with the disk; ``embed=False`` leaves new spans pending (a live
        index embeds them later, between editor updates)."""
        report = IndexReport()
        progress = progress or (lambda *_: None)
        t0 = time.perf_counter()
        progress("scan", 0, 0)
        self._check_span_settings()
        self._check_size_limit()
        found = discover(self.root, self.settings)
        report.skipped.update(found.skipped)
        report.seen = len(found.files)
        progress("scan", report.seen, report.seen)
        known = self.store.file_states()
        report.seconds["scan"] = time.perf_counter() - t0

        t1 = time.perf_counter()
        todo: list[FileEntry] = []
        for entry in found.files:
            state = known.pop(entry.path, None)
            if state is None:
                report.added += 1
                todo.append(entry)
            elif state.size != entry.size or state.mtime_ns != entry.mtime_ns:
                todo.append(entry)
            else:
                report.unchanged += 1
                if state.skip_reason:
                    report.skipped[state.skip_reason] += 1
        for path in known:  # in the index but no longer on disk (or now ignored)
            self.store.delete_file(path)
            report.deleted += 1
            report.deleted_paths.append(path)

        if todo:
            progress("parse", 0, len(todo))
        for start in range(0, len(todo), FILES_PER_TRANSACTION):
            if cancel is not None and cancel.is_set():
                report.cancelled = True
                break
            with self.store.atomic():
                for entry in todo[start : start + FILES_PER_TRANSACTION]:
                    self._index_entry(entry, report)
            progress("parse", min(start + FILES_PER_TRANSACTION, len(todo)), len(todo))
        if not report.cancelled:
            self._find_secrets(report, cancel)  # first: it may write an included file again
            self._refresh_documented(report)
        self.store.set_meta("skipped_by_rules", json.dumps(dict(found.skipped), sort_keys=True))
        self.store.set_meta("skipped_paths_by_rules", json.dumps(found.skipped_paths[:SKIPPED_PATHS_KEPT]))
        self.store.set_meta("last_sync", str(time.time()))
        report.seconds["parse"] = time.perf_counter() - t1

        if embed and not report.cancelled:
            self.embed_pending(report, progress, cancel)
        report.seconds["total"] = time.perf_counter() - t0
        return report

    def _find_secrets(self, report: IndexReport, cancel: Cancel | None) -> None:
        """Find the secrets of indexed files that have none kept under today's rules (an index built
        before they were kept, or by other rules), so no search has to scan a whole file for them; a file
        that has some is indexed again, so that what is searched and embedded of it holds none."""
        todo = self.store.files_without_secrets(SECRETS_VERSION)
        if len(todo) > FILES_PER_TRANSACTION:
            log.info("finding the secrets of %d files indexed under other rules", len(todo))
        for start in range(0, len(todo), FILES_PER_TRANSACTION):
            if cancel is not None and cancel.is_set():
                report.cancelled = True
                return
            with self.store.atomic():
                for path, digest in todo[start : start + FILES_PER_TRANSACTION]:
                    try:
                        data = read_inside(self.root, path)
                    except (OSError, Escaped):
                        continue  # gone or changed since: its next sync indexes it again
                    if content_hash(data) != digest:
                        continue
                    secrets = FileSecrets(code_view(path, data).decode("utf-8", "replace"))
                    if not secrets.count:
                        self.store.set_secrets(path, digest, secrets.to_json())
                    elif (state := self.store.file_state(path)) is not None:
                        self._index_bytes(path, data, state.size, state.mtime_ns, report, again=True)

    def _check_span_settings(self) -> None:
        """Settings that shape spans or their embedded text changed, or the parser did: every file must be
        parsed again."""
        shape = {k: getattr(self.settings, k) for k in SPAN_SETTINGS} | {"parser": PARSER_VERSION}
        current = json.dumps(shape, sort_keys=True)
        stored = self.store.get_meta("span_settings")
        if stored == current:
            return
        with self.store.atomic():
            if stored is not None:
                log.info("span settings changed (%s -> %s): re-parsing every file", stored, current)
                self.store.forget_contents()
                self.store.forget_skips(TOO_LARGE)  # a notebook's code, read another way, may fit now
            self.store.set_meta("span_settings", current)

    def _check_size_limit(self) -> None:
        """A file skipped as too large after it was read (a notebook whose code is) is read again when the
        limit changes: the walk judges the others by their size each time."""
        limit = str(self.settings.max_file_size)
        stored = self.store.get_meta("max_file_size")
        if stored == limit:
            return
        with self.store.atomic():
            if stored is not None:
                self.store.forget_skips(TOO_LARGE)
            self.store.set_meta("max_file_size", limit)

    def _index_entry(self, entry: FileEntry, report: IndexReport) -> None:
        try:
            data = read_inside(self.root, entry.path)
        except FileNotFoundError:  # deleted between the walk and now
            self.store.delete_file(entry.path)
            return
        except Escaped as e:  # swapped since the walk: a symlink to outside, a FIFO
            log.warning("not indexing %s: %s", entry.path, e.strerror)
            reason = SYMLINK_OUTSIDE_ROOT if e.errno == errno.EXDEV else NOT_REGULAR
            self.store.record_skip(entry.path, entry.size, entry.mtime_ns, reason)
            report.skipped[reason] += 1
            return
        except OSError as e:
            log.warning("cannot read %s: %s", entry.path, e)
            self.store.record_skip(entry.path, entry.size, entry.mtime_ns, "unreadable")
            report.skipped["unreadable"] += 1
            return
        self._index_bytes(entry.path, data, entry.size, entry.mtime_ns, report)

    def _index_bytes(
        self,
        path: str,
        data: bytes,
        size: int,
        mtime_ns: int,
        report: IndexReport,
        old_tree: Any = None,
        buffer_session: str | None = None,
        again: bool = False,
        docs_only: bool = False,
    ) -> None:
        """Index one file's bytes: the disk's, or (``buffer_session``) that session's unsaved buffer;
        ``again``: even if the index holds these very bytes; ``docs_only``: only for the docs it reads from
        other files (the files that read this one then need nothing: its bytes did not change)."""
        state = self.store.file_state(path)
        digest = content_hash(data)
        if not again and state is not None and state.content_hash == digest and state.skip_reason is None:
            self.store.touch_file(path, size, mtime_ns, buffer_session)
            report.unchanged += 1
            return
        reason = None
        if len(data) > size_limit(path, self.settings.max_file_size):
            reason = TOO_LARGE
        elif looks_binary(data[:8192]):
            reason = "binary"
        else:
            data = code_view(path, data)  # a notebook is read as its code, which is held to the limit
            if len(data) - data.count(b"\n") > self.settings.max_file_size:  # its outputs' lines are blank
                reason = TOO_LARGE
        if reason:
            self.store.record_skip(path, size, mtime_ns, reason)
            report.skipped[reason] += 1
            return
        text = data.decode("utf-8", "replace")
        secrets = FileSecrets(text)
        report.files_with_secrets += bool(secrets.count)
        docs: dict[str, str | None] = {}  # each file read once, however often it is included

        def read_doc(rel: str) -> str | None:
            if rel not in docs:
                docs[rel] = self._doc_file(rel)
            return docs[rel]

        language, had_errors, records, report.parse_tree = span_records(
            path, data, self.settings, old_tree, secrets, read_doc
        )
        searched = unmarked(secrets.clean(text)) if secrets.count else text
        reused = self.store.write_file(
            path,
            file_fts=(path_words(path), searched, subword_terms(searched)),
            size=size,
            mtime_ns=mtime_ns,
            language=language,
            content_hash=digest,
            parse_errors=had_errors,
            records=records,
            buffer_session=buffer_session,
            secrets=secrets.to_json(),
            doc_files=list(docs),
            mark_documented=not docs_only,
        )
        if state is not None and not again:
            report.changed += 1  # new files were counted as added when first seen
        report.parsed += 1
        report.syntax_errors += int(had_errors)
        report.spans_written += len(records)
        report.vectors_reused += reused
        report.changed_paths.append(path)

    # -- one file or buffer (editor, watcher) ----------------------------------------------------
    def update_path(
        self,
        path: str,
        text: str | None = None,
        embed: bool = True,
        old_tree: Any = None,
        session: str = "anonymous",
    ) -> IndexReport:
        """Re-index one file from disk, or from ``text`` (an unsaved editor buffer of ``session``, which
        owns it in the index until it ends) when given; ``old_tree`` (the buffer's previous tree, edited to
        match) makes the parse incremental."""
        report = IndexReport()
        reason = check_path(self.root, path, self.settings)
        full = self.root / path
        if reason is not None and (text is None or reason != MISSING):  # ignore rules hold for buffers too;
            # only a buffer not yet saved to disk is indexed
            if self.store.file_state(path) is not None:
                self.store.delete_file(path)
                report.deleted += 1
                report.deleted_paths.append(path)
            report.skipped[reason] += 1
        elif text is not None:
            data = text.encode("utf-8", "surrogatepass")
            st = full.stat() if full.exists() else None
            with self.store.atomic():
                mtime_ns = st.st_mtime_ns if st else 0
                self._index_bytes(path, data, len(data), mtime_ns, report, old_tree, session)
        else:
            try:
                st = full.stat()
                data = read_inside(self.root, path)
            except (FileNotFoundError, Escaped):
                if self.store.file_state(path) is not None:
                    self.store.delete_file(path)
                    report.deleted += 1
                    report.deleted_paths.append(path)
                self._refresh_documented(report)
                return report
            with self.store.atomic():
                self._index_bytes(path, data, st.st_size, st.st_mtime_ns, report)
        if report.parsed and not report.changed:  # a full sync counts new files when it scans; here, now
            report.added += 1
        if text is None:  # a buffer's text is not what its includers read from disk
            self._refresh_documented(report)
        if embed:
            self.embed_pending(report)
        return report

    # -- vectors ---------------------------------------------------------------------------------
    def embed_pending(
        self,
        report: IndexReport,
        progress: ProgressFn | None = None,
        cancel: Cancel | None = None,
        texts_per_write: int | None = None,
    ) -> None:
        """Embed every span whose text has no vector yet, in batches of similar length. Vectors are
        written (one transaction) and ``cancel`` checked every ``texts_per_write`` texts (default: 8 model
        batches; a live index uses fewer, so that a query waiting for the model is not held up)."""
        if self.embedder is None:
            return
        t0 = time.perf_counter()
        up_to_date = self.store.get_meta("model_id") == self.embedder.model_id and self.store.has_vectors()
        if up_to_date and not self.store.count_pending():
            return  # nothing to embed: do not pay for loading the model
        if progress and not self.embedder.loaded:
            progress("model", 0, 1)
        try:
            dims = self.embedder.dims
            self.embedder.check_index(self.store.get_meta("model_id"), self.store.get_meta("model_dims"))
        except ModelLoadError as e:
            report.model_error = str(e)
            self.store.set_meta("model_error", str(e))
            log.info("%s", e)  # the report carries it: each front end shows it once
            return
        self.store.set_meta("model_error", "")
        if self.store.ensure_vector_table(self.embedder.model_id, dims):
            report.model_reset = f"embedding model changed to {self.embedder.model_id}: re-embedding every span"
            log.warning("%s", report.model_reset)
        pending = self.store.pending_embeddings()
        cleaners: dict[str, Callable | None] = {}  # by path: the file's kept secrets, to embed them out

        def cleaner(p: PendingEmbedding) -> Callable | None:
            if p.path not in cleaners:
                kept = FileSecrets.from_json(p.secrets)
                cleaners[p.path] = kept.clean if kept is not None and kept.count else None
            return cleaners[p.path]

        texts = [
            (
                p.embed_hash,
                embed_text_of(p.kind, p.qualname, p.signature, p.doc, p.text, self.settings, cleaner(p), p.path),
            )
            for p in pending
        ]
        texts.sort(key=lambda item: len(item[1]))
        total = len(texts)
        done = 0
        if progress:
            progress("embed", 0, total)
        chunk_size = max(1, texts_per_write or self.settings.batch_size * BATCHES_PER_WRITE)
        for start in range(0, total, chunk_size):
            if cancel is not None and cancel.is_set():
                report.cancelled = True
                break
            chunk = texts[start : start + chunk_size]
            on_batch = (lambda n, done=done: progress("embed", done + n, total)) if progress else None
            try:
                vectors = self.embedder.encode([t for _, t in chunk], on_batch=on_batch)
            except ModelLoadError as e:  # an endpoint that went away mid-run: what is stored stays, the rest waits
                report.model_error = str(e)
                self.store.set_meta("model_error", str(e))
                log.info("%s", e)
                break
            report.spans_embedded += self.store.store_embeddings(
                (h, v) for (h, _), v in zip(chunk, vectors, strict=True)
            )
            report.texts_embedded += len(chunk)
            done += len(chunk)
        if total:
            self.store.prune_cache(CACHE_KEEP_UNUSED, every=CACHE_PRUNE_EVERY)
            self.store.trim_vector_log()
        report.seconds["embed"] = time.perf_counter() - t0
