import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../apiKeys';
import type { SettingsService } from '../settings';

/** A `node` executable on PATH, if there is one. */
function nodeOnPath(env: NodeJS.ProcessEnv): string | undefined {
  const names = process.platform === 'win32' ? ['node.exe'] : ['node'];
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '')) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * How to run Node for the server. The extension host's own executable when it is Node (code-server, VS Code
 * Server, remote hosts); in desktop VS Code it is Electron, so a `node` on PATH is used, and without one the
 * Electron binary itself as Node (`ELECTRON_RUN_AS_NODE=1`, as VS Code runs its own Node scripts).
 */
function nodeCommand(versions: NodeJS.ProcessVersions = process.versions, execPath = process.execPath, env = process.env): { command: string; env: Record<string, string> } {
  if (!versions.electron) return { command: execPath, env: {} };
  const node = nodeOnPath(env);
  return node ? { command: node, env: {} } : { command: execPath, env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/**
 * `quorum mcp` (the bundled `dist/cli.js mcp`) as VS Code should run it, so that agent mode and other MCP clients in
 * VS Code can use it. Nothing here depends on the settings: VS Code asks for the definitions as the window starts,
 * and answering needs neither the settings nor the review engine (issue 20). What does depend on them is added when
 * VS Code starts the server (`McpServerSettings`).
 */
export function mcpServerDefinitions(extensionUri: vscode.Uri, version: string): vscode.McpStdioServerDefinition[] {
  const node = nodeCommand();
  const cli = vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath;
  return [new vscode.McpStdioServerDefinition('Quorum', node.command, [cli, 'mcp'], { ...node.env }, version)];
}

/**
 * What the server gets when VS Code starts it (`resolveMcpServerDefinition`): the gateway's base URL from the
 * settings and the API key from SecretStorage, in its environment, never in its arguments. A server already running
 * keeps the values it started with until VS Code starts it again.
 */
export class McpServerSettings {
  constructor(
    private readonly settings: SettingsService,
    private readonly keys: ApiKeyStore,
  ) {}

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const baseUrl = this.settings.current.gateway.baseUrl;
    const key = await this.keys.get(baseUrl);
    server.env = { ...server.env, QUORUM_BASE_URL: baseUrl, ...(key ? { QUORUM_API_KEY: key } : {}) };
    return server;
  }
}
