import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
    DISCOVERY_ORDER,
    commandLine,
    defaultPython,
    discoverInterpreter,
    expandInterpreter,
    importOutcome,
    installCommandLine,
    isInside,
    mcpConfigArgs,
    mcpServerArgs,
    probeSpyglass,
    run,
    serverArgs,
    type DiscoveryContext,
    type ProbeResult,
} from '../src/common/python';

function ctx(over: Partial<DiscoveryContext> = {}): DiscoveryContext {
    return {
        setting: '',
        trusted: true,
        folders: ['/home/me/project'],
        platform: 'linux',
        home: '/home/me',
        pythonExtension: () => Promise.resolve(undefined),
        ...over,
    };
}

describe('discoverInterpreter: setting, then the Python extension, then PATH', () => {
    test('the order is documented as data', () => {
        assert.deepEqual([...DISCOVERY_ORDER], ['setting', 'pythonExtension', 'path']);
    });

    const cases: [string, Partial<DiscoveryContext>, string, string][] = [
        ['setting wins', { setting: '/opt/py/bin/python', pythonExtension: () => Promise.resolve('/x/python') }, '/opt/py/bin/python', 'setting'],
        ['setting expanded', { setting: '~/.venvs/s/bin/python' }, '/home/me/.venvs/s/bin/python', 'setting'],
        ['setting relative to the folder', { setting: '.venv/bin/python' }, '/home/me/project/.venv/bin/python', 'setting'],
        ['setting ${workspaceFolder}', { setting: '${workspaceFolder}/env/bin/python3' }, '/home/me/project/env/bin/python3', 'setting'],
        ['bare name stays a PATH lookup', { setting: 'python3.12' }, 'python3.12', 'setting'],
        ['no setting: the Python extension', { pythonExtension: () => Promise.resolve('/usr/local/bin/python3.11') }, '/usr/local/bin/python3.11', 'pythonExtension'],
        ['no setting, no extension: python3', {}, 'python3', 'path'],
        ['Windows: python', { platform: 'win32', folders: ['C:\\work\\p'], home: 'C:\\Users\\me' }, 'python', 'path'],
        [
            'untrusted: the setting is ignored',
            { trusted: false, setting: '/opt/evil/python', pythonExtension: () => Promise.resolve('/usr/bin/python3') },
            '/usr/bin/python3',
            'pythonExtension',
        ],
        [
            'untrusted: a venv inside the workspace is not used',
            { trusted: false, pythonExtension: () => Promise.resolve('/home/me/project/.venv/bin/python') },
            'python3',
            'path',
        ],
        [
            'trusted: a venv inside the workspace is used',
            { pythonExtension: () => Promise.resolve('/home/me/project/.venv/bin/python') },
            '/home/me/project/.venv/bin/python',
            'pythonExtension',
        ],
        ['the extension failing falls through', { pythonExtension: () => Promise.reject(new Error('timeout')) }, 'python3', 'path'],
    ];
    for (const [name, over, command, source] of cases) {
        test(name, async () => {
            const { interpreter } = await discoverInterpreter(ctx(over));
            assert.deepEqual(interpreter, { command, source });
        });
    }

    test('the Python extension is not asked when the setting decides', async () => {
        let asked = false;
        await discoverInterpreter(
            ctx({
                setting: '/opt/py',
                pythonExtension: () => {
                    asked = true;
                    return Promise.resolve('/x');
                },
            }),
        );
        assert.equal(asked, false);
    });

    test('what was passed over is noted for the log', async () => {
        const { notes } = await discoverInterpreter(
            ctx({ trusted: false, setting: '/opt/py', pythonExtension: () => Promise.reject(new Error('boom')) }),
        );
        assert.equal(notes.length, 2);
        assert.match(notes[0] ?? '', /ignored in an untrusted workspace/);
        assert.match(notes[1] ?? '', /boom/);
    });
});

describe('paths', () => {
    test('defaultPython', () => {
        assert.equal(defaultPython('linux'), 'python3');
        assert.equal(defaultPython('darwin'), 'python3');
        assert.equal(defaultPython('win32'), 'python');
    });

    test('expandInterpreter on Windows', () => {
        const c = { folders: ['C:\\work\\p'], home: 'C:\\Users\\me', platform: 'win32' as const };
        assert.equal(expandInterpreter('.venv\\Scripts\\python.exe', c), 'C:\\work\\p\\.venv\\Scripts\\python.exe');
        assert.equal(expandInterpreter('~\\py\\python.exe', c), 'C:\\Users\\me\\py\\python.exe');
        assert.equal(expandInterpreter('D:\\py\\python.exe', c), 'D:\\py\\python.exe');
    });

    test('expandInterpreter without a folder keeps relative paths', () => {
        assert.equal(expandInterpreter('.venv/bin/python', { folders: [], home: '/h', platform: 'linux' }), '.venv/bin/python');
    });

    test('isInside', () => {
        assert.equal(isInside('/a/b/.venv/bin/python', '/a/b', 'linux'), true);
        assert.equal(isInside('/a/b', '/a/b', 'linux'), true);
        assert.equal(isInside('/a/bc/python', '/a/b', 'linux'), false);
        assert.equal(isInside('/usr/bin/python3', '/a/b', 'linux'), false);
        assert.equal(isInside('C:\\Work\\P\\.venv\\python.exe', 'c:\\work\\p', 'win32'), true);
    });
});

