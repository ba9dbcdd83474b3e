// The extension's requests against a real `spyglass lsp` process, started the way the extension starts it
// (`<python> -m spyglass lsp --stdio`, the settings as initializationOptions), on a copy of the shop
// fixture; the answers go through the same formatting functions the extension shows them with.
// Needs a Python with spyglass installed: SPYGLASS_PYTHON=/path/to/python npm test, else the repo's
// .venv/bin/python; without either the suite fails (saying so) rather than skipping.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
    CancellationTokenSource,
    StreamMessageReader,
    StreamMessageWriter,
    createMessageConnection,
    type MessageConnection,
} from 'vscode-jsonrpc/node';

import { importOutcome, probeSpyglass, serverArgs } from '../src/common/python';
import { DEFAULTS, resolveSettings, type ConfigReader } from '../src/common/settings';
import {
    reindexSummary,
    relatedMessage,
    searchItem,
    searchTitle,
    statusBarView,
} from '../src/format';
import {
    Methods,
    type FolderStatus,
    type ReindexResult,
    type RelatedResult,
    type SearchResult,
    type StatusResult,
} from '../src/protocol';

const repo = path.resolve(__dirname, '..', '..');
const venvPython = path.join(repo, '.venv', 'bin', 'python');
/** SPYGLASS_PYTHON, else the repo's virtual environment (what scripts/install.sh creates). */
const python = process.env.SPYGLASS_PYTHON ?? (existsSync(venvPython) ? venvPython : undefined);
const NO_PYTHON =
    'these tests need a Python with spyglass installed: set SPYGLASS_PYTHON=/path/to/python ' +
    `(or create ${venvPython} with bash scripts/install.sh)`;
const fixture = path.join(repo, 'tests', 'fixtures', 'shop');
const WAIT_MS = 120_000;

const defaults: ConfigReader = {
    get: <T>(key: string) => (DEFAULTS as Record<string, unknown>)[key] as T | undefined,
    inspect: () => ({}),
};

describe('a real spyglass lsp', () => {
    let dir = '';
    let root = '';
    let proc: ChildProcess;
    let connection: MessageConnection;
    const statuses: FolderStatus[] = [];
    let waiters: (() => boolean)[] = [];

    /** Resolve when a statusChanged notification satisfies `done` (no fixed sleeps). */
    function until(done: (s: FolderStatus) => boolean): Promise<void> {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('no such status in time')), WAIT_MS);
            const check = (): boolean => {
                if (statuses.some(done)) {
                    clearTimeout(timer);
                    resolve();
                    return true;
                }
                return false;
            };
            if (!check()) {
                waiters.push(check);
            }
        });
    }

    before(async () => {
        assert.ok(python, NO_PYTHON);
        const outcome = importOutcome(await probeSpyglass(python));
        assert.equal(outcome.kind, 'ready', `${python} cannot run spyglass (${JSON.stringify(outcome)}): ${NO_PYTHON}`);
        dir = mkdtempSync(path.join(tmpdir(), 'spyglass-ext-'));
        root = path.join(dir, 'shop');
        cpSync(fixture, root, { recursive: true });
        // As vscode-languageclient's TransportKind.stdio does: the command, its args, then --stdio.
        proc = spawn(python, [...serverArgs(), '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
        assert.ok(proc.stdout && proc.stdin);
        connection = createMessageConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
        connection.onNotification(Methods.statusChanged, (s: FolderStatus) => {
            statuses.push(s);
            waiters = waiters.filter((w) => !w()); // keep those still waiting
        });
        connection.onRequest(() => null); // client/registerCapability and the like
        connection.listen();
        const uri = pathToFileURL(root).href;
        await connection.sendRequest('initialize', {
            processId: process.pid,
            rootUri: uri,
            workspaceFolders: [{ uri, name: 'shop' }],
            capabilities: {},
            initializationOptions: resolveSettings(defaults).settings.server,
        });
        await connection.sendNotification('initialized', {});
    });

    after(async () => {
        if (connection) {
            await connection.sendRequest('shutdown').catch(() => undefined);
            await connection.sendNotification('exit').catch(() => undefined);
            connection.dispose();
        }
        if (proc?.exitCode === null) {
            await new Promise<void>((resolve) => {
                const timer = setTimeout(() => {
                    proc.kill();
                    resolve();
                }, 10_000);
                proc.once('exit', () => {
                    clearTimeout(timer);
                    resolve();
                });
            });
        }
        if (dir) {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    test('search answers from the start; the title flags lexical answers', async () => {
        await until((s) => (s.files ?? 0) > 0);
        const result = await connection.sendRequest<SearchResult>(Methods.search, { query: 'compute_discount', k: 10 });
        assert.equal(result.results[0]?.symbol, 'compute_discount');
        const item = searchItem(result.results[0]);
        assert.equal(item.label, '$(symbol-function) compute_discount');
        assert.equal(item.description, 'shop/pricing.py:6 · function');
        assert.match(searchTitle(result), /^Spyglass · (lexical results: .+ · )?\d+ results?$/);
    });

    test('idle: hybrid search, related code, status, reindex', async () => {
        await until((s) => s.state === 'idle' && s.modelLoaded === true && s.embeddedFraction === 1);
        const result = await connection.sendRequest<SearchResult>(Methods.search, {
            query: 'discount for a coupon code',
            k: 5,
            filters: { languages: ['python'] },
        });
        assert.equal(result.folders[0]?.mode, 'hybrid');
        assert.equal(result.results[0]?.symbol, 'compute_discount');
        assert.ok(result.results.every((h) => h.language === 'python'));
        assert.doesNotMatch(searchTitle(result), /lexical/);

        const related = await connection.sendRequest<RelatedResult>(Methods.related, {
            textDocument: { uri: pathToFileURL(path.join(root, 'shop', 'pricing.py')).href },
            position: { line: 5, character: 6 },
            k: 10,
        });
        assert.equal(related.span?.symbol, 'compute_discount');
        assert.equal(relatedMessage(related), undefined);
        assert.ok(related.related.some((r) => r.relation === 'uses' && r.path === 'shop/cart.py'));

        const status = await connection.sendRequest<StatusResult>(Methods.status, {});
        const running = { kind: 'running', python: python ?? '', version: '?' } as const;
        assert.match(statusBarView(running, status.folders).text, /^\$\(search\) Spyglass: \d+ files$/);

        const reindex = await connection.sendRequest<ReindexResult>(Methods.reindex, {});
        assert.match(reindexSummary(reindex), /^Spyglass reindexed shop: nothing changed \(\d+ unchanged\)$/);
    });

    test('a cancelled search is answered with an error, which the QuickPick ignores', async () => {
        const source = new CancellationTokenSource();
        const pending = connection.sendRequest<SearchResult>(Methods.search, { query: 'shipping cost' }, source.token);
        source.cancel();
        await pending.then(
            (r) => assert.ok(Array.isArray(r.results)), // answered before the cancel arrived: fine too
            (e: { code?: number }) => assert.equal(e.code, -32800),
        );
    });
});
