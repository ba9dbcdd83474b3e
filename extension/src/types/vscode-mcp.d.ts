/**
 * VS Code's MCP server API (finalized in 1.101), declared here because the extension supports VS Code
 * 1.91+ and so builds against @types/vscode 1.91. At run time these may be missing: mcp.ts checks first.
 * Copied from vscode.d.ts 1.101 (the parts used).
 */

declare module 'vscode' {
    export class McpStdioServerDefinition {
        readonly label: string;
        cwd?: Uri;
        command: string;
        args: string[];
        env: Record<string, string | number | null>;
        version?: string;
        constructor(
            label: string,
            command: string,
            args?: string[],
            env?: Record<string, string | number | null>,
            version?: string,
        );
    }

    export type McpServerDefinition = McpStdioServerDefinition;

    export interface McpServerDefinitionProvider<T extends McpServerDefinition = McpServerDefinition> {
        readonly onDidChangeMcpServerDefinitions?: Event<void>;
        provideMcpServerDefinitions(token: CancellationToken): ProviderResult<T[]>;
        resolveMcpServerDefinition?(server: T, token: CancellationToken): ProviderResult<T>;
    }

    export namespace lm {
        /** Undefined before VS Code 1.101. */
        export const registerMcpServerDefinitionProvider:
            | ((id: string, provider: McpServerDefinitionProvider) => Disposable)
            | undefined;
    }
}
