/**
 * The extension's settings, typed, with defaults: resolved from a configuration-like object (VS Code's
 * `WorkspaceConfiguration` for the `spyglass` section, or a plain fake in tests). No `vscode` import, so
 * this module is unit-tested on its own.
 *
 * A value of the wrong type or out of range is reported (`problems`) and its default used; the other
 * values still apply, as the server does with its own settings (docs/lsp.md, "Settings").
 */

/** What VS Code's `WorkspaceConfiguration.inspect` returns: which scopes set a value. */
export interface Inspection<T> {
    defaultValue?: T;
    globalValue?: T;
    workspaceValue?: T;
    workspaceFolderValue?: T;
    defaultLanguageValue?: T;
    globalLanguageValue?: T;
    workspaceLanguageValue?: T;
    workspaceFolderLanguageValue?: T;
}

/** The part of `vscode.WorkspaceConfiguration` settings resolution needs (keys without `spyglass.`). */
export interface ConfigReader {
    get<T>(section: string): T | undefined;
    inspect<T>(section: string): Inspection<T> | undefined;
}

/**
 * The settings sent to `spyglass lsp` as `initializationOptions` (camelCase on the wire).
 *
 * `model`, `exclude` and `threads` are only sent when the user set them: the server keeps the
 * workspace's `pyproject.toml` / `.spyglass.toml` values for settings the client does not send.
 */
export interface ServerSettings {
    /** Embedding model: a local path or a hub name. */
    model?: string;
    /** Extra gitignore-style globs to leave out of the index. */
    exclude?: string[];
    /** The related-code card on hover. */
    hover: boolean;
    /** Most results of `workspace/symbol` (1-500). */
    maxResults: number;
    /** Threads for the embedding model (0-256; 0: one per core). */
    threads?: number;
    /** Where each folder's index lives; empty: `.spyglass` in each folder. */
    indexLocation: string;
}

export interface ExtensionSettings {
    /** `spyglass.interpreter` as written (empty: discover one; see common/python.ts). */
    interpreter: string;
    server: ServerSettings;
}

export const DEFAULTS = {
    interpreter: '',
    model: '',
    exclude: [] as string[],
    hover: true,
    maxResults: 50,
    threads: 0,
    indexLocation: '',
} as const;

/** The keys under `spyglass.` whose change restarts the server (`trace.server` is the client's own). */
export const RESTART_KEYS = ['interpreter', 'model', 'exclude', 'hover', 'maxResults', 'threads', 'indexLocation'] as const;

/** The most results `spyglass/search` returns (its `k` is 1-200). */
export const SEARCH_MAX_K = 200;

export interface Resolved {
    settings: ExtensionSettings;
    /** One sentence per bad value, saying which default was used instead. */
    problems: string[];
}

function isSet<T>(config: ConfigReader, key: string): boolean {
    const i = config.inspect<T>(key);
    if (!i) {
        return false;
    }
    return [
        i.globalValue,
        i.workspaceValue,
        i.workspaceFolderValue,
        i.globalLanguageValue,
        i.workspaceLanguageValue,
        i.workspaceFolderLanguageValue,
    ].some((v) => v !== undefined);
}

function describe(value: unknown): string {
    return JSON.stringify(value) ?? String(value);
}

/** Resolve every setting from `config` (the `spyglass` section), with defaults and problems. */
export function resolveSettings(config: ConfigReader): Resolved {
    const problems: string[] = [];
    const bad = (key: string, value: unknown, want: string, fallback: unknown): void => {
        problems.push(
            `Spyglass setting spyglass.${key}=${describe(value)} is invalid (${want}); using ${describe(fallback)}`,
        );
    };

    const str = (key: 'interpreter' | 'model' | 'indexLocation'): string => {
        const v = config.get<unknown>(key);
        if (v === undefined || v === null) {
            return DEFAULTS[key];
        }
        if (typeof v !== 'string') {
            bad(key, v, 'expected a string', DEFAULTS[key]);
            return DEFAULTS[key];
        }
        return v.trim();
    };

    const int = (key: 'maxResults' | 'threads', min: number, max: number): number => {
        const v = config.get<unknown>(key);
        if (v === undefined || v === null) {
            return DEFAULTS[key];
        }
        if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
            bad(key, v, `expected an integer from ${min} to ${max}`, DEFAULTS[key]);
            return DEFAULTS[key];
        }
        return v;
    };

    const hoverValue = config.get<unknown>('hover');
    let hover: boolean = DEFAULTS.hover;
    if (typeof hoverValue === 'boolean') {
        hover = hoverValue;
    } else if (hoverValue !== undefined && hoverValue !== null) {
        bad('hover', hoverValue, 'expected true or false', DEFAULTS.hover);
    }

    const server: ServerSettings = {
        hover,
        maxResults: int('maxResults', 1, 500),
        indexLocation: str('indexLocation'),
    };

    const model = str('model');
    if (model && isSet(config, 'model')) {
        server.model = model;
    }

    if (isSet(config, 'exclude')) {
        const v = config.get<unknown>('exclude');
        if (Array.isArray(v)) {
            const globs = v.filter((g): g is string => typeof g === 'string' && g.trim() !== '');
            if (globs.length !== v.length) {
                bad('exclude', v, 'expected a list of non-empty glob strings', globs);
            }
            server.exclude = globs.map((g) => g.trim());
        } else if (v !== undefined && v !== null) {
            bad('exclude', v, 'expected a list of glob strings', DEFAULTS.exclude);
        }
    }

    if (isSet(config, 'threads')) {
        server.threads = int('threads', 0, 256);
    }

    return { settings: { interpreter: str('interpreter'), server }, problems };
}

/** Whether a configuration change (VS Code's `ConfigurationChangeEvent`) needs a server restart. */
export function changeRestartsServer(event: { affectsConfiguration(section: string): boolean }): boolean {
    return RESTART_KEYS.some((key) => event.affectsConfiguration(`spyglass.${key}`));
}

/** `k` for `spyglass/search`: the `maxResults` setting, within what the request accepts. */
export function searchLimit(settings: Pick<ServerSettings, 'maxResults'>): number {
    return Math.max(1, Math.min(settings.maxResults, SEARCH_MAX_K));
}
