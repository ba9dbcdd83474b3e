/**
 * Everything the extension shows, as pure functions of the server's answers: QuickPick labels, the search
 * title, the status bar, status and reindex summaries. No `vscode` import: unit-tested on its own.
 * Labels may hold codicons (`$(name)`); text from the index is escaped so `$(...)` in code stays text.
 */

import type { FolderStatus, Kind, ReindexResult, RelatedResult, SearchHit, SearchResult } from './protocol';

/** The extension's view of its server (common/server.ts keeps it; the status bar shows it). */
export type ServerState =
    | { kind: 'stopped' }
    | { kind: 'starting' }
    | { kind: 'running'; python: string; version: string }
    /** No usable Python or no spyglass package in it: the user was told what to do. */
    | { kind: 'unavailable'; reason: string }
    | { kind: 'failed'; reason: string };

export const KIND_ICONS: Record<Kind, string> = {
    function: 'symbol-function',
    method: 'symbol-method',
    class: 'symbol-class',
    interface: 'symbol-interface',
    struct: 'symbol-struct',
    enum: 'symbol-enum',
    type: 'symbol-type-parameter',
    module: 'symbol-module',
    section: 'markdown',
    window: 'symbol-file',
};

/** Stop VS Code from reading `$(name)` in code or paths as an icon. */
export function escapeIcons(text: string): string {
    return text.replace(/(\\)?\$\(([a-z0-9-]+?(?:~[a-z0-9-]*?)?)\)/gi, (match, escaped) =>
        escaped ? match : `\\${match}`,
    );
}

/** Cut `text` to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
    return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

const ELLIPSIS_LINE = /^(…|\.\.\.|# …)$/;

/**
 * The one line of a snippet worth showing under a result: the first that contains a matched term (as the
 * server reports them in `why.terms`), else the first non-blank line; whitespace collapsed, cut to `max`.
 */
export function snippetLine(snippet: string, terms: readonly string[] = [], max = 100): string {
    const lines = snippet
        .split(/\r?\n/)
        .map((l) => l.trim().replace(/\s+/g, ' '))
        .filter((l) => l !== '' && !ELLIPSIS_LINE.test(l));
    const wanted = terms.map((t) => t.toLowerCase()).filter((t) => t.length > 1);
    const withTerm = wanted.length ? lines.find((l) => wanted.some((t) => l.toLowerCase().includes(t))) : undefined;
    return truncate(withTerm ?? lines[0] ?? '', max);
}

/** 1-based line of a 0-based LSP range start, as people read `path:line`. */
export function displayLine(range: { start: { line: number } }): number {
    return range.start.line + 1;
}

export interface ItemText {
    label: string;
    description: string;
    detail: string;
}

function basename(path: string): string {
    return path.slice(path.lastIndexOf('/') + 1);
}

/** A search result as a QuickPick row: symbol, `path:line` and kind, and a snippet line. */
export function searchItem(hit: SearchHit): ItemText {
    const icon = KIND_ICONS[hit.kind] ?? 'symbol-misc';
    const name = hit.symbol || basename(hit.path);
    return {
        label: `$(${icon}) ${escapeIcons(name)}`,
        description: `${escapeIcons(hit.path)}:${displayLine(hit.range)} · ${hit.kind}`,
        detail: escapeIcons(snippetLine(hit.snippet, hit.why?.terms ?? [])),
    };
}

export interface SearchMode {
    lexical: boolean;
    /** Why, when lexical: `model loading` while the model loads, else the server's note. */
    reason?: string;
}

/** Whether an answer was lexical only (some folder searched without vectors), and why. */
export function searchMode(result: Pick<SearchResult, 'folders'>): SearchMode {
    const lexical = result.folders.filter((f) => f.mode === 'lexical');
    if (lexical.length === 0) {
        return { lexical: false };
    }
    if (lexical.some((f) => f.modelLoaded === false && !f.error)) {
        return { lexical: true, reason: 'model loading' };
    }
    const note = lexical.map((f) => f.note ?? f.error).find((n) => n);
    return { lexical: true, reason: note ?? 'no vectors' };
}

/**
 * The QuickPick title: what the results are (lexical results are flagged), how many, and the language
 * filter when it is on. `result` is undefined before the first answer.
 */
export function searchTitle(result: SearchResult | undefined, language?: string): string {
    const parts = ['Spyglass'];
    if (result) {
        const mode = searchMode(result);
        if (mode.lexical) {
            parts.push(`lexical results: ${mode.reason ?? 'no vectors'}`);
        }
        const n = result.results.length;
        parts.push(n === 0 ? 'no confident results' : `${n} result${n === 1 ? '' : 's'}`);
    }
    if (language) {
        parts.push(`${language} only`);
    }
    return parts.join(' · ');
}

