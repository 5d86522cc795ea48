import * as vscode from 'vscode';
import { emptyLedgerTotals } from '../core/cost/totals';
import { Redactor } from '../core/redaction/redactor';
import type { QuorumApi } from './api';
import { ALL_COMMANDS } from './commands';
import { CHAT_PARTICIPANT_ID, COMPARE_VIEW_TYPE, MCP_PROVIDER_ID, PANEL_VIEW_TYPE, REVIEW_TOOL_NAME } from './contributions';
import { CostStatusBar } from './cost/costStatusBar';
import { MonthlySpend } from './cost/monthlySpend';
import type { Engine, StartupParts } from './engine';
import { createQuorumLog, type QuorumLog } from './log';

/**
 * Activation (issue 20: VS Code's activation figure had doubled since the first release) registers what must exist
 * from the start and loads nothing a review needs. The review engine — settings and their schemas, the gateway, the
 * pipeline, the controller, the panels — is `src/vscode/engine.ts`, a file of its own in the build (`dist/engine.js`,
 * esbuild.js: LAZY_MODULES) required by the first command, provider call or API use that needs it. What this file
 * imports is checked by `test/unit/startup.test.ts`.
 */

function loadEngine(context: vscode.ExtensionContext, parts: StartupParts): Engine {
  const createEngine: typeof import('./engine').createEngine = require('./engine').createEngine;
  return createEngine(context, parts);
}

/**
 * Where developers and their agents ask: `@quorum` in the chat view, the `quorum_review` tool of agent mode and the
 * `quorum mcp` server. Registering them loads nothing (the engine loads when one is used); a VS Code without one of
 * these APIs simply goes without that face.
 */
function registerAgentFaces(engine: () => Engine, mcpChanged: vscode.Event<void>, extensionUri: vscode.Uri, log: QuorumLog): vscode.Disposable[] {
  const faces: vscode.Disposable[] = [];
  const register = (what: string, available: boolean, make: () => vscode.Disposable) => {
    if (!available) return log.info(`${what} is not available in this VS Code; Quorum goes without it`);
    try {
      faces.push(make());
    } catch (error) {
      // A workbench with AI features turned off (chat.disableAIFeatures) may refuse; the rest of Quorum works.
      log.warn(`${what} could not be registered: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  register('The chat participant', typeof vscode.chat?.createChatParticipant === 'function', () => {
    const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, _context, stream, token) => engine().chat(request, stream, token));
    participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
    return participant;
  });
  register('The agent-mode tool', typeof vscode.lm?.registerTool === 'function', () =>
    vscode.lm.registerTool<unknown>(REVIEW_TOOL_NAME, {
      prepareInvocation: (options) => engine().reviewTool.prepareInvocation(options),
      invoke: (options, token) => engine().reviewTool.invoke(options, token),
    }),
  );
  register('The MCP server definition', typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function', () =>
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: mcpChanged,
      provideMcpServerDefinitions: () => engine().mcp.provideMcpServerDefinitions(),
      resolveMcpServerDefinition: (server: vscode.McpStdioServerDefinition) => engine().mcp.resolveMcpServerDefinition(server),
    }),
  );
  return faces;
}

/**
 * Registers every command, the status bar item showing the session's cost, the quick-fix provider, the webview
 * serializers and the agent faces, each handing its work to the engine. No network I/O, no file or secret read.
 */
export function activate(context: vscode.ExtensionContext): QuorumApi {
  const started = performance.now();
  const redactor = new Redactor();
  const log = createQuorumLog(redactor);
  const monthly = new MonthlySpend(context.globalState);
  const costBar = new CostStatusBar();
  // Nothing is spent in a session before the engine exists; the budgets show once the settings are read.
  costBar.update({ totals: emptyLedgerTotals(), monthUsd: monthly.usd, running: 0, budget: undefined });
  const mcpChanged = new vscode.EventEmitter<void>();
  let loaded: Engine | undefined;
  const engine = (): Engine => (loaded ??= loadEngine(context, { redactor, log, costBar, monthly, mcpChanged: () => mcpChanged.fire() }));

  context.subscriptions.push(
    log,
    costBar,
    mcpChanged,
    ...ALL_COMMANDS.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]) => engine().commands[id](...args))),
    // Quick fixes are offered on findings, and findings exist only once a review (and so the engine) ran.
    vscode.languages.registerCodeActionsProvider(
      { scheme: '*' },
      { provideCodeActions: (doc, range, ctx) => loaded?.codeActions.provideCodeActions(doc, range, ctx) },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state: unknown) => engine().panels.restore(panel, state) }),
    vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, { deserializeWebviewPanel: async (panel) => engine().comparePanel.restore(panel) }),
    // Once loaded, the engine follows Quorum's settings itself; before, a change still reaches VS Code's MCP view
    // and a new gateway URL is still checked.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (loaded || !e.affectsConfiguration('quorum')) return;
      mcpChanged.fire();
      if (e.affectsConfiguration('quorum.gateway.baseUrl')) void engine().warnIfInsecure();
    }),
    ...registerAgentFaces(engine, mcpChanged.event, context.extensionUri, log),
  );
  log.info(`Quorum ${String(context.extension.packageJSON.version)} activated in ${Math.round(performance.now() - started)} ms (VS Code ${vscode.version})`);

  return {
    activation: { engineLoaded: loaded !== undefined, statusBarText: costBar.text },
    logUri: context.logUri,
    gatewayStats: () => engine().api.gatewayStats(),
    get ledger() {
      return engine().api.ledger;
    },
    get cost() {
      return engine().api.cost;
    },
    get controller() {
      return engine().api.controller;
    },
    get panels() {
      return engine().api.panels;
    },
    get findings() {
      return engine().api.findings;
    },
    get settings() {
      return engine().api.settings;
    },
    usePrompter: (p) => engine().api.usePrompter(p),
    get sent() {
      return engine().api.sent;
    },
    get compare() {
      return engine().api.compare;
    },
    useWorkspaceTrust: (trusted) => engine().api.useWorkspaceTrust(trusted),
    useGitApi: (api) => engine().api.useGitApi(api),
    get threads() {
      return engine().api.threads;
    },
    get chat() {
      return engine().api.chat;
    },
    get reviewTool() {
      return engine().api.reviewTool;
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
