/**
 * `Spyglass: Peek Related Code` (command palette and editor context menu): `spyglass/related` at the
 * cursor, shown in VS Code's peek view (`editor.action.peekLocations`): the code that uses the definition
 * under the cursor, code similar to it, and the prose that documents it.
 */

import * as vscode from 'vscode';

import { errorMessage, type Logger } from './common/logging';
import type { SpyglassServer } from './common/server';
import { relatedMessage } from './format';
import { Methods, type RelatedParams, type RelatedResult } from './protocol';
import { toRange } from './ranges';

/** How many related spans to ask for (the hover card shows 3; the peek view has room for more). */
export const PEEK_K = 10;

export function registerPeek(server: SpyglassServer, log: Logger): vscode.Disposable {
    return vscode.commands.registerCommand('spyglass.peekRelated', async (uri?: unknown) => {
        const editor = vscode.window.activeTextEditor;
        if (!editor || (uri instanceof vscode.Uri && uri.toString() !== editor.document.uri.toString())) {
            void vscode.window.showInformationMessage('Spyglass: open a file and put the cursor in a definition');
            return;
        }
        const document = editor.document;
        const position = editor.selection.active;
        const params: RelatedParams = {
            textDocument: { uri: document.uri.toString() },
            position: { line: position.line, character: position.character },
            k: PEEK_K,
        };
        let result: RelatedResult;
        try {
            result = await vscode.window.withProgress(
                { location: vscode.ProgressLocation.Window, title: 'Spyglass: finding related code' },
                (_progress, token) => server.request<RelatedResult>(Methods.related, params, token),
            );
        } catch (e) {
            log.warn(`related at ${document.uri.toString()}:${position.line + 1}: ${errorMessage(e)}`);
            void vscode.window.showWarningMessage(`Spyglass: ${errorMessage(e)}`);
            return;
        }
        const message = relatedMessage(result);
        if (message) {
            void vscode.window.showInformationMessage(message);
            return;
        }
        const locations = result.related.map((r) => new vscode.Location(vscode.Uri.parse(r.uri), toRange(r.range)));
        await vscode.commands.executeCommand('editor.action.peekLocations', document.uri, position, locations, 'peek');
    });
}
