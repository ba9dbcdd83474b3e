/**
 * Which Python runs the server, and whether it can: discovery order, the `import spyglass` check and the
 * install command. No `vscode` import (the VS Code side, which asks the Python extension and shows the
 * notification, is common/pythonHost.ts), so the decisions are unit-tested on their own.
 *
 * Order: the `spyglass.interpreter` setting (ignored in an untrusted workspace), then the Python
 * extension's active interpreter (in an untrusted workspace only if it lives outside the workspace: a
 * virtualenv inside it is the workspace's code), then `python3` on the PATH (`python` on Windows).
 */

import { execFile } from 'node:child_process';
import * as path from 'node:path';

export const DISCOVERY_ORDER = ['setting', 'pythonExtension', 'path'] as const;
export type InterpreterSource = (typeof DISCOVERY_ORDER)[number];

export interface Interpreter {
    /** The executable: an absolute path, or a bare name looked up on the PATH. */
    command: string;
    source: InterpreterSource;
}

export interface DiscoveryContext {
    /** `spyglass.interpreter` as written; empty when unset. */
    setting: string;
    trusted: boolean;
    /** The workspace folders' file-system paths; the first one anchors relative settings. */
    folders: string[];
    platform: NodeJS.Platform;
    home: string;
    /** The Python extension's active interpreter; undefined when that extension is not installed. */
    pythonExtension: () => Promise<string | undefined>;
}

export interface Discovery {
    interpreter: Interpreter;
    /** Why earlier candidates were passed over, for the log. */
    notes: string[];
}

/** The interpreter to try when nothing else names one. */
export function defaultPython(platform: NodeJS.Platform): string {
    return platform === 'win32' ? 'python' : 'python3';
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
    return platform === 'win32' ? path.win32 : path.posix;
}

/**
 * Expand `~`, `${userHome}` and `${workspaceFolder}` in an interpreter setting; a relative path with a
 * separator (`.venv/bin/python`) is taken from the first workspace folder; a bare name stays a PATH lookup.
 */
export function expandInterpreter(
    value: string,
    ctx: Pick<DiscoveryContext, 'folders' | 'home' | 'platform'>,
): string {
    const p = pathApi(ctx.platform);
    const folder = ctx.folders[0];
    let out = value.trim();
    out = out.replace(/\$\{userHome\}/g, ctx.home);
    if (folder !== undefined) {
        out = out.replace(/\$\{workspaceFolder\}/g, folder);
    }
    if (out === '~' || out.startsWith('~/') || (ctx.platform === 'win32' && out.startsWith('~\\'))) {
        out = ctx.home + out.slice(1);
    }
    const hasSeparator = out.includes('/') || (ctx.platform === 'win32' && out.includes('\\'));
    if (hasSeparator && !p.isAbsolute(out) && folder !== undefined) {
        out = p.join(folder, out);
    }
    return out;
}

/** Whether `file` lies inside `folder` (or is it). */
export function isInside(file: string, folder: string, platform: NodeJS.Platform): boolean {
    const p = pathApi(platform);
    let rel = p.relative(folder, file);
    if (platform === 'win32') {
        rel = p.relative(folder.toLowerCase(), file.toLowerCase());
    }
    return rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
}

