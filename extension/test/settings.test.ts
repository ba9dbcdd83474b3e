import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
    DEFAULTS,
    RESTART_KEYS,
    changeRestartsServer,
    resolveSettings,
    searchLimit,
    type ConfigReader,
    type Inspection,
} from '../src/common/settings';

/** A `WorkspaceConfiguration` stand-in: `user` holds what the user set (global scope). */
function config(user: Record<string, unknown> = {}, workspace: Record<string, unknown> = {}): ConfigReader {
    const defaults: Record<string, unknown> = { ...DEFAULTS };
    return {
        get<T>(key: string): T | undefined {
            const value = key in workspace ? workspace[key] : key in user ? user[key] : defaults[key];
            return value as T | undefined;
        },
        inspect<T>(key: string): Inspection<T> | undefined {
            return {
                defaultValue: defaults[key] as T | undefined,
                globalValue: user[key] as T | undefined,
                workspaceValue: workspace[key] as T | undefined,
            };
        },
    };
}

describe('resolveSettings', () => {
    test('defaults: engine settings left to the workspace config files', () => {
        const { settings, problems } = resolveSettings(config());
        assert.deepEqual(problems, []);
        assert.equal(settings.interpreter, '');
        assert.deepEqual(settings.server, { hover: true, maxResults: 50, indexLocation: '' });
        assert.equal('model' in settings.server, false);
        assert.equal('exclude' in settings.server, false);
        assert.equal('threads' in settings.server, false);
    });

    test('values the user set are sent, trimmed', () => {
        const { settings, problems } = resolveSettings(
            config({
                interpreter: ' ~/.venvs/spy/bin/python ',
                model: ' /models/minilm ',
                exclude: ['docs/generated/**', ' *.min.js '],
                hover: false,
                maxResults: 120,
                threads: 2,
                indexLocation: '/tmp/idx',
            }),
        );
        assert.deepEqual(problems, []);
        assert.equal(settings.interpreter, '~/.venvs/spy/bin/python');
        assert.deepEqual(settings.server, {
            model: '/models/minilm',
            exclude: ['docs/generated/**', '*.min.js'],
            hover: false,
            maxResults: 120,
            threads: 2,
            indexLocation: '/tmp/idx',
        });
    });

    test('a workspace value counts as set; an empty model is not sent', () => {
        const { settings } = resolveSettings(config({ model: '' }, { exclude: [], threads: 0 }));
        assert.equal('model' in settings.server, false);
        assert.deepEqual(settings.server.exclude, []);
        assert.equal(settings.server.threads, 0);
    });

    const bad: [string, Record<string, unknown>, string, unknown][] = [
        ['maxResults too big', { maxResults: 501 }, 'maxResults', 50],
        ['maxResults zero', { maxResults: 0 }, 'maxResults', 50],
        ['maxResults not an integer', { maxResults: 2.5 }, 'maxResults', 50],
        ['maxResults a string', { maxResults: '10' }, 'maxResults', 50],
        ['hover a string', { hover: 'yes' }, 'hover', true],
        ['indexLocation a number', { indexLocation: 3 }, 'indexLocation', ''],
    ];
    for (const [name, user, key, fallback] of bad) {
        test(`bad value: ${name} -> default and one problem`, () => {
            const { settings, problems } = resolveSettings(config(user));
            assert.equal(problems.length, 1);
            assert.match(problems[0] ?? '', new RegExp(`spyglass\\.${key}=.*invalid.*using`));
            assert.equal((settings.server as unknown as Record<string, unknown>)[key], fallback);
        });
    }

    test('bad threads and exclude entries', () => {
        const { settings, problems } = resolveSettings(config({ threads: -1, exclude: ['a/**', 3, ''] }));
        assert.equal(problems.length, 2);
        assert.equal(settings.server.threads, 0);
        assert.deepEqual(settings.server.exclude, ['a/**']);
    });

    test('exclude that is not a list is reported and not sent', () => {
        const { settings, problems } = resolveSettings(config({ exclude: 'docs/**' }));
        assert.equal(problems.length, 1);
        assert.equal('exclude' in settings.server, false);
    });

    test('a bad interpreter type falls back to discovery', () => {
        const { settings, problems } = resolveSettings(config({ interpreter: ['python3'] }));
        assert.equal(settings.interpreter, '');
        assert.equal(problems.length, 1);
    });
});

describe('changeRestartsServer', () => {
    const event = (sections: string[]) => ({
        affectsConfiguration: (s: string) => sections.some((x) => x === s || x.startsWith(`${s}.`)),
    });
    for (const key of RESTART_KEYS) {
        test(`spyglass.${key} restarts`, () => {
            assert.equal(changeRestartsServer(event([`spyglass.${key}`])), true);
        });
    }
    test('trace and other sections do not', () => {
        assert.equal(changeRestartsServer(event(['spyglass.trace.server'])), false);
        assert.equal(changeRestartsServer(event(['editor.fontSize'])), false);
    });
});

test('searchLimit stays within spyglass/search k (1-200)', () => {
    assert.equal(searchLimit({ maxResults: 50 }), 50);
    assert.equal(searchLimit({ maxResults: 500 }), 200);
    assert.equal(searchLimit({ maxResults: 0 }), 1);
});
