"""Everything the CLI shows a person (rich, to a terminal) or a machine (JSON on stdout).

Progress (see progress.py) and errors go to stderr, results to stdout, so ``spyglass search ... --json | jq`` works.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape as escape_markup

from ..engine import OMIT_NONE, AskAnswer, Freshness, HistoryAnswer, IndexReport, SearchAnswer, SpanLookup, Status, Why

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)  # a terminal wraps; a log must not split a command


# control characters other than tab: in a file's name or text they could move the cursor, retitle the
# window or write the clipboard of the terminal that shows them (ESC sequences); shown as \xNN instead
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_CONTROL_BUT_NEWLINE_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape(text: str, lines: bool = False) -> str:
    """Text from an index or a workspace as a person's terminal may show it: rich markup escaped, control
    characters written out (``lines``: newlines kept)."""
    pattern = _CONTROL_BUT_NEWLINE_RE if lines else _CONTROL_RE
    return escape_markup(pattern.sub(lambda m: f"\\x{ord(m.group()):02x}", text))


def as_json(value: Any) -> Any:
    """An engine answer (or a dict or list holding answers) as plain JSON data: a dataclass becomes a dict
    of its fields in their order, without those marked ``OMITTED_WHEN_NONE`` that are None."""
    if is_dataclass(value) and not isinstance(value, type):
        pairs = ((f, getattr(value, f.name)) for f in fields(value))
        return {f.name: as_json(v) for f, v in pairs if v is not None or not f.metadata.get(OMIT_NONE)}
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    return value


def emit_json(data: object) -> None:
    """``data`` (see :func:`as_json`) as JSON on stdout: what every ``--json`` command prints."""
    sys.stdout.write(json.dumps(as_json(data), ensure_ascii=False, indent=2) + "\n")
    sys.stdout.flush()


def error(message: str) -> None:
    err.print(f"[bold red]spyglass:[/] {escape(message)}")


def waiting(holder: dict | None) -> None:
    who = holder or {}
    err.print(f"waiting for the current writer (pid {who.get('pid')}: {escape(str(who.get('command', '?')))})…")


def asking_owner(holder: dict) -> None:
    err.print(
        f"asking the process that owns the index (pid {holder.get('pid')}: "
        f"{escape(str(holder.get('command', '?')))}) to update it…"
    )


def note(message: str) -> None:
    err.print(f"[yellow]note:[/] {escape(message)}")


def index_summary(root: Path, report: IndexReport, status: Freshness) -> None:
    s = report.seconds
    out.print(f"[bold]Indexed[/] {escape(str(root))} in {s.get('total', 0):.1f}s")
    out.print(
        f"  files: {report.seen} seen, {report.added} new, {report.changed} changed, "
        f"{report.deleted} deleted, {report.unchanged} unchanged"
    )
    out.print(
        f"  spans: {report.spans_written} written, {report.texts_embedded} texts embedded, "
        f"{report.vectors_reused} vectors reused from the cache"
    )
    if report.skipped:
        detail = ", ".join(f"{k} {v}" for k, v in sorted(report.skipped.items(), key=lambda kv: -kv[1]))
        out.print(f"  skipped: {sum(report.skipped.values())} ({detail})")
    if report.syntax_errors:
        out.print(f"  {have(report.syntax_errors, 'file')} syntax errors (indexed anyway)")
    if report.files_with_secrets:
        out.print(f"  {have(report.files_with_secrets, 'file')} secrets (redacted in every answer)")
    if report.history_commits:
        out.print(
            f"  history: {plural(report.history_commits, 'commit')} ({report.history_added} new, "
            f"{report.seconds.get('history', 0):.1f}s)"
        )
    pct = 100 * status.embedded_fraction
    out.print(f"  index: {status.files} files, {status.spans} spans, {pct:.1f}% embedded")
    if report.model_reset:
        err.print(f"[yellow]note:[/] {escape(report.model_reset)}")
    if report.model_error:
        error(report.model_error)
        err.print("The lexical index was built; search works without vectors. Use --no-embed to silence this.")
    if report.cancelled:
        err.print("[yellow]interrupted:[/] what was done is saved; run `spyglass index` again to finish.")


# what each signal of why.matched means to a person (docs/cli.md)
SIGNAL_NAMES = {
    "name": "name",
    "lexical": "full text",
    "vector": "meaning (vector)",
    "file": "file's text",
    "file_vector": "file's meaning",
    "path": "path in the query",
    "title": "query's first line",
}


def search_results(result: SearchAnswer) -> None:
    index = result.index
    if not result.results:
        out.print(f"No confident results for {escape(result.query)!r}.")
    for i, h in enumerate(result.results, 1):
        symbol = h.symbol or Path(h.path).name
        out.print(
            f"[bold]{i}. {escape(symbol)}[/] [dim]{h.kind}[/]  "
            f"[cyan]{escape(h.path)}:{h.match_line.number}[/]  score {h.score:.2f}"
            + (f"  [dim]+{h.file_matches - 1} more in this file[/]" if h.file_matches > 1 else "")
        )
        if why := _why(h.why):
            out.print(f"   [dim]{escape(why)}[/]")
        _numbered(h.snippet, h.snippet_start_line, h.match_line.number)
        out.print(f"   [dim]id {escape(h.id)}[/]")
    if result.truncated:
        out.print("[dim]… more results were left out to honour --max-tokens[/]")
    note = f" ({index.note})" if index.note else ""
    out.print(
        f"[dim]{index.mode} search ({result.tier} tier, {result.elapsed_ms:.0f} ms) over {index.spans} spans, "
        f"{100 * index.embedded_fraction:.0f}% embedded{escape(note)}[/]"
    )


def _why(why: Why) -> str:
    """``matched: name, full text · terms: cart, total`` (either part left out when empty)."""
    parts = []
    if why.matched:
        parts.append("matched: " + ", ".join(SIGNAL_NAMES.get(name, name) for name in why.matched))
    if why.terms:
        parts.append("terms: " + ", ".join(why.terms))
    return " · ".join(parts)


def _numbered(snippet: str, start: int, match: int) -> None:
    """The snippet with its file line numbers, the matching line marked ``>``."""
    lines = snippet.split("\n")
    width = len(str(start + len(lines)))
    for n, line in enumerate(lines, start):
        if n == start + len(lines) - 1 and line == "…":  # cut to fit --max-tokens
            out.print(f"   {'':>{width + 2}} [dim]…[/]")
            continue
        mark = "[bold]>[/]" if n == match else " "
        out.print(f"   {mark} [dim]{n:>{width}} │[/] {escape(line)}")


def span(found: SpanLookup) -> None:
    colour = {"current": "green", "moved": "yellow", "stale": "red", "missing": "red"}[found.status]
    out.print(f"[{colour}]{found.status}[/]: {escape(found.message)}")
    if found.text:
        out.print(
            f"[cyan]{escape(found.path)}:{found.start_line}-{found.end_line}[/]"
            + (f"  (id now {escape(found.current_id)})" if found.current_id and found.current_id != found.id else "")
        )
        out.print(escape(found.text, lines=True))


def plural(n: int, noun: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def have(n: int, noun: str) -> str:
    """``1 file has``, ``2 files have``."""
    return f"{plural(n, noun)} {'has' if n == 1 else 'have'}"


def _listed(rows: list[str], total: int) -> None:
    for row in rows:
        out.print(f"    {escape(row)}")
    if total > len(rows):
        out.print(f"    [dim]… and {total - len(rows)} more[/]")


def ask(answer: AskAnswer) -> None:
    out.print(escape(answer.answer, lines=True))
    out.print(f"[dim]{escape(answer.model)}, {answer.elapsed_ms / 1000:.1f} s; the spans it was given:[/]")
    for h in answer.sources:
        mark = "*" if h.id in answer.cited else " "
        out.print(f" {mark} [cyan]{escape(h.id)}[/] [dim]{h.kind} {escape(h.symbol or '')}[/]")


def history(answer: HistoryAnswer) -> None:
    held = answer.history
    if not held.commits:
        out.print(f"No history in the index{f' ({escape(held.error)})' if held.error else ''}.")
        return
    if not answer.commits:
        out.print(f"No commit matched {escape(answer.query)!r}.")
    for i, c in enumerate(answer.commits, 1):
        out.print(f"[bold]{i}. {escape(c.subject)}[/]  [dim]{c.sha[:12]} {c.date[:10]}[/]")
        body = c.message.split("\n", 1)[1].strip() if "\n" in c.message else ""
        for line in body.splitlines()[:6]:
            out.print(f"   {escape(line)}")
        for f in c.files:
            names = ", ".join(s.name for s in f.symbols)
            out.print(f"   [cyan]{escape(f.path)}[/] +{f.added} -{f.deleted}" + (f"  {escape(names)}" if names else ""))
        if c.files_total > len(c.files):
            out.print(f"   [dim]… {c.files_total - len(c.files)} more file(s)[/]")
    if answer.truncated:
        out.print("[dim]… cut to honour --max-tokens[/]")
    out.print(f"[dim]{held.commits} commits held, up to {(held.head or '?')[:12]}[/]")


def status(info: Status, verbose: bool = False) -> None:
    out.print(f"[bold]{escape(info.root)}[/]  index {escape(info.index_path)} ({info.index_bytes / 1e6:.1f} MB)")
    out.print(
        f"  files {info.files}, spans {info.spans}, embedded {100 * info.embedded_fraction:.1f}% "
        f"({info.pending_embeddings} pending)"
    )
    langs = ", ".join(f"{k} {v}" for k, v in list(info.languages.items())[:10])
    out.print(f"  languages: {escape(langs) or '-'}")
    named = info.skipped_total or info.files_with_syntax_errors
    if info.skipped_total:
        detail = ", ".join(f"{k} {v}" for k, v in info.skipped.items())
        out.print(f"  skipped: {info.skipped_total} ({escape(detail)})")
        if verbose:
            _listed([f"{f.path}  ({f.reason})" for f in info.skipped_files], info.skipped_total)
    if info.files_with_syntax_errors:
        out.print(f"  {have(info.files_with_syntax_errors, 'file')} syntax errors (indexed anyway)")
        if verbose:
            _listed(info.syntax_error_files, info.files_with_syntax_errors)
    if named and not verbose:
        out.print("  [dim](`spyglass status --verbose` names them)[/]")
    out.print(
        f"  model: {escape(str(info.model))}"
        + (
            f" (configured: {escape(str(info.configured_model))})"
            if info.configured_model and info.configured_model != info.model
            else ""
        )
    )
    last = info.last_update or "never"
    branch = f" ({escape(info.git_branch)})" if info.git_branch else ""
    out.print(f"  last update: {last}" + (f", git HEAD {info.git_head[:12]}{branch}" if info.git_head else ""))
    held = info.history
    if held.commits:
        out.print(f"  history: {held.commits} commits up to {(held.head or '?')[:12]} ({held.oldest} .. {held.newest})")
    elif held.error:
        out.print(f"  history: none ({escape(held.error)})")
    if info.hot_files:
        hot = ", ".join(f"{f.path} ({f.commits})" for f in info.hot_files[:5])
        out.print(f"  hot spots: {escape(hot)}")
    changed = info.changed_since_update
    if changed.new or changed.modified or changed.deleted:
        out.print(
            f"  [yellow]changed on disk since:[/] {changed.new} new, {changed.modified} modified, "
            f"{changed.deleted} deleted (run `spyglass index`)"
        )
    if info.writer:
        out.print(f"  writer: pid {info.writer.get('pid')} ({escape(str(info.writer.get('command')))})")