/**
 * The language names the index uses for a VS Code language ID (`typescriptreact` files are indexed as
 * `tsx`, shell scripts as `bash`, ...): what the "current file's language" filter sends.
 */
export function indexLanguages(languageId: string): string[] {
    switch (languageId) {
        case 'typescript':
            return ['typescript', 'tsx'];
        case 'typescriptreact':
            return ['tsx', 'typescript'];
        case 'javascriptreact':
            return ['javascript'];
        case 'shellscript':
            return ['bash'];
        case 'jsonc':
        case 'json5':
            return ['json'];
        case 'plaintext':
            return ['text'];
        case 'restructuredtext':
            return ['rst'];
        case 'cuda-cpp':
        case 'objective-cpp':
            return ['cpp'];
        case 'objective-c':
            return ['c'];
        default:
            return [languageId];
    }
}

function count(n: number | undefined): string {
    return (n ?? 0).toLocaleString('en-US');
}

function plural(n: number | undefined, word: string): string {
    return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}

function percent(fraction: number): string {
    return `${Math.floor(Math.max(0, Math.min(1, fraction)) * 100)}%`;
}

/** The last part of a folder's path. */
export function folderName(root: string): string {
    const parts = root.split(/[\\/]/).filter(Boolean);
    return parts.at(-1) ?? root;
}

/** The share of spans embedded over several folders (weighted by their spans). */
export function embeddedShare(folders: readonly FolderStatus[]): number {
    const spans = folders.reduce((s, f) => s + (f.spans ?? 0), 0);
    if (spans === 0) {
        const fractions = folders.map((f) => f.embeddedFraction ?? 0);
        return fractions.length ? Math.min(...fractions) : 0;
    }
    const embedded = folders.reduce(
        (s, f) => s + (f.embedded ?? Math.round((f.embeddedFraction ?? 0) * (f.spans ?? 0))),
        0,
    );
    return embedded / spans;
}

/** One folder's state in a few words: `idle · 6 files · 18 spans · 100% embedded`. */
export function folderSummary(f: FolderStatus): string {
    const state = f.paused ? `${f.state ?? 'idle'} (paused)` : (f.state ?? 'unknown');
    const parts = [state];
    if (f.files !== undefined) {
        parts.push(plural(f.files, 'file'));
    }
    if (f.spans !== undefined) {
        parts.push(plural(f.spans, 'span'));
    }
    if (f.embeddedFraction !== undefined) {
        parts.push(`${percent(f.embeddedFraction)} embedded`);
    }
    return parts.join(' · ');
}

/** The second line about a folder: model, role, pending work, last update, error. */
export function folderDetail(f: FolderStatus): string {
    const parts: string[] = [];
    if (f.error) {
        parts.push(`error: ${f.error}`);
    }
    if (f.model) {
        parts.push(`model ${f.model}${f.modelLoaded === false ? ' (loading: searches are lexical)' : ''}`);
    }
    if (f.role === 'follower') {
        parts.push('another process writes this index');
    }
    const pending = (f.pending?.files ?? 0) + (f.pending?.buffers ?? 0);
    if (pending > 0) {
        parts.push(`${plural(pending, 'change')} pending`);
    }
    if ((f.pendingEmbeddings ?? 0) > 0) {
        parts.push(`${plural(f.pendingEmbeddings, 'span')} to embed`);
    }
    if (f.lastUpdate) {
        parts.push(`updated ${f.lastUpdate.replace('T', ' ').slice(0, 16)} UTC`);
    }
    return parts.join(' · ');
}

/** The server's state in a few words (the status QuickPick's first row). */
export function serverSummary(state: ServerState): string {
    switch (state.kind) {
        case 'running':
            return `running · spyglass ${state.version}`;
        case 'unavailable':
        case 'failed':
            return state.reason;
        case 'starting':
        case 'stopped':
            return state.kind;
    }
}

export interface StatusBarView {
    text: string;
    tooltip: string;
    severity: 'normal' | 'warning' | 'error';
}

