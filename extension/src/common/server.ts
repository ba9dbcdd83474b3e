/**
 * The language client: starts `<python> -m spyglass lsp` over stdio (vscode-languageclient adds
 * `--stdio`) for every `file:` document, sends the typed settings as `initializationOptions`, and
 * restarts the server when they change (debounced), when the interpreter changes, or on request.
 * Start, stop and restart are serialized so that two restarts never race.
 */

import * as vscode from 'vscode';
import {
    LanguageClient,
    RevealOutputChannelOn,
    State,
    TransportKind,
    type LanguageClientOptions,
    type ServerOptions,
} from 'vscode-languageclient/node';

import type { ServerState } from '../format';
import { debounce } from './debounce';
import { errorMessage, type Logger } from './logging';
import { serverArgs, type Interpreter } from './python';
import { describeOutcome, type PythonHost } from './pythonHost';
import { changeRestartsServer, resolveSettings, type ServerSettings } from './settings';

export const RESTART_DEBOUNCE_MS = 500;
const STOP_TIMEOUT_MS = 3_000;

/** A request made while the server is not running. */
export class ServerNotRunning extends Error {
    constructor(readonly state: ServerState) {
        super(
            state.kind === 'unavailable' || state.kind === 'failed'
                ? `the Spyglass server is not running: ${state.reason}`
                : state.kind === 'starting'
                  ? 'the Spyglass server is still starting'
                  : 'the Spyglass server is not running',
        );
    }
}

export class SpyglassServer implements vscode.Disposable {
    private client: LanguageClient | undefined;
    private queue: Promise<void> = Promise.resolve();
    private stateValue: ServerState = { kind: 'stopped' };
    private interpreterValue: Interpreter | undefined;
    private settingsValue: ServerSettings | undefined;
    private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
    /** Fires on every state change (starting, running, unavailable, failed, stopped). */
    readonly onDidChangeState = this.stateEmitter.event;
    private readonly handlers = new Map<string, Set<(params: unknown) => void>>();
    private readonly dispatching = new Set<string>();
    private readonly toldProblems = new Set<string>();
    private readonly disposables: vscode.Disposable[] = [this.stateEmitter];
    private readonly restartSoon = debounce((reason: string) => void this.restart(reason), RESTART_DEBOUNCE_MS);

    constructor(
        private readonly log: Logger,
        private readonly python: PythonHost,
    ) {
        this.disposables.push(
            vscode.workspace.onDidChangeConfiguration((e) => {
                if (changeRestartsServer(e)) {
                    this.restartSoon('the Spyglass settings changed');
                }
            }),
            vscode.workspace.onDidGrantWorkspaceTrust(() => this.restartSoon('the workspace is now trusted')),
            python.onDidChange(() => {
                if (this.interpreterValue?.source !== 'setting' || this.stateValue.kind !== 'running') {
                    this.restartSoon('the Python interpreter changed');
                }
            }),
        );
    }

    get state(): ServerState {
        return this.stateValue;
    }

    /** The interpreter of the last start, if it got that far. */
    get interpreter(): Interpreter | undefined {
        return this.interpreterValue;
    }

    /** The settings the running server was started with. */
    get settings(): ServerSettings | undefined {
        return this.settingsValue;
    }

    start(): Promise<void> {
        return this.enqueue(() => this.doStart());
    }

    stop(): Promise<void> {
        return this.enqueue(() => this.doStop());
    }

    /** Stop then start again (with fresh settings and interpreter). */
    restart(reason: string): Promise<void> {
        this.restartSoon.cancel();
        this.log.info(`restarting the server: ${reason}`);
        return this.enqueue(async () => {
            await this.doStop();
            await this.doStart();
        });
    }

    /** Send a request; throws `ServerNotRunning` when there is no running server. */
    async request<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R> {
        const client = this.client;
        if (!client?.isRunning()) {
            throw new ServerNotRunning(this.stateValue);
        }
        return token ? client.sendRequest<R>(method, params, token) : client.sendRequest<R>(method, params);
    }

    /** Handle a server notification, on this server process and on every later one. */
    onNotification<P>(method: string, handler: (params: P) => void): vscode.Disposable {
        const set = this.handlers.get(method) ?? new Set();
        this.handlers.set(method, set);
        const h = handler as (params: unknown) => void;
        set.add(h);
        if (this.client !== undefined && !this.dispatching.has(method)) {
            this.dispatch(this.client, method);
        }
        return new vscode.Disposable(() => set.delete(h));
    }

