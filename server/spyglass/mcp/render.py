"""The compact text an agent reads for each tool's answer (the structured output carries the same data)."""

from __future__ import annotations

from .models import (
    AskOutput,
    ContextOutput,
    HistoryOutput,
    IndexState,
    ReindexOutput,
    SearchOutput,
    SpanOutput,
    StatusOutput,
    SymbolOutput,
)


def _index_line(ix: IndexState) -> str:
    parts = [f"{ix.files} files", f"{ix.spans} spans", f"{ix.embedded_fraction:.0%} embedded"]
    if ix.pending_files:
        parts.append(f"{ix.pending_files} changed files pending")
    if ix.state not in ("idle", "following"):
        parts.append(ix.state)
    mode = f"{ix.mode} search; " if ix.mode else ""
    note = f" ({ix.note})" if ix.note else ""
    return f"[{mode}index: {', '.join(parts)}]{note}"


def search(out: SearchOutput) -> str:
    cost = f"({out.tier}, {out.elapsed_ms:.0f} ms)"
    head = f'{len(out.results)} result(s) for "{out.query}" {cost} {_index_line(out.index)}'
    if not out.results:
        return head + "\nNothing passed the confidence floor: rephrase (names, error text) or lower min_score."
    lines = [head]
    for i, r in enumerate(out.results, 1):
        signals = ", ".join(f"{k} {v:.2f}" for k, v in sorted(r.why.signals.items(), key=lambda kv: -kv[1]))
        terms = f"; terms: {', '.join(r.why.terms)}" if r.why.terms else ""
        more = f"; {r.file_matches} matches in file" if r.file_matches > 1 else ""
        lines.append(f"\n{i}. {r.path}:{r.start_line}-{r.end_line} {r.kind} {r.symbol}  score {r.score:.2f}")
        lines.append(f"   id {r.id}  ({signals}{terms}{more})")
        lines.append(_fence(r.snippet, r.language))
    if out.truncated:
        lines.append("\n(results were cut to fit max_tokens)")
    return "\n".join(lines)


def span(out: SpanOutput) -> str:
    where = f"{out.path}:{out.text_start_line}-{out.text_end_line}"
    head = f"{out.status}: {out.symbol or ''} {where} ({out.message})".replace("  ", " ")
    if out.current_id and out.current_id != out.id:
        head += f"\ncurrent id: {out.current_id}"
    if out.status == "missing":
        return head
    return head + "\n" + _fence(out.text, "")


def symbols(out: SymbolOutput) -> str:
    if not out.results:
        return f'No definition named like "{out.name}". Try search_code with a description.'
    lines = [f'{len(out.results)} definition(s) for "{out.name}":']
    for d in out.results:
        lines.append(f"- {d.path}:{d.start_line}-{d.end_line} {d.kind} {d.symbol}  [{d.match}]  id {d.id}")
        if d.signature:
            lines.append(f"    {d.signature}")
    return "\n".join(lines)


def context(out: ContextOutput) -> str:
    if out.symbol is None:
        lines = [f"{out.path}:{out.line}: {out.message or 'not inside a definition'}"]
    else:
        s = out.symbol
        lines = [f"{out.path}:{out.line} is in {s.kind} {s.symbol} ({s.path}:{s.start_line}-{s.end_line}, id {s.id})"]
        if s.signature:
            lines.append(f"signature: {s.signature}")
        if out.doc:
            lines.append(f"doc: {out.doc}")
    if out.imports:
        lines.append("imports:\n" + "\n".join(f"  {i}" for i in out.imports))
    if out.references:
        lines.append("refers to:")
        lines += [f"  {d.symbol} {d.path}:{d.start_line}  {d.signature}  (id {d.id})" for d in out.references]
    return "\n".join(lines)


def status(out: StatusOutput) -> str:
    head = out.head_commit[:12] if out.head_commit else None
    git = f"; git {out.branch or 'detached'} @ {head}" if head else ""
    model = f"{out.model or 'no model'}{'' if out.model_loaded else ' (loading or unavailable)'}"
    lines = [
        f"{out.root}: {out.state} ({out.role}){git}",
        f"{out.files} files, {out.spans} spans, {out.embedded_fraction:.1%} embedded "
        f"({out.pending_embeddings} waiting), {out.pending_files} changed files pending",
        f"model: {model}; last update: {out.last_update or 'never'}",
    ]
    if out.history is not None:
        h = out.history
        if h.commits:
            lines.append(f"history: {h.commits} commit(s) up to {(h.head or '?')[:12]} ({h.oldest} .. {h.newest})")
        elif h.error:
            lines.append(f"history: none ({h.error})")
    if out.hot_spots:
        lines.append("hot spots: " + ", ".join(f"{f.path} ({f.commits})" for f in out.hot_spots))
    if out.error:
        lines.append(f"error: {out.error}")
    return "\n".join(lines)


def reindex(out: ReindexOutput) -> str:
    counts = ", ".join(f"{k} {v}" for k, v in out.changes.items() if v)
    return f"{out.message}" + (f": {counts}" if counts else "")


def _fence(text: str, language: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{language}\n{text}\n{fence}"


def history(out: HistoryOutput) -> str:
    held = out.history
    if held.error and not held.commits:
        return f"No history: {held.error}."
    where = f"{held.commits} commit(s) held, up to {held.head[:12] if held.head else 'no HEAD'}"
    head = f'{len(out.commits)} commit(s) for "{out.query}" ({where})'
    if not out.commits:
        return head + "\nNo commit matched: try a name, a file (path=...) or other words."
    lines = [head]
    for i, c in enumerate(out.commits, 1):
        lines.append(f"\n{i}. {c.sha[:12]} {c.date[:10]} {c.subject}")
        body = c.message.split("\n", 1)[1].strip() if "\n" in c.message else ""
        if body:
            lines.extend(f"   {line}" for line in body.splitlines())
        for f in c.files:
            names = ", ".join(f"{s.name} [{s.id}]" if s.id else f"{s.name} (gone)" for s in f.symbols)
            lines.append(f"   {f.path} +{f.added} -{f.deleted}" + (f": {names}" if names else ""))
        if c.files_total > len(c.files):
            lines.append(f"   … {c.files_total - len(c.files)} more file(s)")
    if out.truncated:
        lines.append("\n(commits were cut to fit max_tokens)")
    return "\n".join(lines)


def ask(out: AskOutput) -> str:
    lines = [
        f"{out.answer}\n",
        f"({out.model}, {out.elapsed_ms / 1000:.1f} s; cited {len(out.cited)} of the spans given)",
    ]
    for r in out.sources:
        mark = "*" if r.id in out.cited else " "
        lines.append(f"{mark} {r.id}  {r.kind} {r.symbol}")
    return "\n".join(lines)
