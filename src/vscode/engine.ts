import * as vscode from 'vscode';
import type { GatewayLogger } from '../core/gateway/client';
import type { EngineApi } from './api';
import { pricedGateway } from '../core/gateway/pricedGateway';
import { ReviewCache } from '../core/pipeline/cache';
import { ReviewPipeline } from '../core/pipeline/pipeline';
import { ApiKeyStore } from './apiKeys';
import { Commands, InternalCommands, type CommandCallback, type QuorumCommandId } from './commands';
import { CostController } from './cost/costController';
import type { CostStatusBar } from './cost/costStatusBar';
import type { MonthlySpend } from './cost/monthlySpend';
import { FindingCodeActions } from './findings/codeActions';
import { FindingStore } from './findings/findingStore';
import { FixService } from './findings/fixes';
import { RegionEdits } from './findings/regionEdits';
import { ProjectDismissals } from './findings/projectDismissals';
import { resolveAgents } from '../core/agents/registry';
import { CompareModels } from './compare/compareModels';
import { ComparePanel } from './compare/comparePanel';
import { EvalCorpus } from './compare/evalCorpus';
import { MeasuredModels } from './compare/measuredModels';
import { BudgetGuard } from './review/budgetGuard';
import { ApiKeyCommands } from './gateway/apiKeyCommands';
import type { QuorumLog } from './log';
import { ModelSwitcher } from './models/switchModel';
import { ReviewPanels } from './panel/reviewPanels';
import { PrompterHolder } from './prompter';
import { ChangesCommands } from './changes/changesCommands';
import { ChangesPreparation } from './changes/changesPreparation';
import { RepositoryPicker } from './changes/repositoryPicker';
import { ReviewController } from './review/reviewController';
import type { PanelActions } from './panel/panelContract';
import { PromptShaper } from './privacy/promptShaper';
import { SentPreview } from './privacy/whatWillBeSent';
import { SettingsService } from './settings';
import { FollowUps } from './findings/followUps';
import { ReviewThreads } from './threads/reviewThreads';
import { chatHandler } from './chat/chatParticipant';
import { ReviewTool } from './tools/reviewTool';
import { McpServerSettings } from './tools/mcpServer';
import { OutcomeService } from './outcomes/outcomeService';
import { OutcomesView } from './outcomes/outcomesView';
import { LearningOffer } from './outcomes/learningOffer';
import type { Redactor } from '../core/redaction/redactor';
import { field, isRecord } from '../shared/guards';

