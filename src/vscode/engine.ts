import type * as vscode from 'vscode';
import type { Redactor } from '../core/redaction/redactor';
import type { EngineApi } from './api';
import type { chatHandler } from './chat/chatParticipant';
import type { CommandCallback, QuorumCommandId } from './commands';
import type { ComparePanel } from './compare/comparePanel';
import type { CostStatusBar } from './cost/costStatusBar';
import type { MonthlySpend } from './cost/monthlySpend';
import { commandHandlers } from './engineCommands';
import { faceParts, findingParts, modelParts, reviewParts, windowParts } from './engineParts';
import { FindingCodeActions } from './findings/codeActions';
import { IMPROVED_CODE } from './findings/findingStore';
import type { QuorumLog } from './log';
import type { ReviewPanels } from './panel/reviewPanels';
import type { McpServerSettings } from './tools/mcpServer';
import type { ReviewTool } from './tools/reviewTool';

/** What activation made before the engine existed, and hands over to it. */
export interface StartupParts {
  redactor: Redactor;
  log: QuorumLog;
  /** The status bar item that has shown the session's cost since activation. */
  costBar: CostStatusBar;
  monthly: MonthlySpend;
}

/** What the engine gives the start-up wiring: a handler per command, the providers' implementations, the API. */
export interface Engine {
  commands: Record<QuorumCommandId, CommandCallback>;
  codeActions: FindingCodeActions;
  chat: ReturnType<typeof chatHandler>;
  reviewTool: ReviewTool;
  mcp: McpServerSettings;
  panels: ReviewPanels;
  comparePanel: ComparePanel;
  /** Warns when the gateway's base URL is not https (activation calls it for a change made before the engine loaded). */
  warnIfInsecure(): Promise<void>;
  api: EngineApi;
}

type Parts = ReturnType<typeof windowParts> & ReturnType<typeof findingParts> & ReturnType<typeof reviewParts> & ReturnType<typeof modelParts> & ReturnType<typeof faceParts>;

/** What lives as long as the window, disposed with it; and the wiring between parts that no part owns. */
function lifetime({ settings, gateway, cost, store, fixes, regionEdits, controller, panels, sent, comparePanel, measured, threads, outcomes, outcomesView, actions, keyCommands }: Parts): { dispose(): unknown }[] {
  return [
    settings, { dispose: () => gateway.dispose() }, cost, store, fixes, regionEdits, controller, panels, sent, comparePanel, measured, threads, outcomes, outcomesView,
    // A fix applied or a finding dismissed, whichever way: the panel shows it under every id it knows the finding
    // by, and a dismissal's outcome says so.
    fixes.onDidResolve(({ sessionId, id, how }) => {
      if (id !== IMPROVED_CODE) panels.resolved(sessionId, actions.idsOf(sessionId, id), how);
      const session = controller.session(sessionId);
      const finding = store.get(sessionId, id)?.finding ?? session?.summary?.findings.find((f) => f.id === id);
      if (how === 'dismissed' && session && finding) outcomes.dismissed(session, finding);
    }),
    settings.onDidChange((s) => {
      if (s.gateway.baseUrl) void keyCommands.warnIfInsecure();
    }),
  ];
}

/** The engine's part of the API returned by `activate()` (api.ts): state to inspect, and the seams tests use. */
function engineApi(p: Parts): EngineApi {
  return {
    gatewayStats: () => p.gateway.stats(),
    ledger: p.ledger,
    cost: p.cost,
    controller: p.controller,
    panels: p.panels,
    findings: p.store,
    settings: p.settings,
    usePrompter: (prompter) => p.prompter.use(prompter),
    sent: p.sent,
    compare: { panel: p.comparePanel, measured: p.measured },
    useWorkspaceTrust: (trusted) => p.shaper.useTrust(trusted),
    useGitApi: (api) => p.repositories.useGitApi(api),
    threads: p.threads,
    chat: p.chat,
    reviewTool: p.reviewTool,
    outcomes: { service: p.outcomes, view: p.outcomesView },
  };
}

/**
 * The review engine's composition root, built on the first command, provider call or API use that needs it (not
 * at activation, issue 20: see `src/vscode/extension.ts`): builds the long-lived objects, concern by concern
 * (engineParts.ts), and pushes every Disposable into `context.subscriptions`. No network I/O happens here: the
 * gateway client connects on the first request.
 */
export function createEngine(context: vscode.ExtensionContext, startup: StartupParts): Engine {
  const window = windowParts(context, startup);
  const findings = findingParts(context, window);
  const reviews = reviewParts(context, window, findings);
  const parts: Parts = { ...window, ...findings, ...reviews, ...modelParts(context, window, findings), ...faceParts(window, findings, reviews) };
  context.subscriptions.push(...lifetime(parts));
  const { controller, actions, panels, threads, switcher, keyCommands, cost, sent, compare, changes, outcomesView, prompter, dismissals } = parts;
  return {
    commands: commandHandlers({ controller, findings: actions, panels, threads, switcher, keyCommands, cost, sent, compare, changes, outcomesView, prompter }),
    codeActions: new FindingCodeActions(parts.store, (uri) => dismissals.folderOf(uri) !== undefined),
    chat: parts.chat,
    reviewTool: parts.reviewTool,
    mcp: parts.mcp,
    panels,
    comparePanel: parts.comparePanel,
    warnIfInsecure: () => keyCommands.warnIfInsecure(),
    api: engineApi(parts),
  };
}
