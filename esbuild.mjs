// Build the extension (and its unit tests) with esbuild.
//   node esbuild.mjs               dist/extension.js, with a source map
//   node esbuild.mjs --production  dist/extension.js, minified (what `vsce package` ships)
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --tests       out/test/*.test.js, one bundle per test file, for `node --test`
// The extension bundle keeps `vscode` external (VS Code provides it). The test bundles do not: a module
// under test that imports `vscode` fails the build, which keeps the tested modules pure.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const tests = args.has('--tests');

/** Report errors in the problem-matcher format VS Code's `$esbuild-watch` understands. */
const problems = {
    name: 'problems',
    setup(build) {
        build.onEnd((result) => {
            for (const { text, location } of result.errors) {
                console.error(`✘ [ERROR] ${text}`);
                if (location) {
                    console.error(`    ${location.file}:${location.line}:${location.column}:`);
                }
            }
        });
    },
};

const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    plugins: [problems],
};

let options;
if (tests) {
    const dir = 'extension/test';
    rmSync('out/test', { recursive: true, force: true });
    options = {
        ...common,
        entryPoints: readdirSync(dir)
            .filter((f) => f.endsWith('.test.ts'))
            .map((f) => path.join(dir, f)),
        outdir: 'out/test',
        sourcemap: 'inline',
    };
} else {
    options = {
        ...common,
        entryPoints: ['extension/src/extension.ts'],
        outfile: 'dist/extension.js',
        external: ['vscode'],
        minify: production,
        sourcemap: !production,
        sourcesContent: false,
    };
    rmSync('dist', { recursive: true, force: true });
}

if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
} else {
    await esbuild.build(options);
}
