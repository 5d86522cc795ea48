import * as vscode from 'vscode';
import { resolveAgents } from '../core/agents/registry';
import type { GatewayLogger } from '../core/gateway/client';
import { pricedGateway } from '../core/gateway/pricedGateway';
import { ReviewCache } from '../core/pipeline/cache';
import { ReviewPipeline } from '../core/pipeline/pipeline';
import { field, isRecord } from '../shared/guards';
import { ApiKeyStore } from './apiKeys';
import { ChangesCommands } from './changes/changesCommands';
import { ChangesPreparation } from './changes/changesPreparation';
import { RepositoryPicker } from './changes/repositoryPicker';
import { chatHandler } from './chat/chatParticipant';
import { CompareModels } from './compare/compareModels';
import { ComparePanel } from './compare/comparePanel';
import { EvalCorpus } from './compare/evalCorpus';
import { MeasuredModels } from './compare/measuredModels';
import { CostController } from './cost/costController';
import type { StartupParts } from './engine';
import { FindingActions } from './findings/findingActions';
import { FindingStore } from './findings/findingStore';
import { FixService } from './findings/fixes';
import { FollowUps } from './findings/followUps';
import { ProjectDismissals } from './findings/projectDismissals';
import { RegionEdits } from './findings/regionEdits';
import { ApiKeyCommands } from './gateway/apiKeyCommands';
import type { QuorumLog } from './log';
import { ModelSwitcher } from './models/switchModel';
import { LearningOffer } from './outcomes/learningOffer';
import { OutcomeService } from './outcomes/outcomeService';
import { OutcomesView } from './outcomes/outcomesView';
import { ReviewPanels } from './panel/reviewPanels';
import { PromptShaper } from './privacy/promptShaper';
import { SentPreview } from './privacy/whatWillBeSent';
import { PrompterHolder } from './prompter';
import { windowPrompter } from './windowPrompter';
import { BudgetGuard } from './review/budgetGuard';
import { ReviewController } from './review/reviewController';
import { ReviewNotices } from './review/reviewNotices';
import { SettingsService } from './settings';
import { ReviewThreads } from './threads/reviewThreads';
import { McpServerSettings } from './tools/mcpServer';
import { ReviewTool } from './tools/reviewTool';

/**
 * The engine's builders, one per concern, each from what the ones before it built (engine.ts calls them in order):
 * the window's basics, what becomes of findings, reviews, models, and the agent faces.
 */

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

/** The window's basics: the prompter, the settings, the key, the core (gateway, ledger, pipeline), the cost display, the prompt shaper. */
export function windowParts(context: vscode.ExtensionContext, { redactor, log, costBar, monthly }: StartupParts) {
  const prompter = new PrompterHolder(redactor, windowPrompter);
  const properties = field(field(field(context.extension.packageJSON, 'contributes'), 'configuration'), 'properties');
  const settings = new SettingsService(isRecord(properties) ? Object.keys(properties) : [], log, prompter);
  const keys = new ApiKeyStore(context.secrets, redactor);
  const core = createCore(settings, keys, log);
  const { listedPrices, ledger, gateway } = core;
  const cost = new CostController(ledger, monthly, settings, prompter, costBar);
  const keyCommands = new ApiKeyCommands(keys, settings, () => gateway, prompter, log, () => listedPrices.for(settings.current.gateway.baseUrl));
  const shaper = new PromptShaper(settings, prompter, log);
  return { log, monthly, prompter, settings, keys, ...core, cost, keyCommands, shaper };
}
type WindowParts = ReturnType<typeof windowParts>;

/** What becomes of findings: the store (Problems, quick fixes), fixes and edits, dismissals, outcomes and learnings. */
export function findingParts(context: vscode.ExtensionContext, { prompter, log, shaper }: WindowParts) {
  const store = new FindingStore();
  const fixes = new FixService(store, prompter);
  const dismissals = new ProjectDismissals(() => shaper.isTrusted(), log, prompter);
  const regionEdits = new RegionEdits(store, prompter);
  // What became of each finding, kept in the workspace's storage (the global storage without a workspace).
  const outcomes = new OutcomeService((context.storageUri ?? context.globalStorageUri).fsPath, log);
  const outcomesView = new OutcomesView(outcomes);
  const learning = new LearningOffer({ prompter, log, outcomes, dismissals });
  return { store, fixes, dismissals, regionEdits, outcomes, outcomesView, learning };
}
type FindingParts = ReturnType<typeof findingParts>;

