import * as vscode from 'vscode';
import type { GatewayLogger } from '../core/gateway/client';
import { pricedGateway } from '../core/gateway/pricedGateway';
import { ReviewCache } from '../core/review/cache';
import { ReviewPipeline } from '../core/review/pipeline';
import type { QuorumApi } from './api';
import { ApiKeyStore } from './apiKeys';
import { Commands, InternalCommands } from './commands';
import { CostController } from './cost/costController';
import { MonthlySpend } from './cost/monthlySpend';
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
import { createQuorumLog, type QuorumLog } from './log';
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
import { CHAT_PARTICIPANT_ID, chatHandler } from './chat/chatParticipant';
import { REVIEW_TOOL_NAME, ReviewTool } from './tools/reviewTool';
import { MCP_PROVIDER_ID, QuorumMcpServers } from './tools/mcpServer';
import { Redactor } from '../core/redaction/redactor';
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
}

/** Every command Quorum contributes (`Commands`) and the internal ones its hovers and panels run. */
function registerCommands({ controller, panels, threads, switcher, keyCommands, cost, sent, compare, changes, fixes }: CommandTargets): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.reviewSelection, () => controller.reviewEditor()),
    vscode.commands.registerCommand(Commands.cancelReview, () => controller.cancelAll()),
    vscode.commands.registerCommand(Commands.switchModel, (agent?: unknown, suggestions?: unknown) =>
      switcher.run(typeof agent === 'string' ? agent : undefined, Array.isArray(suggestions) ? suggestions.filter((s): s is string => typeof s === 'string') : []),
    ),
    vscode.commands.registerCommand(Commands.setApiKey, () => keyCommands.setKey()),
    vscode.commands.registerCommand(Commands.clearApiKey, () => keyCommands.clearKey()),
    vscode.commands.registerCommand(Commands.testConnection, () => keyCommands.testConnection()),
    vscode.commands.registerCommand(Commands.showCost, () => cost.showDetails()),
    vscode.commands.registerCommand(Commands.resetCost, () => cost.reset()),
    vscode.commands.registerCommand(Commands.showWhatWillBeSent, () => sent.showForEditor()),
    vscode.commands.registerCommand(Commands.compareModels, () => compare.run()),
    vscode.commands.registerCommand(Commands.reviewChanges, (scm?: unknown) => changes.reviewChanges(scm)),
    vscode.commands.registerCommand(Commands.reviewChangedFiles, (...states: unknown[]) => changes.reviewFiles('working-tree', states)),
    vscode.commands.registerCommand(Commands.reviewStagedFiles, (...states: unknown[]) => changes.reviewFiles('index', states)),
    vscode.commands.registerCommand(Commands.showWhatWillBeSentForChanges, (scm?: unknown) => changes.showWhatWillBeSent(scm)),
    vscode.commands.registerCommand(InternalCommands.previewFix, (session: string, id: string) => fixes.preview(session, id)),
    vscode.commands.registerCommand(InternalCommands.applyFix, (session: string, id: string) => fixes.apply(session, id)),
    vscode.commands.registerCommand(InternalCommands.dismissFinding, (session: string, id: string) => fixes.dismiss(session, id)),
    vscode.commands.registerCommand(InternalCommands.dismissInProject, (session: string, id: string) => controller.dismissInProject(session, id)),
    vscode.commands.registerCommand(InternalCommands.showReview, (session: string) => {
      const found = controller.session(session);
      if (found) panels.show(found);
    }),
    vscode.commands.registerCommand(Commands.applyThreadFix, (thread: unknown) => threads.apply(thread)),
    vscode.commands.registerCommand(Commands.dismissThread, (thread: unknown) => threads.dismiss(thread)),
    vscode.commands.registerCommand(Commands.dismissThreadInProject, (thread: unknown) => threads.dismissInProject(thread)),
    vscode.commands.registerCommand(Commands.replyInThread, (reply: { thread: unknown; text: string }) => threads.reply(reply)),
  ];
}

/**
 * Where developers and their agents ask: `@quorum` in the chat view, the `quorum_review` tool of agent mode and the
 * `quorum mcp` server. Registering them is cheap (nothing runs until they are used); a VS Code without one of
 * these APIs simply goes without that face.
 */
