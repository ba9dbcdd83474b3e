/**
 * Activation only: create the log, the Python host and the server, register each feature, start.
 * Each feature lives in its own module (search, peek, status, mcp); the plumbing is in common/.
 */

import * as vscode from 'vscode';

import { Logger } from './common/logging';
import { PythonHost } from './common/pythonHost';
import { SpyglassServer } from './common/server';
import { registerMcp } from './mcp';
import { registerPeek } from './peek';
import { registerSearch } from './search';
import { registerStatus } from './status';

let server: SpyglassServer | undefined;

export function activate(context: vscode.ExtensionContext): void {
    const log = new Logger();
    const python = new PythonHost(log);
    const spyglass = new SpyglassServer(log, python);
    server = spyglass;
    const manifest = context.extension.packageJSON as { version?: string };
    const version = manifest.version ?? '0.0.0';
    log.info(`Spyglass extension ${version} in VS Code ${vscode.version}`);
    context.subscriptions.push(
        log,
        python,
        registerStatus(spyglass, log),
        registerSearch(spyglass, log),
        registerPeek(spyglass, log),
        registerMcp(python, log, version),
        vscode.commands.registerCommand('spyglass.restart', () => {
            python.forget();
            return spyglass.restart('Spyglass: Restart Server');
        }),
    );
    void spyglass.start();
}

export async function deactivate(): Promise<void> {
    await server?.dispose();
    server = undefined;
}
