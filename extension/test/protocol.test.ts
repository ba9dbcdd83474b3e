// The hand-written types in src/protocol.ts against the wire contract, shared/lsp.schema.json.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import {
    FOLDER_STATES,
    KINDS,
    Methods,
    PROPERTIES,
    RELATIONS,
    REQUIRED,
    ROLES,
    SEARCH_MODES,
    SPAN_STATUSES,
} from '../src/protocol';

interface SchemaDef {
    required?: string[];
    properties?: Record<string, { enum?: string[] }>;
    enum?: string[];
    allOf?: SchemaDef[];
}

// The bundle runs from out/test/: the repository root is two levels up.
const schemaPath = path.resolve(__dirname, '..', '..', 'shared', 'lsp.schema.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as { $defs: Record<string, SchemaDef> };
const defs = schema.$defs;

function def(name: string): SchemaDef {
    const d = defs[name];
    assert.ok(d, `the schema has no $defs.${name}`);
    return d;
}

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('protocol.ts matches shared/lsp.schema.json', () => {
    for (const [name, fields] of Object.entries(REQUIRED)) {
        test(`${name}: required fields`, () => {
            assert.deepEqual(sorted(fields), sorted(def(name).required ?? []));
        });
    }

    for (const [name, fields] of Object.entries(PROPERTIES)) {
        test(`${name}: every property`, () => {
            assert.deepEqual(sorted(fields), sorted(Object.keys(def(name).properties ?? {})));
        });
    }

    test('every schema definition is covered', () => {
        const covered = new Set([...Object.keys(REQUIRED), ...Object.keys(PROPERTIES)]);
        // Kind is an enum (KINDS); RelatedSpan is Span plus three fields; StatusChanged is FolderStatus.
        for (const name of ['Kind', 'RelatedSpan', 'StatusChanged']) {
            covered.add(name);
        }
        assert.deepEqual(Object.keys(defs).filter((n) => !covered.has(n)), []);
    });

    test('enums', () => {
        assert.deepEqual(sorted(KINDS), sorted(def('Kind').enum ?? []));
        const folder = def('FolderStatus').properties ?? {};
        assert.deepEqual(sorted(FOLDER_STATES), sorted(folder.state?.enum ?? []));
        assert.deepEqual(sorted(ROLES), sorted(folder.role?.enum ?? []));
        assert.deepEqual(sorted(SEARCH_MODES), sorted(folder.mode?.enum ?? []));
        assert.deepEqual(sorted(SPAN_STATUSES), sorted(def('SpanResult').properties?.status?.enum ?? []));
    });

    test('RelatedSpan is a Span with relation, score, preview and previewLine', () => {
        const [base, extra] = def('RelatedSpan').allOf ?? [];
        assert.deepEqual(base, { $ref: '#/$defs/Span' });
        assert.deepEqual(sorted(extra?.required ?? []), ['preview', 'previewLine', 'relation', 'score']);
        assert.deepEqual(sorted(RELATIONS), sorted(extra?.properties?.relation?.enum ?? []));
    });

    test('method names are the documented ones', () => {
        assert.deepEqual(Object.values(Methods), [
            'spyglass/search',
            'spyglass/related',
            'spyglass/span',
            'spyglass/status',
            'spyglass/reindex',
            'spyglass/statusChanged',
        ]);
    });
});
