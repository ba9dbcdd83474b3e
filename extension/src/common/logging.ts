/**
 * The `Spyglass` output channel: the extension's own log lines and, through the language client, the
 * server's stderr (the server logs only there: its stdout is the protocol). `Spyglass: Show Logs` opens it.
 */

import * as vscode from 'vscode';

export class Logger implements vscode.Disposable {
    readonly channel: vscode.LogOutputChannel;

    constructor(name = 'Spyglass') {
        this.channel = vscode.window.createOutputChannel(name, { log: true });
    }

    info(message: string): void {
        this.channel.info(message);
    }

    warn(message: string): void {
        this.channel.warn(message);
    }

    /** Log an error with its message (and stack at debug level). */
    error(message: string, error?: unknown): void {
        if (error === undefined) {
            this.channel.error(message);
            return;
        }
        this.channel.error(`${message}: ${errorMessage(error)}`);
        if (error instanceof Error && error.stack) {
            this.channel.debug(error.stack);
        }
    }

    debug(message: string): void {
        this.channel.debug(message);
    }

    show(): void {
        this.channel.show(true);
    }

    dispose(): void {
        this.channel.dispose();
    }
}

/** An error's message, whatever was thrown. */
export function errorMessage(error: unknown): string {
    if (error instanceof Error) {
        return error.message;
    }
    if (typeof error === 'object' && error !== null && 'message' in error) {
        return String(error.message);
    }
    return String(error);
}
