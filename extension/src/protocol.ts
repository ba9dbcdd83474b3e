/**
 * The wire contract with `spyglass lsp`: Spyglass's own requests and notifications, as TypeScript types.
 *
 * Hand-written from `shared/lsp.schema.json` (the server's tests validate its answers against that schema).
 * `test/protocol.test.ts` compares the required fields and enums below with the schema, so the two cannot
 * drift apart silently. Lines and characters are 0-based as in LSP; a span's range runs from the start of
 * its first line to the start of the line after its last.
 */

export const Methods = {
    search: 'spyglass/search',
    related: 'spyglass/related',
    span: 'spyglass/span',
    status: 'spyglass/status',
    reindex: 'spyglass/reindex',
    statusChanged: 'spyglass/statusChanged',
} as const;

export interface Position {
    line: number;
    character: number;
}

export interface Range {
    start: Position;
    end: Position;
}

export const KINDS = [
    'function',
    'method',
    'class',
    'interface',
    'struct',
    'enum',
    'type',
    'module',
    'section',
    'window',
] as const;
export type Kind = (typeof KINDS)[number];

export const FOLDER_STATES = ['starting', 'indexing', 'embedding', 'idle', 'following', 'error'] as const;
export type FolderState = (typeof FOLDER_STATES)[number];

export const ROLES = ['unknown', 'owner', 'follower'] as const;
export type Role = (typeof ROLES)[number];

