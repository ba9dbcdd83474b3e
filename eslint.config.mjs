// ESLint (flat config) for the VS Code extension: typescript-eslint's type-checked rules on extension/,
// plain recommended rules on the build scripts. `npm run check` runs it after `tsc --noEmit`.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
    globalIgnores(['dist/', 'out/', 'node_modules/', '**/*.d.ts']),
    {
        files: ['extension/**/*.ts'],
        extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked, tseslint.configs.stylisticTypeChecked],
        languageOptions: {
            parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
        },
        rules: {
            '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
            // node:test's test() and describe() return promises the runner awaits itself.
            '@typescript-eslint/no-floating-promises': [
                'error',
                { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
            ],
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
            '@typescript-eslint/switch-exhaustiveness-check': 'error',
            eqeqeq: ['error', 'always'],
            curly: 'error',
            'no-console': 'error',
        },
    },
    {
        files: ['*.mjs'],
        extends: [js.configs.recommended],
        languageOptions: {
            globals: { console: 'readonly', process: 'readonly' },
        },
    },
);
