/**
 * The status bar item, following `spyglass/statusChanged` (indexing N files, embedding X%, idle with its
 * counts, an error in red), and what clicking it opens: a QuickPick with each folder's status and the
 * actions (reindex, logs, restart, search, MCP). Also the `Spyglass: Reindex Workspace` and
 * `Spyglass: Show Logs` commands.
 */

import * as vscode from 'vscode';

import { errorMessage, type Logger } from './common/logging';
import type { SpyglassServer } from './common/server';
import { folderDetail, folderName, folderSummary, reindexSummary, serverSummary, statusBarView } from './format';
import { Methods, type FolderStatus, type ReindexParams, type ReindexResult, type StatusResult } from './protocol';

export class StatusView implements vscode.Disposable {
    private readonly item: vscode.StatusBarItem;
    private readonly folders = new Map<string, FolderStatus>();
    private readonly disposables: vscode.Disposable[] = [];

    constructor(
        private readonly server: SpyglassServer,
        private readonly log: Logger,
    ) {
        this.item = vscode.window.createStatusBarItem('spyglass.status', vscode.StatusBarAlignment.Right, 100);
        this.item.name = 'Spyglass';
        this.item.command = 'spyglass.showStatus';
        this.disposables.push(
            this.item,
            server.onNotification<FolderStatus>(Methods.statusChanged, (status) => {
                this.folders.set(status.root, status);
                this.render();
            }),
            server.onDidChangeState((state) => {
                if (state.kind !== 'running') {
                    this.folders.clear();
                } else {
                    void this.refresh();
                }
                this.render();
            }),
            vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()),
        );
        this.render();
        this.item.show();
    }

    /** Every folder's status as the server knows it now. */
    get statuses(): FolderStatus[] {
        return [...this.folders.values()];
    }

    /** Ask the server for every folder's status (replacing what the notifications said). */
    async refresh(): Promise<void> {
        if (this.server.state.kind !== 'running') {
            return;
        }
        try {
            const result = await this.server.request<StatusResult>(Methods.status, {});
            this.folders.clear();
            for (const f of result.folders) {
                this.folders.set(f.root, f);
            }
            this.render();
        } catch (e) {
            this.log.warn(`spyglass/status: ${errorMessage(e)}`);
        }
    }

    private render(): void {
        const view = statusBarView(this.server.state, this.statuses);
        this.item.text = view.text;
        this.item.tooltip = view.tooltip;
        this.item.backgroundColor =
            view.severity === 'error'
                ? new vscode.ThemeColor('statusBarItem.errorBackground')
                : view.severity === 'warning'
                  ? new vscode.ThemeColor('statusBarItem.warningBackground')
                  : undefined;
    }

    dispose(): void {
        for (const d of this.disposables) {
            d.dispose();
        }
    }
}

interface ActionItem extends vscode.QuickPickItem {
    command?: string;
}

async function showStatus(server: SpyglassServer, view: StatusView): Promise<void> {
    await view.refresh();
    const separator = (label: string): ActionItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
    const items: ActionItem[] = [
        separator('Server'),
        {
            label: `$(${server.state.kind === 'running' ? 'server-process' : 'warning'}) Server`,
            description: serverSummary(server.state),
            detail: server.interpreter ? `${server.interpreter.command} (${server.interpreter.source})` : undefined,
            command: server.state.kind === 'running' ? undefined : 'spyglass.showLogs',
        },
    ];
    if (view.statuses.length) {
        items.push(separator('Folders'));
        for (const f of view.statuses) {
            items.push({
                label: `$(${f.state === 'error' ? 'error' : 'folder'}) ${folderName(f.root)}`,
                description: folderSummary(f),
                detail: folderDetail(f) || undefined,
            });
        }
    }
    items.push(
        separator('Actions'),
        { label: '$(refresh) Reindex Workspace', command: 'spyglass.reindex' },
        { label: '$(search) Search Code', command: 'spyglass.search' },
        { label: '$(output) Show Logs', command: 'spyglass.showLogs' },
        { label: '$(debug-restart) Restart Server', command: 'spyglass.restart' },
        { label: '$(plug) Configure MCP for...', command: 'spyglass.configureMcp' },
    );
    const choice = await vscode.window.showQuickPick(items, { title: 'Spyglass', placeHolder: 'Index status and actions' });
    if (choice?.command) {
        await vscode.commands.executeCommand(choice.command);
    }
}

async function reindex(server: SpyglassServer, view: StatusView, log: Logger, target?: unknown): Promise<void> {
    const params: ReindexParams = target instanceof vscode.Uri ? { paths: [target.toString()] } : {};
    try {
        const result = await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: 'Spyglass: reindexing', cancellable: true },
            (_progress, token) => server.request<ReindexResult>(Methods.reindex, params, token),
        );
        const summary = reindexSummary(result);
        log.info(summary);
        if (result.folders.every((f) => f.ok)) {
            void vscode.window.showInformationMessage(summary);
        } else {
            void vscode.window.showWarningMessage(summary, 'Show Logs').then((c) => c && log.show());
        }
    } catch (e) {
        log.warn(`reindex: ${errorMessage(e)}`);
        void vscode.window.showWarningMessage(`Spyglass could not reindex: ${errorMessage(e)}`);
    }
    await view.refresh();
}

/** The status bar item and the status, reindex and logs commands. */
export function registerStatus(server: SpyglassServer, log: Logger): vscode.Disposable {
    const view = new StatusView(server, log);
    return vscode.Disposable.from(
        view,
        vscode.commands.registerCommand('spyglass.showStatus', () => showStatus(server, view)),
        vscode.commands.registerCommand('spyglass.reindex', (target?: unknown) => reindex(server, view, log, target)),
        vscode.commands.registerCommand('spyglass.showLogs', () => log.show()),
    );
}