function gatewayLogger(log: QuorumLog): GatewayLogger {
  const line = (message: string, data?: Record<string, unknown>): string => {
    const fields = Object.entries(data ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    return fields.length > 0 ? `${message} (${fields.join(', ')})` : message;
  };
  return {
    info: (m, d) => log.info(line(m, d)),
    warn: (m, d) => log.warn(line(m, d)),
    error: (m, d) => log.error(line(m, d)),
  };
}

/** The long-lived core objects of the window: the price list, the ledger, the one shared gateway client, the pipeline. */
function createCore(settings: SettingsService, keys: ApiKeyStore, log: QuorumLog) {
  const { listedPrices, ledger, gateway } = pricedGateway({
    settings: () => settings.current,
    apiKey: () => keys.get(settings.current.gateway.baseUrl),
    logger: gatewayLogger(log),
    keyOptionalOnLoopback: true,
  });
  const pipeline = new ReviewPipeline({ gateway, settings: () => settings.current, cache: new ReviewCache(), ledger, listedPrices });
  return { listedPrices, ledger, gateway, pipeline };
}

interface CommandTargets {
  controller: ReviewController;
  panels: ReviewPanels;
  threads: ReviewThreads;
  switcher: ModelSwitcher;
  keyCommands: ApiKeyCommands;
  cost: CostController;
  sent: SentPreview;
  compare: CompareModels;
  changes: ChangesCommands;
  fixes: FixService;
  outcomesView: OutcomesView;
}

/** What runs for every command Quorum contributes (`Commands`) and the internal ones its hovers and panels run. */
function commandHandlers({ controller, panels, threads, switcher, keyCommands, cost, sent, compare, changes, fixes, outcomesView }: CommandTargets): Record<QuorumCommandId, CommandCallback> {
  return {
    [Commands.reviewSelection]: () => controller.reviewEditor(),
    [Commands.cancelReview]: () => controller.cancelAll(),
    [Commands.switchModel]: (agent?: unknown, suggestions?: unknown) =>
      switcher.run(typeof agent === 'string' ? agent : undefined, Array.isArray(suggestions) ? suggestions.filter((s): s is string => typeof s === 'string') : []),
    [Commands.setApiKey]: () => keyCommands.setKey(),
    [Commands.clearApiKey]: () => keyCommands.clearKey(),
    [Commands.testConnection]: () => keyCommands.testConnection(),
    [Commands.showCost]: () => cost.showDetails(),
    [Commands.resetCost]: () => cost.reset(),
    [Commands.showWhatWillBeSent]: () => sent.showForEditor(),
    [Commands.compareModels]: () => compare.run(),
    [Commands.showOutcomes]: () => outcomesView.show(),
    [Commands.reviewChanges]: (scm?: unknown) => changes.reviewChanges(scm),
    [Commands.reviewChangedFiles]: (...states: unknown[]) => changes.reviewFiles('working-tree', states),
    [Commands.reviewStagedFiles]: (...states: unknown[]) => changes.reviewFiles('index', states),
    [Commands.showWhatWillBeSentForChanges]: (scm?: unknown) => changes.showWhatWillBeSent(scm),
    [InternalCommands.previewFix]: (session: string, id: string) => fixes.preview(session, id),
    [InternalCommands.applyFix]: (session: string, id: string) => fixes.apply(session, id),
    [InternalCommands.dismissFinding]: (session: string, id: string) => fixes.dismiss(session, id),
    [InternalCommands.dismissInProject]: (session: string, id: string) => controller.dismissInProject(session, id),
    [InternalCommands.dismissWithReason]: (session: string, id: string) => controller.dismissWithReason(session, id),
    [InternalCommands.showReview]: (session: string) => {
      const found = controller.session(session);
      if (found) panels.show(found);
    },
    [Commands.applyThreadFix]: (thread: unknown) => threads.apply(thread),
    [Commands.dismissThread]: (thread: unknown) => threads.dismiss(thread),
    [Commands.dismissThreadInProject]: (thread: unknown) => threads.dismissInProject(thread),
    [Commands.replyInThread]: (reply: { thread: unknown; text: string }) => threads.reply(reply),
  };
}

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

/**
 * The review engine's composition root, built on the first command, provider call or API use that needs it (not
 * at activation, issue 20: see `src/vscode/extension.ts`): builds the long-lived objects and pushes every
 * Disposable into `context.subscriptions`. No network I/O happens here: the gateway client connects on the first
 * request.
 */
export function createEngine(context: vscode.ExtensionContext, { redactor, log, costBar, monthly }: StartupParts): Engine {
  const prompter = new PrompterHolder(redactor);
  const properties = field(field(field(context.extension.packageJSON, 'contributes'), 'configuration'), 'properties');
  const leaves = isRecord(properties) ? Object.keys(properties) : [];
  const settings = new SettingsService(leaves, log, prompter);
  const keys = new ApiKeyStore(context.secrets, redactor);
  const { listedPrices, ledger, gateway, pipeline } = createCore(settings, keys, log);
  const cost = new CostController(ledger, monthly, settings, prompter, costBar);
  const store = new FindingStore();
  const fixes = new FixService(store, prompter);
  const keyCommands = new ApiKeyCommands(keys, settings, () => gateway, prompter, log, () => listedPrices.for(settings.current.gateway.baseUrl));
  const measured = new MeasuredModels(context.globalState);
  const shaper = new PromptShaper(settings, prompter, log);
  const evalCorpus = new EvalCorpus({ settings, shippedDir: vscode.Uri.joinPath(context.extensionUri, 'eval', 'corpus').fsPath, isTrusted: () => shaper.isTrusted() });
  const switcher = new ModelSwitcher(settings, () => gateway, prompter, log, (agent) => measured.labeller(agent, evalCorpus.current()));
  const sent = new SentPreview({ pipeline, shaper, settings, prompter });
  const dismissals = new ProjectDismissals(() => shaper.isTrusted(), log, prompter);
  const regionEdits = new RegionEdits(store, prompter);
  const repositories = new RepositoryPicker(prompter);
  const changesPreparation = new ChangesPreparation({ settings, prompter, log, sent, repositories });
  // The panels ask the controller for actions only once a page sends a message (after the engine is built).
  const panels = new ReviewPanels(context, { log, actions: (): PanelActions => controller });
  // What became of each finding, kept in the workspace's storage (the global storage without a workspace).
  const outcomes = new OutcomeService((context.storageUri ?? context.globalStorageUri).fsPath, log);
  const outcomesView = new OutcomesView(outcomes);
  const learning = new LearningOffer({ prompter, log, outcomes, dismissals });
  const controller = new ReviewController({ pipeline, settings, ledger, monthly, keys: keyCommands, store, fixes, cost, prompter, log, shaper, dismissals, regionEdits, changes: changesPreparation, memoryDir: context.globalStorageUri.fsPath, panels, outcomes, learning });
  const comparePanel = new ComparePanel({
    extensionUri: context.extensionUri, log, use: (agent, model) => switcher.useModel(agent, model), state: context.workspaceState,
    modelOf: (agent) => resolveAgents(settings.current).agents.find((a) => a.id === agent)?.model,
    outcomes: (agent) => outcomes.stats(agent).byModel,
  });
  const compare = new CompareModels({
    settings, gateway: () => gateway, ledger, listedPrices, prompter, keys: keyCommands, log, measured, panel: comparePanel,
    budget: new BudgetGuard(settings, ledger, monthly, prompter),
    corpus: evalCorpus,
  });
  const changes = new ChangesCommands({ controller, prompter, log, repositories, sent, preparation: changesPreparation });
  const followUps = new FollowUps({ gateway: () => gateway, settings, keys: keyCommands, store, session: (id) => controller.session(id), log });
  const threads = new ReviewThreads({ store, fixes, followUps, settings, onDidStartReview: controller.onDidStartReview, dismissInProject: (s, id) => controller.dismissInProject(s, id) });
  const chat = chatHandler({ controller, changes, store, followUps });
  const reviewTool = new ReviewTool({ controller, changes, settings });

  context.subscriptions.push(
    settings,
    { dispose: () => gateway.dispose() },
    cost,
    store,
    fixes,
    regionEdits,
    controller,
    panels,
    sent,
    comparePanel,
    measured,
    threads,
    outcomes,
    outcomesView,
    // A finding dismissed in the editor, whichever way: its outcome says so.
    fixes.onDidResolve(({ sessionId, id, how }) => {
      const session = controller.session(sessionId);
      const finding = store.get(sessionId, id)?.finding ?? session?.summary?.findings.find((f) => f.id === id);
      if (how === 'dismissed' && session && finding) outcomes.dismissed(session, finding);
    }),
    settings.onDidChange((s) => {
      if (s.gateway.baseUrl) void keyCommands.warnIfInsecure();
    }),
  );

  return {
    commands: commandHandlers({ controller, panels, threads, switcher, keyCommands, cost, sent, compare, changes, fixes, outcomesView }),
    codeActions: new FindingCodeActions(store, (uri) => dismissals.folderOf(uri) !== undefined),
    chat,
    reviewTool,
    mcp: new McpServerSettings(settings, keys),
    panels,
    comparePanel,
    warnIfInsecure: () => keyCommands.warnIfInsecure(),
    api: {
      gatewayStats: () => gateway.stats(),
      ledger,
      cost,
      controller,
      panels,
      findings: store,
      settings,
      usePrompter: (p) => prompter.use(p),
      sent,
      compare: { panel: comparePanel, measured },
      useWorkspaceTrust: (trusted) => shaper.useTrust(trusted),
      useGitApi: (api) => repositories.useGitApi(api),
      threads,
      chat,
      reviewTool,
      outcomes: { service: outcomes, view: outcomesView },
    },
  };
}
