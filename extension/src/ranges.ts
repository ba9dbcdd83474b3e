/** The server's 0-based ranges as VS Code ranges. A span's range ends at the start of the line after it. */

import * as vscode from 'vscode';

import type { Range as WireRange } from './protocol';

export function toRange(range: WireRange): vscode.Range {
    return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** A span's lines, for a whole-line highlight (without the line after it). */
export function spanLines(range: WireRange): vscode.Range {
    const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
    return new vscode.Range(range.start.line, 0, last, 0);
}