export const SEARCH_MODES = ['hybrid', 'lexical'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const RELATIONS = ['uses', 'similar', 'documents'] as const;
export type Relation = (typeof RELATIONS)[number];

export const SPAN_STATUSES = ['current', 'moved', 'stale', 'missing'] as const;
export type SpanStatus = (typeof SPAN_STATUSES)[number];

/** A span without its text: what pickers, hovers and peeks show. */
export interface Span {
    /** Stable span ID: `PATH:START-END#HASH` (1-based lines). */
    id: string;
    uri: string;
    /** POSIX path relative to the folder's root. */
    path: string;
    range: Range;
    kind: Kind;
    name: string;
    /** Qualified name, e.g. `Cart.total_price`. */
    symbol: string;
    signature: string;
    container: string | null;
    language: string;
}

export interface PendingWork {
    buffers: number;
    files: number;
    fullSync: boolean;
}

/** One workspace folder's index: `spyglass/status`, `spyglass/statusChanged` and search answers. */
export interface FolderStatus {
    root: string;
    uri?: string;
    files?: number;
    spans?: number;
    embedded?: number;
    embeddedFraction?: number;
    pendingEmbeddings?: number;
    model?: string | null;
    /** ISO 8601, UTC. */
    lastUpdate?: string | null;
    state?: FolderState;
    /** `follower`: another process writes this index. */
    role?: Role;
    error?: string | null;
    /** The user cancelled the background work; `spyglass/reindex` resumes it. */
    paused?: boolean;
    /** False while the model loads: searches are lexical meanwhile. */
    modelLoaded?: boolean;
    pending?: PendingWork;
    /** In search answers: whether vectors took part. */
    mode?: SearchMode;
    /** In search answers: why the search was lexical only. */
    note?: string;
}

export interface SearchFilters {
    globs?: string[];
    languages?: string[];
    kinds?: Kind[];
}

export interface SearchParams {
    query: string;
    /** 1-200, default 10. */
    k?: number;
    filters?: SearchFilters;
    /** 50-100,000: bounds the snippets of one answer. */
    maxTokens?: number | null;
    /** fast (names and full text), balanced (hybrid; the default) or deep (wider, second pass). */
    tier?: SearchTier | null;
}

export type SearchTier = 'fast' | 'balanced' | 'deep';

export interface SearchHit {
    id: string;
    uri: string;
    path: string;
    range: Range;
    kind: Kind;
    symbol: string;
    language: string;
    score: number;
    /** The span's most relevant lines. */
    snippet: string;
    /** `matched`: the signals that made the score, strongest first. */
    why: { signals: Record<string, number>; matched?: string[]; terms: string[] };
    fileMatches: number;
}

export interface SearchResult {
    query: string;
    results: SearchHit[];
    truncated: boolean;
    folders: FolderStatus[];
    /** The tier that ran and what the search cost. */
    tier: SearchTier;
    elapsedMs: number;
}

export interface RelatedParams {
    textDocument: { uri: string };
    position: Position;
    /** 1-50, default 3. */
    k?: number;
}

export interface RelatedSpan extends Span {
    relation: Relation;
    score: number;
    /** One line of the related span: for `uses`, the line where the symbol is used. */
    preview: string;
    /** The 0-based line of the file that `preview` is. */
    previewLine: number;
}

export interface RelatedResult {
    span: Span | null;
    related: RelatedSpan[];
}

export interface SpanParams {
    id: string;
}

export interface SpanResult {
    id: string;
    status: SpanStatus;
    uri: string;
    path: string;
    range: Range;
    currentId: string | null;
    kind: Kind | null;
    symbol: string | null;
    text: string;
    message: string;
}

export interface StatusResult {
    folders: FolderStatus[];
}

export interface ReindexParams {
    /** File URIs or paths; absent: reconcile every folder with the disk. */
    paths?: string[] | null;
}

/** Counts of what changed; the server may add more keys. */
export interface ReindexReport {
    seen?: number;
    added?: number;
    changed?: number;
    unchanged?: number;
    deleted?: number;
    parsed?: number;
    cancelled?: boolean;
    [key: string]: unknown;
}

export interface ReindexFolder {
    root: string;
    ok: boolean;
    report?: ReindexReport;
    error?: string;
}

export interface ReindexResult {
    folders: ReindexFolder[];
}

/** The `spyglass/statusChanged` notification: one folder's status. */
export type StatusChanged = FolderStatus;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * The required fields of each schema definition, as the types above declare them. The compiler checks
 * that every name is a required key of its type; the unit test checks the lists against the schema.
 */
export const REQUIRED = {
    Position: ['line', 'character'],
    Range: ['start', 'end'],
    Span: ['id', 'uri', 'path', 'range', 'kind', 'name', 'symbol', 'signature', 'container', 'language'],
    FolderStatus: ['root'],
    SearchParams: ['query'],
    SearchHit: [
        'id',
        'uri',
        'path',
        'range',
        'kind',
        'symbol',
        'language',
        'score',
        'snippet',
        'why',
        'fileMatches',
    ],
    SearchResult: ['query', 'results', 'truncated', 'folders', 'tier', 'elapsedMs'],
    RelatedParams: ['textDocument', 'position'],
    RelatedResult: ['span', 'related'],
    SpanParams: ['id'],
    SpanResult: ['id', 'status', 'uri', 'path', 'range', 'currentId', 'kind', 'symbol', 'text', 'message'],
    StatusResult: ['folders'],
    ReindexResult: ['folders'],
} as const satisfies {
    Position: readonly RequiredKeys<Position>[];
    Range: readonly RequiredKeys<Range>[];
    Span: readonly RequiredKeys<Span>[];
    FolderStatus: readonly RequiredKeys<FolderStatus>[];
    SearchParams: readonly RequiredKeys<SearchParams>[];
    SearchHit: readonly RequiredKeys<SearchHit>[];
    SearchResult: readonly RequiredKeys<SearchResult>[];
    RelatedParams: readonly RequiredKeys<RelatedParams>[];
    RelatedResult: readonly RequiredKeys<RelatedResult>[];
    SpanParams: readonly RequiredKeys<SpanParams>[];
    SpanResult: readonly RequiredKeys<SpanResult>[];
    StatusResult: readonly RequiredKeys<StatusResult>[];
    ReindexResult: readonly RequiredKeys<ReindexResult>[];
};

/** Every property each definition declares (required or not), for the same comparison with the schema. */
export const PROPERTIES = {
    FolderStatus: [
        'root',
        'uri',
        'files',
        'spans',
        'embedded',
        'embeddedFraction',
        'pendingEmbeddings',
        'model',
        'lastUpdate',
        'state',
        'role',
        'error',
        'paused',
        'modelLoaded',
        'pending',
        'mode',
        'note',
    ],
    SearchParams: ['query', 'k', 'filters', 'maxTokens', 'tier'],
    RelatedParams: ['textDocument', 'position', 'k'],
    ReindexParams: ['paths'],
} as const satisfies {
    FolderStatus: readonly (keyof FolderStatus)[];
    SearchParams: readonly (keyof SearchParams)[];
    RelatedParams: readonly (keyof RelatedParams)[];
    ReindexParams: readonly (keyof ReindexParams)[];
};
