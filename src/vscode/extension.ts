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
import { mcpServerDefinitions } from './tools/mcpServer';

/**
 * Activation (issue 20: VS Code's activation figure had doubled since the first release) registers what must exist
 * from the start and loads nothing a review needs. The review engine — settings and their schemas, the gateway, the
 * pipeline, the controller, the panels — is `src/vscode/engine.ts`, a file of its own in the build (`dist/engine.js`,
 * esbuild.js: LAZY_MODULES) required by the first command, provider call or API use that needs it. What this file
 * imports is checked by `test/unit/startup.test.ts`.
 */

/** Loads and builds the engine; the log says how long it took and what first needed it. */
function loadEngine(context: vscode.ExtensionContext, parts: StartupParts, firstUse: string): Engine {
  const started = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access -- required in a function, so that the bundle keeps the engine a lazy file of its own (startup.test.ts)
  const createEngine: typeof import('./engine').createEngine = require('./engine').createEngine;
  const engine = createEngine(context, parts);
  parts.log.info(`Quorum's review engine loaded in ${Math.round(performance.now() - started)} ms (first needed by ${firstUse})`);
  return engine;
}

/** The engine, loaded by the first call; `use` names what needs it (for the log). */
type EngineFor = (use: string) => Engine;

/** The extension's version, from its package.json. */
function versionOf(context: vscode.ExtensionContext): string {
  const manifest: unknown = context.extension.packageJSON;
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest ? String(manifest.version) : '?';
}

/**
 * Where developers and their agents ask: `@quorum` in the chat view, the `quorum_review` tool of agent mode and the
 * `quorum mcp` server. Registering them loads nothing (the engine loads when one is used); a VS Code without one of
 * these APIs simply goes without that face.
 */
function registerAgentFaces(engine: EngineFor, context: vscode.ExtensionContext, log: QuorumLog): { dispose(): unknown }[] {
  const faces: { dispose(): unknown }[] = [];
  // The types say these APIs exist; in a VS Code without them (or with AI features off) they are undefined.
  const runtime: { chat?: Partial<typeof vscode.chat>; lm?: Partial<typeof vscode.lm> } = vscode;
  const register = (what: string, available: boolean, make: () => { dispose(): unknown }) => {
    if (!available) {
      log.info(`${what} is not available in this VS Code; Quorum goes without it`);
      return;
    }
    try {
      faces.push(make());
    } catch (error) {
      // A workbench with AI features turned off (chat.disableAIFeatures) may refuse; the rest of Quorum works.
      log.warn(`${what} could not be registered: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  register('The chat participant', typeof runtime.chat?.createChatParticipant === 'function', () => {
    const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, _context, stream, token) => engine('the chat participant').chat(request, stream, token));
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
    return participant;
  });
  register('The agent-mode tool', typeof runtime.lm?.registerTool === 'function', () =>
    vscode.lm.registerTool<unknown>(REVIEW_TOOL_NAME, {
      prepareInvocation: (options) => engine('the agent-mode tool').reviewTool.prepareInvocation(options),
      invoke: (options, token) => engine('the agent-mode tool').reviewTool.invoke(options, token),
    }),
  );
  register('The MCP server definition', typeof runtime.lm?.registerMcpServerDefinitionProvider === 'function', () =>
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      // VS Code asks as the window starts: answered without the engine.
      provideMcpServerDefinitions: () => mcpServerDefinitions(context.extensionUri, versionOf(context)),
      resolveMcpServerDefinition: (server: vscode.McpStdioServerDefinition) => engine('the MCP server starting').mcp.resolveMcpServerDefinition(server),
    }),
  );
  return faces;
}

/** The API `activate()` returns: what activation knows, and the engine's part, which loads the engine on first use. */
function quorumApi(engine: EngineFor, activation: QuorumApi['activation'], logUri: vscode.Uri): QuorumApi {
  return {
    activation,
    logUri,
    gatewayStats: () => engine('the API: gatewayStats').api.gatewayStats(),
    get ledger() {
      return engine('the API: ledger').api.ledger;
    },
    get cost() {
      return engine('the API: cost').api.cost;
    },
    get controller() {
      return engine('the API: controller').api.controller;
    },
    get panels() {
      return engine('the API: panels').api.panels;
    },
    get findings() {
      return engine('the API: findings').api.findings;
    },
    get settings() {
      return engine('the API: settings').api.settings;
    },
    usePrompter: (p) => engine('the API: usePrompter').api.usePrompter(p),
    get sent() {
      return engine('the API: sent').api.sent;
    },
    get compare() {
      return engine('the API: compare').api.compare;
    },
    useWorkspaceTrust: (trusted) => engine('the API: useWorkspaceTrust').api.useWorkspaceTrust(trusted),
    useGitApi: (api) => engine('the API: useGitApi').api.useGitApi(api),
    get threads() {
      return engine('the API: threads').api.threads;
    },
    get outcomes() {
      return engine('the API: outcomes').api.outcomes;
    },
    get chat() {
      return engine('the API: chat').api.chat;
    },
    get reviewTool() {
      return engine('the API: reviewTool').api.reviewTool;
    },
  };
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
  let loaded: Engine | undefined;
  const engine: EngineFor = (use) => (loaded ??= loadEngine(context, { redactor, log, costBar, monthly }, use));

  context.subscriptions.push(
    log,
    costBar,
    ...ALL_COMMANDS.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]): unknown => engine(id).commands[id](...args))),
    // Quick fixes are offered on findings, and findings exist only once a review (and so the engine) ran.
    vscode.languages.registerCodeActionsProvider(
      { scheme: '*' },
      { provideCodeActions: (doc, range, ctx) => loaded?.codeActions.provideCodeActions(doc, range, ctx) },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => {
        engine('a review panel restored').panels.restore(panel, state);
        return Promise.resolve();
      },
    }),
    vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, {
      deserializeWebviewPanel: (panel) => {
        engine('the Compare Models page restored').comparePanel.restore(panel);
        return Promise.resolve();
      },
    }),
    // Once loaded, the engine follows Quorum's settings itself; before, a new gateway URL is still checked.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!loaded && e.affectsConfiguration('quorum.gateway.baseUrl')) void engine('a new gateway URL').warnIfInsecure();
    }),
    ...registerAgentFaces(engine, context, log),
  );
  log.info(`Quorum ${versionOf(context)} activated in ${Math.round(performance.now() - started)} ms (VS Code ${vscode.version})`);

  return quorumApi(engine, { engineLoaded: loaded !== undefined, statusBarText: costBar.text }, context.logUri);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
