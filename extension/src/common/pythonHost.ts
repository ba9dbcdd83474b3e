/**
 * The VS Code side of common/python.ts: asks the Python extension for its active interpreter, applies
 * workspace trust, checks `import spyglass`, and offers the install command once when it fails.
 */

import { PythonExtension } from '@vscode/python-extension';
import * as os from 'node:os';
import * as vscode from 'vscode';

import type { Logger } from './logging';
import {
    type Discovery,
    type ImportOutcome,
    discoverInterpreter,
    importOutcome,
    installCommandLine,
    probeSpyglass,
} from './python';

const PYTHON_EXTENSION_ID = 'ms-python.python';
const API_TIMEOUT_MS = 15_000;
const INSTALL_POLL_MS = 3_000;
const INSTALL_WAIT_MS = 10 * 60_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what} did not answer in ${ms / 1000} s`)), ms);
        promise.then(
            (value) => {
                clearTimeout(timer);
                resolve(value);
            },
            (error: unknown) => {
                clearTimeout(timer);
                reject(error instanceof Error ? error : new Error(String(error)));
            },
        );
    });
}

export class PythonHost implements vscode.Disposable {
    private readonly changed = new vscode.EventEmitter<void>();
    /** The Python extension's active interpreter changed, or the package was just installed. */
    readonly onDidChange = this.changed.event;
    private readonly told = new Set<string>();
    private readonly disposables: vscode.Disposable[] = [this.changed];
    private watchingPythonExtension = false;
    private installPoll: ReturnType<typeof setInterval> | undefined;

    constructor(private readonly log: Logger) {}

    /** The interpreter for `resource`'s folder (the first workspace folder when none is given). */
    async discover(resource?: vscode.Uri): Promise<Discovery> {
        const folders = (vscode.workspace.workspaceFolders ?? [])
            .filter((f) => f.uri.scheme === 'file')
            .map((f) => f.uri.fsPath);
        const scope = resource ?? vscode.workspace.workspaceFolders?.[0]?.uri;
        const setting = vscode.workspace.getConfiguration('spyglass', scope).get<unknown>('interpreter');
        return discoverInterpreter({
            setting: typeof setting === 'string' ? setting : '',
            trusted: vscode.workspace.isTrusted,
            folders,
            platform: process.platform,
            home: os.homedir(),
            pythonExtension: () => this.fromPythonExtension(scope),
        });
    }

    /** Run `import spyglass` with the interpreter. */
    async check(python: string, cwd?: string): Promise<ImportOutcome> {
        const outcome = importOutcome(await probeSpyglass(python, { cwd }));
        this.log.info(`${python}: import spyglass: ${describeOutcome(outcome)}`);
        return outcome;
    }

    /** Tell the user, once per interpreter and problem, what to do when the check failed. */
    async report(python: string, outcome: ImportOutcome): Promise<void> {
        if (outcome.kind === 'ready') {
            return;
        }
        const key = `${python}\n${outcome.kind}`;
        if (this.told.has(key)) {
            return;
        }
        this.told.add(key);
        const hasPythonExtension = vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
        const selectInterpreter = hasPythonExtension ? ['Select Interpreter'] : [];
        let message: string;
        let actions: string[];
        if (outcome.kind === 'missingPackage') {
            const source = installSource();
            if (source) {
                const command = installCommandLine(python, source, process.platform);
                message = `Spyglass: the spyglass Python package is not installed for ${python}. Install it with: ${command}`;
                actions = ['Install in Terminal', ...selectInterpreter, 'Open Settings'];
            } else {
                const command = installCommandLine(python, '/path/to/spyglass', process.platform);
                message =
                    `Spyglass: the spyglass Python package is not installed for ${python}. Install it from a ` +
                    `Spyglass checkout with: ${command} (or set spyglass.installSource to install it from here)`;
                actions = [...selectInterpreter, 'Open Settings'];
            }
        } else if (outcome.kind === 'noPython') {
            message =
                `Spyglass could not run Python (${python}: ${outcome.message}). ` +
                'Set spyglass.interpreter to a Python that has the spyglass package' +
                (hasPythonExtension ? ', or select an interpreter.' : '.');
            actions = [...selectInterpreter, 'Open Settings'];
        } else {
            message = `Spyglass could not import its package with ${python}: ${outcome.message}`;
            actions = ['Show Logs', 'Open Settings'];
        }
        const choice = await vscode.window.showWarningMessage(message, ...actions);
        if (choice === 'Install in Terminal') {
            this.install(python);
        } else if (choice === 'Select Interpreter') {
            await vscode.commands.executeCommand('python.setInterpreter');
        } else if (choice === 'Open Settings') {
            await vscode.commands.executeCommand('workbench.action.openSettings', 'spyglass.interpreter');
        } else if (choice === 'Show Logs') {
            this.log.show();
        }
    }

    /** Forget what the user was told, so that an explicit restart reports a problem again. */
    forget(): void {
        this.told.clear();
    }

    /** Type the install command into a terminal, then restart once `import spyglass` works. */
    install(python: string): void {
        const source = installSource();
        if (!source) {
            return;
        }
        const command = installCommandLine(python, source, process.platform);
        const terminal = vscode.window.createTerminal({ name: 'Spyglass: install' });
        terminal.show();
        terminal.sendText(command, true);
        this.log.info(`install: ${command}`);
        this.stopInstallPoll();
        const started = Date.now();
        this.installPoll = setInterval(() => {
            if (Date.now() - started > INSTALL_WAIT_MS) {
                this.stopInstallPoll();
                return;
            }
            void probeSpyglass(python).then((r) => {
                if (this.installPoll !== undefined && importOutcome(r).kind === 'ready') {
                    this.stopInstallPoll();
                    this.told.clear();
                    this.log.info(`the spyglass package is now importable with ${python}`);
                    this.changed.fire();
                }
            });
        }, INSTALL_POLL_MS);
    }

    private stopInstallPoll(): void {
        if (this.installPoll !== undefined) {
            clearInterval(this.installPoll);
            this.installPoll = undefined;
        }
    }

    private async fromPythonExtension(resource?: vscode.Uri): Promise<string | undefined> {
        if (vscode.extensions.getExtension(PYTHON_EXTENSION_ID) === undefined) {
            return undefined;
        }
        const api = await withTimeout(PythonExtension.api(), API_TIMEOUT_MS, 'the Python extension');
        if (!this.watchingPythonExtension) {
            this.watchingPythonExtension = true;
            this.disposables.push(
                api.environments.onDidChangeActiveEnvironmentPath(() => {
                    this.log.info('the Python extension changed its active interpreter');
                    this.changed.fire();
                }),
            );
        }
        const envPath = api.environments.getActiveEnvironmentPath(resource);
        const env = await withTimeout(
            api.environments.resolveEnvironment(envPath),
            API_TIMEOUT_MS,
            'the Python extension',
        );
        return env?.executable.uri?.fsPath;
    }

    dispose(): void {
        this.stopInstallPoll();
        for (const d of this.disposables) {
            d.dispose();
        }
    }
}

export function describeOutcome(outcome: ImportOutcome): string {
    switch (outcome.kind) {
        case 'ready':
            return `ok (spyglass ${outcome.version})`;
        case 'missingPackage':
            return 'the package is not installed';
        case 'noPython':
            return `cannot run it (${outcome.message})`;
        case 'broken':
            return `failed (${outcome.message})`;
    }
}

/** The `spyglass.installSource` setting, trimmed ('' when unset). */
function installSource(): string {
    const value = vscode.workspace.getConfiguration('spyglass').get<unknown>('installSource');
    return typeof value === 'string' ? value.trim() : '';
}