/** Choose the interpreter, in `DISCOVERY_ORDER`; never fails (the last resort is a PATH lookup). */
export async function discoverInterpreter(ctx: DiscoveryContext): Promise<Discovery> {
    const notes: string[] = [];
    if (ctx.setting.trim()) {
        if (ctx.trusted) {
            return { interpreter: { command: expandInterpreter(ctx.setting, ctx), source: 'setting' }, notes };
        }
        notes.push(`spyglass.interpreter (${ctx.setting}) is ignored in an untrusted workspace`);
    }
    let fromExtension: string | undefined;
    try {
        fromExtension = await ctx.pythonExtension();
    } catch (e) {
        notes.push(`the Python extension did not name an interpreter: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (fromExtension) {
        const inWorkspace = ctx.folders.some((f) => isInside(fromExtension, f, ctx.platform));
        if (ctx.trusted || !inWorkspace) {
            return { interpreter: { command: fromExtension, source: 'pythonExtension' }, notes };
        }
        notes.push(`the Python extension's interpreter ${fromExtension} is inside the untrusted workspace: not used`);
    }
    return { interpreter: { command: defaultPython(ctx.platform), source: 'path' }, notes };
}

/** What running `CHECK_SCRIPT` with an interpreter gave. */
export interface ProbeResult {
    /** The process's exit code; null when it did not start or was killed. */
    exitCode: number | null;
    /** Node's error code when the process could not run (`ENOENT`, `EACCES`) or timed out (`ETIMEDOUT`). */
    errorCode?: string;
    stdout: string;
    stderr: string;
}

export type ImportOutcome =
    | { kind: 'ready'; version: string }
    | { kind: 'noPython'; message: string }
    | { kind: 'missingPackage' }
    | { kind: 'broken'; message: string };

/** Imports the package and prints its version; `import spyglass` is cheap (no torch, no models). */
export const CHECK_SCRIPT = "import sys, spyglass; sys.stdout.write(getattr(spyglass, '__version__', 'unknown'))";

/**
 * What the install command installs comes from the `spyglass.installSource` setting (a Spyglass checkout,
 * a wheel, or a requirement your index serves): never a guessed package name, which on a public index
 * could be someone else's package.
 */

/** Read a probe's result: ready, no such Python, the package missing, or something else wrong. */
export function importOutcome(r: ProbeResult): ImportOutcome {
    if (r.errorCode === 'ENOENT' || r.errorCode === 'EACCES' || r.errorCode === 'ENOTDIR') {
        return { kind: 'noPython', message: r.errorCode === 'ENOENT' ? 'not found' : 'not executable' };
    }
    if (r.errorCode === 'ETIMEDOUT') {
        return { kind: 'broken', message: '`import spyglass` did not finish in time' };
    }
    if (r.exitCode === 0) {
        return { kind: 'ready', version: r.stdout.trim() || 'unknown' };
    }
    if (/No module named '?spyglass'?(\s|$)/m.test(r.stderr)) {
        return { kind: 'missingPackage' };
    }
    const lines = r.stderr.trim().split(/\r?\n/).filter(Boolean);
    const last = lines.at(-1) ?? (r.errorCode ? `could not run (${r.errorCode})` : `exit code ${String(r.exitCode)}`);
    return { kind: 'broken', message: last };
}

/** Run a program to completion and collect its output; resolves in every case (never rejects). */
export function run(
    command: string,
    args: string[],
    options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ProbeResult> {
    return new Promise((resolve) => {
        execFile(
            command,
            args,
            { cwd: options.cwd, timeout: options.timeoutMs ?? 30_000, windowsHide: true, encoding: 'utf8' },
            (error, stdout, stderr) => {
                if (!error) {
                    resolve({ exitCode: 0, stdout, stderr });
                    return;
                }
                const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
                const errorCode = e.killed ? 'ETIMEDOUT' : typeof e.code === 'string' ? e.code : undefined;
                const exitCode = typeof e.code === 'number' ? e.code : null;
                resolve({ exitCode, errorCode, stdout, stderr });
            },
        );
    });
}

/** Run `CHECK_SCRIPT` with `python`. */
export function probeSpyglass(python: string, options: { cwd?: string; timeoutMs?: number } = {}): Promise<ProbeResult> {
    return run(python, ['-c', CHECK_SCRIPT], options);
}

/** The install command's arguments after the interpreter. */
export function installArgs(source: string): string[] {
    return ['-m', 'pip', 'install', source];
}

/** Quote one word for a terminal: POSIX shells, or PowerShell on Windows (VS Code's default there). */
export function quoteArg(arg: string, platform: NodeJS.Platform): string {
    if (/^[\w@%+=:,./\\-]+$/.test(arg)) {
        return arg;
    }
    if (platform === 'win32') {
        return `'${arg.replace(/'/g, "''")}'`;
    }
    return `'${arg.replace(/'/g, `'"'"'`)}'`;
}

/** A command line to show and to type into a terminal (PowerShell needs `&` before a quoted program). */
export function commandLine(command: string, args: string[], platform: NodeJS.Platform): string {
    const program = quoteArg(command, platform);
    const prefix = platform === 'win32' && program !== command ? '& ' : '';
    return prefix + [program, ...args.map((a) => quoteArg(a, platform))].join(' ');
}

/** `<python> -m pip install <source>`, quoted for the platform's terminal. */
export function installCommandLine(python: string, source: string, platform: NodeJS.Platform): string {
    return commandLine(python, installArgs(source), platform);
}

/** The command that starts the language server (vscode-languageclient appends `--stdio`). */
export function serverArgs(): string[] {
    return ['-m', 'spyglass', 'lsp'];
}

/** The command that starts the MCP server for one workspace folder. */
export function mcpServerArgs(folder: string): string[] {
    return ['-m', 'spyglass', 'mcp', folder];
}

export const MCP_CLIENTS = [
    { id: 'claude', label: 'Claude Code', file: '.mcp.json' },
    { id: 'cursor', label: 'Cursor', file: '.cursor/mcp.json' },
    { id: 'continue', label: 'Continue', file: '.continue/mcpServers/spyglass.yaml' },
] as const;
export type McpClient = (typeof MCP_CLIENTS)[number]['id'];

/** `spyglass mcp-config <client> --write --root <folder>`, after the interpreter. */
export function mcpConfigArgs(client: McpClient, folder: string): string[] {
    return ['-m', 'spyglass', 'mcp-config', client, '--write', '--root', folder];
}
