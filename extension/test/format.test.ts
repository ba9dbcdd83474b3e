import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
    embeddedShare,
    escapeIcons,
    folderDetail,
    folderSummary,
    indexLanguages,
    mcpServerLabel,
    reindexSummary,
    relatedMessage,
    searchItem,
    searchMode,
    searchTitle,
    serverSummary,
    snippetLine,
    statusBarView,
    truncate,
    type ServerState,
} from '../src/format';
import type { FolderStatus, SearchHit, SearchResult, Span } from '../src/protocol';

const hit: SearchHit = {
    id: 'shop/pricing.py:6-12#46bffc6e7f',
    uri: 'file:///w/shop/pricing.py',
    path: 'shop/pricing.py',
    range: { start: { line: 5, character: 0 }, end: { line: 12, character: 0 } },
    kind: 'function',
    symbol: 'compute_discount',
    language: 'python',
    score: 0.71,
    snippet:
        'def compute_discount(total: float, code: str) -> float:\n    """The discount a coupon code gives."""\n    if code == "WELCOME10":',
    why: { signals: { vector: 0.56, lexical: 1.0 }, terms: ['coupon'] },
    fileMatches: 3,
};

const idle: FolderStatus = {
    root: '/w/shop',
    uri: 'file:///w/shop',
    files: 2074,
    spans: 45126,
    embedded: 45126,
    embeddedFraction: 1,
    pendingEmbeddings: 0,
    model: 'all-MiniLM-L6-v2',
    modelLoaded: true,
    lastUpdate: '2026-11-22T21:04:08+00:00',
    state: 'idle',
    role: 'owner',
    error: null,
    paused: false,
    pending: { buffers: 0, files: 0, fullSync: false },
};

const running: ServerState = { kind: 'running', python: '/usr/bin/python3', version: '0.1.0' };

describe('search results', () => {
    test('a row: symbol with its kind icon, path:line and kind, the matching snippet line', () => {
        assert.deepEqual(searchItem(hit), {
            label: '$(symbol-function) compute_discount',
            description: 'shop/pricing.py:6 · function',
            detail: '"""The discount a coupon code gives."""',
        });
    });

    test('without a matching term the first line is shown; a window without symbol shows its file', () => {
        const item = searchItem({ ...hit, kind: 'window', symbol: '', why: { signals: {}, terms: [] } });
        assert.equal(item.label, '$(symbol-file) pricing.py');
        assert.equal(item.detail, 'def compute_discount(total: float, code: str) -> float:');
    });

    test('icons in code are escaped', () => {
        assert.equal(escapeIcons('echo $(date) $(x~spin)'), 'echo \\$(date) \\$(x~spin)');
        assert.equal(escapeIcons('already \\$(date)'), 'already \\$(date)');
        const item = searchItem({ ...hit, language: 'bash', symbol: 'now', snippet: 'now=$(date)', why: { signals: {}, terms: [] } });
        assert.equal(item.detail, 'now=\\$(date)');
    });

    test('snippetLine collapses whitespace, skips blank and elided lines, cuts long lines', () => {
        assert.equal(snippetLine('\n   \n…\n  a   =   1  \n'), 'a = 1');
        assert.equal(snippetLine('x'.repeat(300), [], 20), `${'x'.repeat(19)}…`);
        assert.equal(snippetLine(''), '');
        assert.equal(truncate('abc', 3), 'abc');
    });

    const result = (folders: Partial<FolderStatus>[], n = 1): SearchResult => ({
        query: 'q',
        results: Array.from({ length: n }, () => hit),
        truncated: false,
        folders: folders.map((f) => ({ root: '/w/shop', ...f })),
        tier: 'balanced',
        elapsedMs: 12.5,
    });

    test('hybrid answers are not flagged', () => {
        assert.deepEqual(searchMode(result([{ mode: 'hybrid' }])), { lexical: false });
        assert.equal(searchTitle(result([{ mode: 'hybrid' }], 12)), 'Spyglass · 12 results');
    });

    test('lexical answers while the model loads say so', () => {
        const r = result([{ mode: 'lexical', modelLoaded: false, note: 'the embedding model is still loading' }]);
        assert.deepEqual(searchMode(r), { lexical: true, reason: 'model loading' });
        assert.equal(searchTitle(r), 'Spyglass · lexical results: model loading · 1 result');
    });

    test('lexical answers of a model that failed carry the note', () => {
        const r = result([{ mode: 'hybrid' }, { mode: 'lexical', modelLoaded: true, note: 'model foo cannot load' }]);
        assert.equal(searchTitle(r, 'python'), 'Spyglass · lexical results: model foo cannot load · 1 result · python only');
    });

    test('titles before an answer and for an empty one', () => {
        assert.equal(searchTitle(undefined), 'Spyglass');
        assert.equal(searchTitle(result([{ mode: 'hybrid' }], 0)), 'Spyglass · no confident results');
    });

    const languages: [string, string[]][] = [
        ['python', ['python']],
        ['typescript', ['typescript', 'tsx']],
        ['typescriptreact', ['tsx', 'typescript']],
        ['javascriptreact', ['javascript']],
        ['shellscript', ['bash']],
        ['csharp', ['csharp']],
        ['jsonc', ['json']],
        ['markdown', ['markdown']],
    ];
    for (const [id, want] of languages) {
        test(`language filter: ${id}`, () => assert.deepEqual(indexLanguages(id), want));
    }
});

