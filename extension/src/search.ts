/**
 * `Spyglass: Search Code`: a QuickPick over `spyglass/search`. Results follow the typing (debounced, each
 * new query cancelling the one in flight), moving through them previews each location without taking
 * the focus, Enter opens it, and a button limits the search to the current file's language. Lexical
 * answers (the model still loading, or unavailable) are flagged in the title.
 */

import * as vscode from 'vscode';

import { debounce } from './common/debounce';
import { errorMessage, type Logger } from './common/logging';
import type { SpyglassServer } from './common/server';
import { DEFAULTS, searchLimit } from './common/settings';
import { indexLanguages, searchItem, searchTitle } from './format';
import { Methods, type SearchHit, type SearchParams, type SearchResult } from './protocol';
import { spanLines, toRange } from './ranges';

export const SEARCH_DEBOUNCE_MS = 150;

interface HitItem extends vscode.QuickPickItem {
    hit: SearchHit;
}

/** Where the user was, to go back there when the search is dismissed. */
interface Place {
    document: vscode.TextDocument;
    selection: vscode.Selection;
    visible: vscode.Range | undefined;
    column: vscode.ViewColumn | undefined;
}

export function registerSearch(server: SpyglassServer, log: Logger): vscode.Disposable {
    return vscode.commands.registerCommand('spyglass.search', (query?: unknown) =>
        showSearch(server, log, typeof query === 'string' ? query : undefined),
    );
}

async function showSearch(server: SpyglassServer, log: Logger, initial?: string): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const languageId = editor?.document.uri.scheme === 'file' ? editor.document.languageId : undefined;
    const origin: Place | undefined = editor && {
        document: editor.document,
        selection: editor.selection,
        visible: editor.visibleRanges[0],
        column: editor.viewColumn,
    };
    const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
    const prefill = initial ?? (selected.includes('\n') ? '' : selected.trim());

    const qp = vscode.window.createQuickPick<HitItem>();
    // VS Code would re-sort and filter the server's ranking by label; keep it as it comes.
    (qp as vscode.QuickPick<HitItem> & { sortByLabel: boolean }).sortByLabel = false;
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    qp.placeholder = 'Search code by meaning or name, e.g. "where are prices computed"';
    qp.title = searchTitle(undefined);

    let languageOnly = false;
    const updateButtons = (): void => {
        qp.buttons = languageId
            ? [
                  {
                      iconPath: new vscode.ThemeIcon(languageOnly ? 'filter-filled' : 'filter'),
                      tooltip: languageOnly ? `Showing ${languageId} only: show every language` : `Only ${languageId}`,
                  },
              ]
            : [];
    };
    updateButtons();

    const highlight = vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
        isWholeLine: true,
    });
    let inFlight: vscode.CancellationTokenSource | undefined;
    let accepted = false;
    let previewSeq = 0;

    const run = async (query: string): Promise<void> => {
        inFlight?.cancel();
        inFlight?.dispose();
        inFlight = undefined;
        if (!query.trim()) {
            qp.items = [];
            qp.busy = false;
            qp.title = searchTitle(undefined, languageOnly ? languageId : undefined);
            return;
        }
        const mine = new vscode.CancellationTokenSource();
        inFlight = mine;
        qp.busy = true;
        const params: SearchParams = { query, k: searchLimit(server.settings ?? DEFAULTS) };
        if (languageOnly && languageId) {
            params.filters = { languages: indexLanguages(languageId) };
        }
        try {
            const result = await server.request<SearchResult>(Methods.search, params, mine.token);
            if (mine.token.isCancellationRequested) {
                return;
            }
            qp.items = result.results.map((hit) => ({ ...searchItem(hit), alwaysShow: true, hit }));
            qp.title = searchTitle(result, languageOnly ? languageId : undefined);
        } catch (e) {
            if (mine.token.isCancellationRequested) {
                return;
            }
            log.warn(`search ${JSON.stringify(query)}: ${errorMessage(e)}`);
            qp.items = [];
            qp.title = `Spyglass · ${errorMessage(e)}`;
        } finally {
            if (inFlight === mine) {
                qp.busy = false;
            }
        }
    };
    const runSoon = debounce((query: string) => void run(query), SEARCH_DEBOUNCE_MS);

    const show = async (hit: SearchHit, preview: boolean): Promise<vscode.TextEditor | undefined> => {
        const seq = ++previewSeq;
        const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(hit.uri));
        const start = new vscode.Position(hit.range.start.line, hit.range.start.character);
        const shown = await vscode.window.showTextDocument(document, {
            preview,
            preserveFocus: preview,
            viewColumn: origin?.column,
            selection: new vscode.Range(start, start),
        });
        if (seq !== previewSeq) {
            return undefined; // the user moved on meanwhile
        }
        shown.revealRange(toRange(hit.range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        shown.setDecorations(highlight, preview ? [spanLines(hit.range)] : []);
        return shown;
    };

    const disposables: vscode.Disposable[] = [
        qp.onDidChangeValue((value) => runSoon(value)),
        qp.onDidChangeActive((items) => {
            const item = items[0];
            if (item) {
                show(item.hit, true).catch((e: unknown) => log.warn(`preview ${item.hit.uri}: ${errorMessage(e)}`));
            }
        }),
        qp.onDidAccept(() => {
            const item = qp.selectedItems[0] ?? qp.activeItems[0];
            if (!item) {
                return;
            }
            accepted = true;
            qp.hide();
            show(item.hit, false).catch((e: unknown) => {
                void vscode.window.showErrorMessage(`Spyglass could not open ${item.hit.path}: ${errorMessage(e)}`);
            });
        }),
        qp.onDidTriggerButton(() => {
            languageOnly = !languageOnly;
            updateButtons();
            runSoon.cancel();
            void run(qp.value);
        }),
        qp.onDidHide(() => {
            runSoon.cancel();
            inFlight?.cancel();
            inFlight?.dispose();
            highlight.dispose();
            for (const d of disposables) {
                d.dispose();
            }
            qp.dispose();
            if (!accepted && origin && previewSeq > 0) {
                previewSeq++;
                void restore(origin);
            }
        }),
    ];

    qp.show();
    if (prefill) {
        qp.value = prefill;
        await run(prefill);
    }
}

/** Back to where the search started, when it was dismissed after previews. */
async function restore(place: Place): Promise<void> {
    const editor = await vscode.window.showTextDocument(place.document, {
        viewColumn: place.column,
        selection: place.selection,
        preview: false,
    });
    if (place.visible) {
        editor.revealRange(place.visible, vscode.TextEditorRevealType.AtTop);
    }
}