/** Reviews: what will be sent, changes, the panels, the controller, the findings' commands, the changes' commands. */
export function reviewParts(context: vscode.ExtensionContext, w: WindowParts, f: FindingParts) {
  const { pipeline, settings, prompter, log, shaper, ledger, monthly, keyCommands, cost } = w;
  const sent = new SentPreview({ pipeline, shaper, settings, prompter });
  const repositories = new RepositoryPicker(prompter);
  const preparation = new ChangesPreparation({ settings, prompter, log, sent, repositories });
  const panels = new ReviewPanels(context, { log });
  const controller = new ReviewController({
    core: { pipeline, memoryDir: context.globalStorageUri.fsPath, outcomes: f.outcomes },
    reads: { settings, shaper, dismissals: f.dismissals, changes: preparation },
    asks: { keys: keyCommands, budget: new BudgetGuard(settings, ledger, monthly, prompter), notices: new ReviewNotices(settings, prompter, log) },
    shows: { panels, prompter, store: f.store, cost, log },
  });
  const actions = new FindingActions({ sessionOf: (id) => controller.session(id), store: f.store, fixes: f.fixes, regions: f.regionEdits, dismissals: f.dismissals, learning: f.learning });
  const changes = new ChangesCommands({ controller, prompter, log, repositories, sent, preparation });
  return { sent, repositories, panels, controller, actions, changes };
}
type ReviewParts = ReturnType<typeof reviewParts>;

/** Models: Switch Model, and Compare Models with its page, its corpus and the figures it measured. */
export function modelParts(context: vscode.ExtensionContext, w: WindowParts, f: FindingParts) {
  const { settings, gateway, ledger, listedPrices, prompter, keyCommands, log, monthly, shaper } = w;
  const measured = new MeasuredModels(context.globalState);
  const corpus = new EvalCorpus({ settings, shippedDir: vscode.Uri.joinPath(context.extensionUri, 'eval', 'corpus').fsPath, isTrusted: () => shaper.isTrusted() });
  const switcher = new ModelSwitcher(settings, () => gateway, prompter, log, (agent) => measured.labeller(agent, corpus.current()));
  const comparePanel = new ComparePanel({
    extensionUri: context.extensionUri, log, use: (agent, model) => switcher.useModel(agent, model), state: context.workspaceState,
    modelOf: (agent) => resolveAgents(settings.current).agents.find((a) => a.id === agent)?.model,
    outcomes: (agent) => f.outcomes.stats(agent).byModel,
  });
  const compare = new CompareModels({
    settings, gateway: () => gateway, ledger, listedPrices, prompter, keys: keyCommands, log, measured, panel: comparePanel,
    budget: new BudgetGuard(settings, ledger, monthly, prompter),
    corpus,
  });
  return { measured, switcher, comparePanel, compare };
}

/** Where developers and their agents ask: follow-ups, the review threads, `@quorum`, the agent-mode tool, the MCP server. */
export function faceParts(w: WindowParts, f: FindingParts, r: ReviewParts) {
  const { gateway, settings, keyCommands, log, keys } = w;
  const { controller, changes } = r;
  const followUps = new FollowUps({ gateway: () => gateway, settings, keys: keyCommands, store: f.store, session: (id) => controller.session(id), log });
  const threads = new ReviewThreads({ store: f.store, followUps, settings, onDidStartReview: controller.onDidStartReview });
  const chat = chatHandler({ controller, changes, store: f.store, followUps });
  const reviewTool = new ReviewTool({ controller, changes, settings });
  return { threads, chat, reviewTool, mcp: new McpServerSettings(settings, keys) };
}