describe('status bar', () => {
    const cases: [string, ServerState, Partial<FolderStatus>[], string, string][] = [
        ['stopped', { kind: 'stopped' }, [], '$(circle-slash) Spyglass', 'normal'],
        ['starting', { kind: 'starting' }, [], '$(sync~spin) Spyglass', 'normal'],
        ['not installed', { kind: 'unavailable', reason: 'python3: the package is not installed' }, [], '$(warning) Spyglass', 'warning'],
        ['crashed', { kind: 'failed', reason: 'the server stopped' }, [], '$(error) Spyglass', 'error'],
        ['running, no folder yet', running, [], '$(search) Spyglass', 'normal'],
        ['idle counts', running, [{}], '$(search) Spyglass: 2,074 files', 'normal'],
        [
            'indexing: files still to parse',
            running,
            [{ state: 'indexing', pending: { buffers: 0, files: 812, fullSync: true } }],
            '$(sync~spin) Spyglass: indexing 812 files',
            'normal',
        ],
        [
            'indexing without a queue count: the files so far',
            running,
            [{ state: 'indexing', files: 40, pending: { buffers: 0, files: 0, fullSync: true } }],
            '$(sync~spin) Spyglass: indexing 40 files',
            'normal',
        ],
        [
            'embedding percentage',
            running,
            [{ state: 'embedding', spans: 200, embedded: 70, embeddedFraction: 0.35 }],
            '$(sync~spin) Spyglass: embedding 35%',
            'normal',
        ],
        ['error wins', running, [{ state: 'embedding' }, { root: '/w/b', state: 'error', error: 'newer schema' }], '$(error) Spyglass: error', 'error'],
        ['paused', running, [{ state: 'embedding', paused: true }], '$(debug-pause) Spyglass: paused', 'warning'],
        ['following another process', running, [{ state: 'following', role: 'follower' }], '$(search) Spyglass: 2,074 files', 'normal'],
        ['starting folder', running, [{ state: 'starting' }], '$(sync~spin) Spyglass: starting', 'normal'],
    ];
    for (const [name, server, folders, text, severity] of cases) {
        test(name, () => {
            const view = statusBarView(server, folders.map((f) => ({ ...idle, ...f })));
            assert.equal(view.text, text);
            assert.equal(view.severity, severity);
        });
    }

    test('the tooltip lists each folder and says why', () => {
        const view = statusBarView(running, [
            { ...idle, modelLoaded: false },
            { ...idle, root: '/w/lib', state: 'error', error: 'index of a newer schema' },
        ]);
        assert.match(view.tooltip, /shop: idle · 2,074 files · 45,126 spans · 100% embedded/);
        assert.match(view.tooltip, /lib: index of a newer schema/);
        assert.match(statusBarView({ kind: 'unavailable', reason: 'no python' }, []).tooltip, /no python/);
        assert.match(statusBarView(running, [{ ...idle, modelLoaded: false }]).tooltip, /model is loading/);
    });

    test('embedded share is weighted by spans', () => {
        assert.equal(embeddedShare([{ root: 'a', spans: 100, embedded: 100 }, { root: 'b', spans: 300, embedded: 0 }]), 0.25);
        assert.equal(embeddedShare([{ root: 'a', embeddedFraction: 0.5 }]), 0.5);
        assert.equal(embeddedShare([]), 0);
    });
});