/** The status bar item for the server's state and its folders' latest `spyglass/statusChanged`. */
export function statusBarView(server: ServerState, folders: readonly FolderStatus[]): StatusBarView {
    switch (server.kind) {
        case 'stopped':
            return { text: '$(circle-slash) Spyglass', tooltip: 'Spyglass: the server is stopped', severity: 'normal' };
        case 'starting':
            return { text: '$(sync~spin) Spyglass', tooltip: 'Spyglass: starting the server', severity: 'normal' };
        case 'unavailable':
            return { text: '$(warning) Spyglass', tooltip: `Spyglass: ${server.reason}`, severity: 'warning' };
        case 'failed':
            return { text: '$(error) Spyglass', tooltip: `Spyglass: ${server.reason}`, severity: 'error' };
        case 'running':
            break;
    }
    const lines = folders.map((f) => `${folderName(f.root)}: ${folderSummary(f)}`);
    const tooltip = ['Spyglass', ...lines].join('\n');
    if (folders.length === 0) {
        return { text: '$(search) Spyglass', tooltip: 'Spyglass: no folder indexed yet', severity: 'normal' };
    }
    const errors = folders.filter((f) => f.state === 'error');
    if (errors.length) {
        const what = errors.map((f) => `${folderName(f.root)}: ${f.error ?? 'error'}`).join('\n');
        return { text: '$(error) Spyglass: error', tooltip: `${tooltip}\n\n${what}`, severity: 'error' };
    }
    const active = folders.filter((f) => !f.paused);
    const indexing = active.filter((f) => f.state === 'indexing');
    if (indexing.length) {
        // Files still to parse when the server says; otherwise the folder's count so far.
        const n = indexing.reduce((s, f) => {
            const queued = f.pending?.files ?? 0;
            return s + (queued > 0 ? queued : (f.files ?? 0));
        }, 0);
        return { text: `$(sync~spin) Spyglass: indexing ${plural(n, 'file')}`, tooltip, severity: 'normal' };
    }
    const embedding = active.filter((f) => f.state === 'embedding');
    if (embedding.length) {
        const share = percent(embeddedShare(embedding));
        return { text: `$(sync~spin) Spyglass: embedding ${share}`, tooltip, severity: 'normal' };
    }
    if (active.some((f) => f.state === 'starting')) {
        return { text: '$(sync~spin) Spyglass: starting', tooltip, severity: 'normal' };
    }
    if (folders.some((f) => f.paused)) {
        return {
            text: '$(debug-pause) Spyglass: paused',
            tooltip: `${tooltip}\n\nBackground indexing is paused: reindex to resume.`,
            severity: 'warning',
        };
    }
    const files = folders.reduce((s, f) => s + (f.files ?? 0), 0);
    const spans = folders.reduce((s, f) => s + (f.spans ?? 0), 0);
    const loading = folders.some((f) => f.modelLoaded === false);
    const extra = loading ? '\n\nThe model is loading: searches are lexical meanwhile.' : '';
    return {
        text: `$(search) Spyglass: ${plural(files, 'file')}`,
        tooltip: `${tooltip}${extra}\n\n${plural(files, 'file')}, ${plural(spans, 'span')} in all`,
        severity: 'normal',
    };
}

/** What a reindex changed, one sentence per folder. */
export function reindexSummary(result: ReindexResult): string {
    if (result.folders.length === 0) {
        return 'Spyglass: no folder to reindex';
    }
    const parts = result.folders.map((f) => {
        const name = folderName(f.root);
        if (!f.ok) {
            return `${name}: ${f.error ?? 'failed'}`;
        }
        const r = f.report ?? {};
        if (r.cancelled) {
            return `${name}: cancelled`;
        }
        const changed = ['added', 'changed', 'deleted']
            .map((k) => [k, typeof r[k] === 'number' ? r[k] : 0] as const)
            .filter(([, n]) => n > 0)
            .map(([k, n]) => `${count(n)} ${k}`);
        const unchanged = typeof r.unchanged === 'number' ? `${count(r.unchanged)} unchanged` : '';
        return `${name}: ${changed.length ? changed.join(', ') : 'nothing changed'}${unchanged ? ` (${unchanged})` : ''}`;
    });
    return `Spyglass reindexed ${parts.join('; ')}`;
}

/** Why a peek has nothing to show, or undefined when it has locations. */
export function relatedMessage(result: RelatedResult): string | undefined {
    if (result.span === null) {
        return 'Spyglass: the cursor is not inside an indexed definition (is the file indexed?)';
    }
    if (result.related.length === 0) {
        return `Spyglass found no code related to ${result.span.symbol || result.span.name}`;
    }
    return undefined;
}

/** The label of one folder's MCP server definition ("Spyglass", or "Spyglass: name" with several folders). */
export function mcpServerLabel(folder: string, folderCount: number): string {
    return folderCount > 1 ? `Spyglass: ${folder}` : 'Spyglass';
}