function registerAgentFaces(chat: ReturnType<typeof chatHandler>, tool: ReviewTool, mcp: QuorumMcpServers, extensionUri: vscode.Uri, log: QuorumLog): vscode.Disposable[] {
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
    const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, _context, stream, token) => chat(request, stream, token));
    participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
    return participant;
  });
  register('The agent-mode tool', typeof vscode.lm?.registerTool === 'function', () => vscode.lm.registerTool(REVIEW_TOOL_NAME, tool));
  register('The MCP server definition', typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function', () => vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp));
  return faces;
}

/**
 * Composition root: builds the long-lived objects, registers commands and providers, and pushes every
 * Disposable into `context.subscriptions`. No network I/O happens here: the gateway client connects on
 * the first request.
 */
export function activate(context: vscode.ExtensionContext): QuorumApi {
  const started = performance.now();
  const redactor = new Redactor();
  const log = createQuorumLog(redactor);
  const prompter = new PrompterHolder(redactor);
  const properties = field(field(field(context.extension.packageJSON, 'contributes'), 'configuration'), 'properties');
  const leaves = isRecord(properties) ? Object.keys(properties) : [];
  const settings = new SettingsService(leaves, log, prompter);
  const keys = new ApiKeyStore(context.secrets, redactor);
  const { listedPrices, ledger, gateway, pipeline } = createCore(settings, keys, log);
  const monthly = new MonthlySpend(context.globalState);
  const cost = new CostController(ledger, monthly, settings, prompter);
  const store = new FindingStore();
  const fixes = new FixService(store, prompter);
  const keyCommands = new ApiKeyCommands(keys, settings, () => gateway, prompter, log);
  const measured = new MeasuredModels(context.globalState);
  const shaper = new PromptShaper(settings, prompter, log);
  const evalCorpus = new EvalCorpus({ settings, shippedDir: vscode.Uri.joinPath(context.extensionUri, 'eval', 'corpus').fsPath, isTrusted: () => shaper.isTrusted() });
  const switcher = new ModelSwitcher(settings, () => gateway, prompter, log, (agent) => measured.labeller(agent, evalCorpus.current()));
  const sent = new SentPreview({ pipeline, shaper, settings, prompter });
  const dismissals = new ProjectDismissals(() => shaper.isTrusted(), log, prompter);
  const regionEdits = new RegionEdits(store, prompter);
  const repositories = new RepositoryPicker(prompter);
  const changesPreparation = new ChangesPreparation({ settings, prompter, log, sent, repositories });
  // The panels ask the controller for actions only once a page sends a message (after activation).
  const panels = new ReviewPanels(context, { log, actions: (): PanelActions => controller });
  const controller = new ReviewController({ pipeline, settings, ledger, monthly, keys: keyCommands, store, fixes, cost, prompter, log, shaper, dismissals, regionEdits, changes: changesPreparation, memoryDir: context.globalStorageUri.fsPath, panels });
  const comparePanel = new ComparePanel({
    extensionUri: context.extensionUri, log, use: (agent, model) => switcher.useModel(agent, model), state: context.workspaceState,
    modelOf: (agent) => resolveAgents(settings.current).agents.find((a) => a.id === agent)?.model,
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
  const mcp = new QuorumMcpServers(context.extensionUri, String(context.extension.packageJSON.version), settings, keys);

  context.subscriptions.push(
    log,
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
    vscode.languages.registerCodeActionsProvider({ scheme: '*' }, new FindingCodeActions(store, (uri) => dismissals.folderOf(uri) !== undefined), { providedCodeActionKinds: FindingCodeActions.kinds }),
    threads,
    mcp,
    ...registerCommands({ controller, panels, threads, switcher, keyCommands, cost, sent, compare, changes, fixes }),
    ...registerAgentFaces(chat, reviewTool, mcp, context.extensionUri, log),
    settings.onDidChange((s) => {
      if (s.gateway.baseUrl) void keyCommands.warnIfInsecure();
      mcp.refresh();
    }),
  );
  log.info(`Quorum ${String(context.extension.packageJSON.version)} activated in ${Math.round(performance.now() - started)} ms (gateway ${settings.current.gateway.baseUrl}, VS Code ${vscode.version})`);

  return {
    gatewayStats: () => gateway.stats(),
    activationStats: gateway.stats(),
    ledger,
    cost,
    controller,
    panels,
    findings: store,
    settings,
    logUri: context.logUri,
    usePrompter: (p) => prompter.use(p),
    sent,
    compare: { panel: comparePanel, measured },
    useWorkspaceTrust: (trusted) => shaper.useTrust(trusted),
    useGitApi: (api) => repositories.useGitApi(api),
    threads,
    chat,
    reviewTool,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
