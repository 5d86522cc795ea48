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
 * Tells VS Code about `quorum mcp` (the bundled `dist/cli.js mcp`) so that agent mode and other MCP clients in
 * VS Code can use it. The gateway's base URL comes from the settings; the API key from SecretStorage is added only
 * when VS Code starts the server (`resolveMcpServerDefinition`), in its environment, never in its arguments.
 *
 * VS Code learns that the definitions changed (the base URL) from the provider activation registers
 * (`src/vscode/extension.ts`), which fires its event on every change of Quorum's settings.
 */
export class QuorumMcpServers {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly version: string,
    private readonly settings: SettingsService,
    private readonly keys: ApiKeyStore,
  ) {}

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const node = nodeCommand();
    const cli = vscode.Uri.joinPath(this.extensionUri, 'dist', 'cli.js').fsPath;
    return [new vscode.McpStdioServerDefinition('Quorum', node.command, [cli, 'mcp'], { ...node.env, QUORUM_BASE_URL: this.settings.current.gateway.baseUrl }, this.version)];
  }

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const key = await this.keys.get(this.settings.current.gateway.baseUrl);
    if (key) server.env = { ...server.env, QUORUM_API_KEY: key };
    return server;
  }
}
