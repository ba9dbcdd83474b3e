/**
 * MCP for agents. In VS Code 1.101+ the extension provides one `spyglass mcp <folder>` server per
 * workspace folder to VS Code's own agent mode (`vscode.lm.registerMcpServerDefinitionProvider`), using the
 * same Python as the language server; older VS Code has no such API and is left alone.
 * `Spyglass: Configure MCP for...` writes the configuration other agents read (Claude Code, Cursor,
 * Continue) with `spyglass mcp-config <client> --write --root <folder>`.
 */

import * as vscode from 'vscode';

import { errorMessage, type Logger } from './common/logging';
import { MCP_CLIENTS, mcpConfigArgs, mcpServerArgs, run, type McpClient } from './common/python';
import type { PythonHost } from './common/pythonHost';
import { mcpServerLabel } from './format';

const PROVIDER_ID = 'spyglass';

function fileFolders(): readonly vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** Whether this VS Code has the MCP server definition API (1.101+). */
export function hasMcpApi(): boolean {
    const api = vscode as unknown as { McpStdioServerDefinition?: unknown; lm?: { registerMcpServerDefinitionProvider?: unknown } };
    return typeof api.McpStdioServerDefinition === 'function' && typeof api.lm?.registerMcpServerDefinitionProvider === 'function';
}

function registerProvider(python: PythonHost, log: Logger, version: string): vscode.Disposable {
    const lm = vscode.lm;
    if (!hasMcpApi() || lm.registerMcpServerDefinitionProvider === undefined) {
        log.info('this VS Code has no MCP server API (1.101+): use Spyglass: Configure MCP for... instead');
        return new vscode.Disposable(() => undefined);
    }
    const changed = new vscode.EventEmitter<void>();
    const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
        onDidChangeMcpServerDefinitions: changed.event,
        provideMcpServerDefinitions: async () => {
            const folders = fileFolders();
            const servers: vscode.McpStdioServerDefinition[] = [];
            for (const folder of folders) {
                const { interpreter } = await python.discover(folder.uri);
                const server = new vscode.McpStdioServerDefinition(
                    mcpServerLabel(folder.name, folders.length),
                    interpreter.command,
                    mcpServerArgs(folder.uri.fsPath),
                    {},
                    version,
                );
                server.cwd = folder.uri;
                servers.push(server);
            }
            return servers;
        },
        resolveMcpServerDefinition: async (server) => {
            // Starting is the moment to say that the package is missing (providing must not prompt).
            const outcome = await python.check(server.command, server.cwd?.fsPath);
            if (outcome.kind !== 'ready') {
                void python.report(server.command, outcome);
                return undefined;
            }
            return server;
        },
    };
    return vscode.Disposable.from(
        changed,
        lm.registerMcpServerDefinitionProvider(PROVIDER_ID, provider),
        vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
        vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
        vscode.workspace.onDidChangeConfiguration((e) => {
            if (e.affectsConfiguration('spyglass.interpreter')) {
                changed.fire();
            }
        }),
        python.onDidChange(() => changed.fire()),
    );
}

interface ClientItem extends vscode.QuickPickItem {
    client: McpClient;
    file: string;
}

async function configureMcp(python: PythonHost, log: Logger): Promise<void> {
    const folders = fileFolders();
    if (folders.length === 0) {
        void vscode.window.showInformationMessage('Spyglass: open a folder first: the configuration is written into it');
        return;
    }
    const items: ClientItem[] = MCP_CLIENTS.map((c) => ({
        label: c.label,
        description: c.file,
        client: c.id,
        file: c.file,
    }));
    const choice = await vscode.window.showQuickPick(items, {
        title: 'Spyglass: Configure MCP for...',
        placeHolder: 'Which agent should search this workspace with Spyglass?',
    });
    if (!choice) {
        return;
    }
    const folder =
        folders.length === 1
            ? folders[0]
            : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which folder should the agent search?' });
    if (!folder) {
        return;
    }
    const { interpreter } = await python.discover(folder.uri);
    const outcome = await python.check(interpreter.command, folder.uri.fsPath);
    if (outcome.kind !== 'ready') {
        await python.report(interpreter.command, outcome);
        return;
    }
    const args = mcpConfigArgs(choice.client, folder.uri.fsPath);
    log.info(`${interpreter.command} ${args.join(' ')}`);
    const result = await run(interpreter.command, args, { cwd: folder.uri.fsPath });
    for (const line of `${result.stdout}\n${result.stderr}`.split(/\r?\n/).filter(Boolean)) {
        log.info(`mcp-config: ${line}`);
    }
    if (result.exitCode === 0) {
        const open = await vscode.window.showInformationMessage(
            `Spyglass: ${choice.label} will start the Spyglass MCP server for ${folder.name} (${choice.file})`,
            'Open File',
        );
        if (open) {
            const file = vscode.Uri.joinPath(folder.uri, ...choice.file.split('/'));
            await vscode.window.showTextDocument(file).then(undefined, (e: unknown) => {
                log.warn(`open ${file.fsPath}: ${errorMessage(e)}`);
            });
        }
        return;
    }
    const why =
        result.stderr.trim().split(/\r?\n/).at(-1) ?? result.errorCode ?? `exit code ${String(result.exitCode)}`;
    const action = await vscode.window.showErrorMessage(
        `Spyglass could not configure ${choice.label}: ${why}`,
        'Show Logs',
    );
    if (action) {
        log.show();
    }
}

/** The MCP server provider (when VS Code has the API) and `Spyglass: Configure MCP for...`. */
export function registerMcp(python: PythonHost, log: Logger, version: string): vscode.Disposable {
    return vscode.Disposable.from(
        registerProvider(python, log, version),
        vscode.commands.registerCommand('spyglass.configureMcp', () => configureMcp(python, log)),
    );
}