describe('importOutcome', () => {
    const r = (over: Partial<ProbeResult>): ProbeResult => ({ exitCode: 1, stdout: '', stderr: '', ...over });
    const cases: [string, ProbeResult, string][] = [
        ['ready', r({ exitCode: 0, stdout: '0.1.0' }), 'ready'],
        ['no such program', r({ exitCode: null, errorCode: 'ENOENT' }), 'noPython'],
        ['not executable', r({ exitCode: null, errorCode: 'EACCES' }), 'noPython'],
        [
            'package missing',
            r({ stderr: "Traceback (most recent call last):\n  File \"<string>\", line 1\nModuleNotFoundError: No module named 'spyglass'\n" }),
            'missingPackage',
        ],
        ['a dependency missing is not "package missing"', r({ stderr: "ModuleNotFoundError: No module named 'spyglass_extra'" }), 'broken'],
        ['timed out', r({ exitCode: null, errorCode: 'ETIMEDOUT' }), 'broken'],
        ['syntax error (old Python)', r({ stderr: 'SyntaxError: invalid syntax' }), 'broken'],
    ];
    for (const [name, probe, kind] of cases) {
        test(name, () => assert.equal(importOutcome(probe).kind, kind));
    }
    test('ready carries the version; broken the last stderr line', () => {
        assert.deepEqual(importOutcome(r({ exitCode: 0, stdout: '0.1.0\n' })), { kind: 'ready', version: '0.1.0' });
        assert.deepEqual(importOutcome(r({ stderr: 'a\nImportError: bad\n' })), { kind: 'broken', message: 'ImportError: bad' });
    });
});

describe('running programs', () => {
    test('a missing interpreter is ENOENT, hence noPython', async () => {
        const probe = await probeSpyglass('/nonexistent/bin/python3');
        assert.equal(probe.errorCode, 'ENOENT');
        assert.equal(importOutcome(probe).kind, 'noPython');
    });

    test('exit codes and output are collected', async () => {
        const ok = await run(process.execPath, ['-e', 'process.stdout.write("hi")']);
        assert.deepEqual(ok, { exitCode: 0, stdout: 'hi', stderr: '' });
        const failed = await run(process.execPath, ['-e', 'process.stderr.write("bad\\n"); process.exit(3)']);
        assert.equal(failed.exitCode, 3);
        assert.equal(failed.stderr, 'bad\n');
    });

    test('a hung program is stopped', async () => {
        const probe = await run(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'], { timeoutMs: 200 });
        assert.equal(probe.errorCode, 'ETIMEDOUT');
    });
});

describe('command lines', () => {
    test('the install command', () => {
        assert.equal(
            installCommandLine('/usr/bin/python3', '/src/spyglass', 'linux'),
            '/usr/bin/python3 -m pip install /src/spyglass',
        );
        assert.equal(
            installCommandLine('/home/me/My Envs/bin/python', '/home/me/code/spyglass', 'darwin'),
            "'/home/me/My Envs/bin/python' -m pip install /home/me/code/spyglass",
        );
        assert.equal(
            installCommandLine('C:\\Python312\\python.exe', 'C:\\src\\spyglass', 'win32'),
            'C:\\Python312\\python.exe -m pip install C:\\src\\spyglass',
        );
        assert.equal(
            installCommandLine('C:\\Program Files\\Python\\python.exe', 'spyglass==0.1.0', 'win32'),
            "& 'C:\\Program Files\\Python\\python.exe' -m pip install spyglass==0.1.0",
        );
    });

    test('quotes survive quotes', () => {
        assert.equal(commandLine("/tmp/it's/python", ['-V'], 'linux'), `'/tmp/it'"'"'s/python' -V`);
        assert.equal(commandLine("C:\\it's\\python.exe", [], 'win32'), "& 'C:\\it''s\\python.exe'");
    });

    test('server, MCP and mcp-config arguments', () => {
        assert.deepEqual(serverArgs(), ['-m', 'spyglass', 'lsp']);
        assert.deepEqual(mcpServerArgs('/w/p'), ['-m', 'spyglass', 'mcp', '/w/p']);
        assert.deepEqual(mcpConfigArgs('cursor', '/w/p'), ['-m', 'spyglass', 'mcp-config', 'cursor', '--write', '--root', '/w/p']);
    });
});