describe('status picker text', () => {
    test('folder summary and detail', () => {
        assert.equal(folderSummary(idle), 'idle · 2,074 files · 45,126 spans · 100% embedded');
        assert.equal(folderSummary({ root: '/x', state: 'embedding', paused: true, files: 1 }), 'embedding (paused) · 1 file');
        assert.equal(folderDetail(idle), 'model all-MiniLM-L6-v2 · updated 2026-11-22 21:04 UTC');
        assert.equal(
            folderDetail({
                ...idle,
                role: 'follower',
                modelLoaded: false,
                pendingEmbeddings: 16,
                pending: { buffers: 1, files: 2, fullSync: false },
                lastUpdate: null,
            }),
            'model all-MiniLM-L6-v2 (loading: searches are lexical) · another process writes this index · 3 changes pending · 16 spans to embed',
        );
        assert.equal(folderDetail({ root: '/x', error: 'disk full' }), 'error: disk full');
    });

    test('server summary', () => {
        assert.equal(serverSummary(running), 'running · spyglass 0.1.0');
        assert.equal(serverSummary({ kind: 'failed', reason: 'crashed' }), 'crashed');
        assert.equal(serverSummary({ kind: 'starting' }), 'starting');
    });
});

describe('reindex and peek messages', () => {
    test('reindex summary', () => {
        assert.equal(
            reindexSummary({
                folders: [
                    { root: '/w/shop', ok: true, report: { added: 0, changed: 1, deleted: 2, unchanged: 5 } },
                    { root: '/w/lib', ok: true, report: { added: 0, changed: 0, deleted: 0, unchanged: 1200 } },
                    { root: '/w/bad', ok: false, error: 'the owner keeps the index fresh' },
                ],
            }),
            'Spyglass reindexed shop: 1 changed, 2 deleted (5 unchanged); lib: nothing changed (1,200 unchanged); bad: the owner keeps the index fresh',
        );
        assert.equal(reindexSummary({ folders: [] }), 'Spyglass: no folder to reindex');
    });

    const span: Span = {
        id: 'a.py:1-2#0',
        uri: 'file:///w/a.py',
        path: 'a.py',
        range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } },
        kind: 'function',
        name: 'f',
        symbol: 'C.f',
        signature: 'def f()',
        container: 'C',
        language: 'python',
    };

    test('peek messages', () => {
        assert.match(relatedMessage({ span: null, related: [] }) ?? '', /not inside an indexed definition/);
        assert.equal(relatedMessage({ span, related: [] }), 'Spyglass found no code related to C.f');
        assert.equal(
            relatedMessage({ span, related: [{ ...span, relation: 'uses', score: 0.7, preview: 'f()', previewLine: 1 }] }),
            undefined,
        );
    });

    test('MCP server labels', () => {
        assert.equal(mcpServerLabel('shop', 1), 'Spyglass');
        assert.equal(mcpServerLabel('shop', 2), 'Spyglass: shop');
    });
});