    /** One handler per method and client (a second registration would replace the first). */
    private dispatch(client: LanguageClient, method: string): void {
        this.dispatching.add(method);
        client.onNotification(method, (params: unknown) => {
            for (const h of this.handlers.get(method) ?? []) {
                try {
                    h(params);
                } catch (e) {
                    this.log.error(`${method} handler failed`, e);
                }
            }
        });
    }

    private enqueue(work: () => Promise<void>): Promise<void> {
        const next = this.queue.then(work, work);
        this.queue = next.catch((e: unknown) => this.log.error('server start/stop failed', e));
        return this.queue;
    }

    private setState(state: ServerState): void {
        this.stateValue = state;
        this.stateEmitter.fire(state);
    }

    private async doStart(): Promise<void> {
        if (this.client !== undefined) {
            return;
        }
        this.setState({ kind: 'starting' });
        const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
        const cwd = folders[0]?.uri.fsPath;

        const { settings, problems } = resolveSettings(vscode.workspace.getConfiguration('spyglass', folders[0]?.uri));
        for (const problem of problems) {
            this.log.warn(problem);
            if (!this.toldProblems.has(problem)) {
                this.toldProblems.add(problem);
                void vscode.window.showWarningMessage(problem);
            }
        }

        const discovery = await this.python.discover(folders[0]?.uri);
        for (const note of discovery.notes) {
            this.log.info(note);
        }
        const interpreter = discovery.interpreter;
        this.interpreterValue = interpreter;
        this.log.info(`interpreter: ${interpreter.command} (from ${interpreter.source})`);
        const outcome = await this.python.check(interpreter.command, cwd);
        if (outcome.kind !== 'ready') {
            this.setState({ kind: 'unavailable', reason: `${interpreter.command}: ${describeOutcome(outcome)}` });
            void this.python.report(interpreter.command, outcome);
            return;
        }

        const serverOptions: ServerOptions = {
            command: interpreter.command,
            args: serverArgs(),
            transport: TransportKind.stdio,
            options: { cwd, env: { ...process.env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' } },
        };
        const clientOptions: LanguageClientOptions = {
            documentSelector: [{ scheme: 'file' }],
            outputChannel: this.log.channel,
            revealOutputChannelOn: RevealOutputChannelOn.Never,
            initializationOptions: settings.server,
            markdown: { isTrusted: false, supportHtml: false },
            initializationFailedHandler: (error: unknown) => {
                this.log.error('the server failed to initialize', error);
                return false;
            },
        };
        const client = new LanguageClient('spyglass', 'Spyglass', serverOptions, clientOptions);
        this.dispatching.clear();
        for (const method of this.handlers.keys()) {
            this.dispatch(client, method);
        }
        client.onDidChangeState((e) => {
            if (this.client !== client) {
                return;
            }
            if (e.newState === State.Running) {
                this.setState({ kind: 'running', python: interpreter.command, version: outcome.version });
            } else if (e.newState === State.Stopped && this.stateValue.kind === 'running') {
                this.setState({ kind: 'failed', reason: 'the server stopped; see Spyglass: Show Logs' });
            }
        });
        this.client = client;
        this.settingsValue = settings.server;
        this.log.info(`starting ${interpreter.command} ${serverArgs().join(' ')} (spyglass ${outcome.version})`);
        try {
            await client.start();
            this.setState({ kind: 'running', python: interpreter.command, version: outcome.version });
        } catch (e) {
            this.log.error('the server did not start', e);
            this.client = undefined;
            await client.dispose(STOP_TIMEOUT_MS).catch(() => undefined);
            this.setState({ kind: 'failed', reason: `the server did not start: ${errorMessage(e)}` });
        }
    }

    private async doStop(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        if (client !== undefined) {
            try {
                await client.dispose(STOP_TIMEOUT_MS);
            } catch (e) {
                this.log.warn(`stopping the server: ${errorMessage(e)}`);
            }
        }
        this.setState({ kind: 'stopped' });
    }

    async dispose(): Promise<void> {
        this.restartSoon.cancel();
        for (const d of this.disposables) {
            d.dispose();
        }
        await this.stop();
    }
}
