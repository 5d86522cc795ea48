import * as vscode from 'vscode';
import type { Gateway } from '../../core/gateway/types';
import { modelIdSchema, type QuorumSettings } from '../../core/settings/schema';
import { escapeIcons } from '../../shared/untrustedText';
import { revealBidi } from '../../shared/bidi';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import type { SettingsService } from '../settings';
import { errorData } from '../gateway/gatewayErrors';
import { buildModelChoices, priceLabel } from '../../core/cost/modelChoices';
import type { ModelPrice } from '../../core/cost/prices';
import { isOneOf, isRecord } from '../../shared/guards';
import { BUILTIN_AGENT_IDS, builtinRole, type BuiltinAgentId } from '../../shared/builtinAgents';

const ALL_AGENTS = '*';

interface AgentRow {
  id: string;
  title: string;
  model: string;
  custom: boolean;
}

interface AgentItem extends vscode.QuickPickItem {
  agent: string;
}

interface ModelItem extends vscode.QuickPickItem {
  model?: string;
  enter?: boolean;
}

interface TargetItem extends vscode.QuickPickItem {
  target: vscode.ConfigurationTarget;
}

export interface SwitchResult {
  agents: string[];
  model: string;
  target: vscode.ConfigurationTarget;
}

/** The built-in agents' titles (BUILTIN_AGENTS), localised: `vscode.l10n.t` needs each as a literal. */
const BUILTIN_TITLES: Record<BuiltinAgentId, () => string> = {
  analyst: () => vscode.l10n.t('Analyst'),
  architecture: () => vscode.l10n.t('Architecture'),
  security: () => vscode.l10n.t('Security'),
  coding: () => vscode.l10n.t('Coding'),
};

/** An agent's title as the UI shows it: the built-ins localised, a custom agent's own. */
export function agentTitle(id: string, fallback: string): string {
  return isOneOf(BUILTIN_AGENT_IDS, id) ? BUILTIN_TITLES[id]() : fallback;
}

function agentRows(settings: QuorumSettings): AgentRow[] {
  const rows: AgentRow[] = Object.entries(settings.agents).map(([id, a]) => ({ id, title: agentTitle(id, id), model: a.model, custom: false }));
  for (const c of settings.customAgents) rows.push({ id: c.id, title: c.title, model: c.model, custom: true });
  return rows;
}

/**
 * "Quorum: Switch Model…": pick an agent (or all), pick a model from the gateway's `/models` merged with
 * the models in use (or type one), and save it to user or workspace settings. Settings are re-read on
 * change, so the next request uses it.
 */
export class ModelSwitcher {
  constructor(
    private readonly settings: SettingsService,
    private readonly gateway: () => Gateway,
    private readonly prompter: Prompter,
    private readonly log: QuorumLog,
    /** The agent's last measured F1 per model ("Compare Models…") on the corpus in use, shown beside the price. */
    private readonly measured: (agent: string) => (model: string) => string | undefined = () => () => undefined,
  ) {}

  /**
   * "Use for <agent>" (Compare Models): sets the agent's model where it takes effect — the workspace settings when
   * the workspace already sets that agent's model (a user setting would be overridden there), else user settings.
   */
  async useModel(agentId: string, model: string): Promise<vscode.ConfigurationTarget | undefined> {
    const row = agentRows(this.settings.current).find((r) => r.id === agentId);
    if (!row || !modelIdSchema.safeParse(model).success) return undefined;
    const config = vscode.workspace.getConfiguration('quorum');
    const inWorkspace = (row.custom ? config.inspect<unknown[]>('customAgents')?.workspaceValue : config.inspect(`agents.${row.id}.model`)?.workspaceValue) !== undefined;
    const target = inWorkspace && vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await this.save([row], model, target);
    this.log.info(`Model for ${agentId} set to ${model} in ${target === vscode.ConfigurationTarget.Global ? 'user' : 'workspace'} settings (Compare Models)`);
    return target;
  }

  async run(agentArg?: string, suggestions: readonly string[] = []): Promise<SwitchResult | undefined> {
    const rows = agentRows(this.settings.current);
    let agent = agentArg && (agentArg === ALL_AGENTS || rows.some((r) => r.id === agentArg)) ? agentArg : undefined;
    if (!agent) {
      const items: AgentItem[] = [
        { agent: ALL_AGENTS, label: `$(organization) ${vscode.l10n.t('All agents')}`, description: vscode.l10n.t('Use one model for every agent') },
        ...rows.map((r) => ({ agent: r.id, label: `$(person) ${escapeIcons(r.title)}`, description: escapeIcons(r.model), detail: r.custom ? vscode.l10n.t('Custom agent') : undefined })),
      ];
      const picked = await this.prompter.pick(items, { id: 'switchModel.agent', title: vscode.l10n.t('Quorum: Switch Model — choose an agent'), placeHolder: vscode.l10n.t('Which agent should use another model?') });
      if (!picked) return undefined;
      agent = picked.agent;
    }
    // "All agents" are the reviewers: one model for the verifier too would leave cross-model verification no other model.
    const chosen = agent === ALL_AGENTS ? rows.filter((r) => builtinRole(r.id) !== 'verifier') : rows.filter((r) => r.id === agent);
    // Which of the chosen agents use each current model ("All agents" may mix several).
    const usedBy = new Map<string, string[]>();
    for (const r of chosen) usedBy.set(r.model, [...(usedBy.get(r.model) ?? []), r.title]);
    const model = await this.pickModel(usedBy, chosen.length > 1, suggestions, chosen.length === 1 ? chosen[0]?.id : undefined);
    if (!model) return undefined;
    const target = await this.pickTarget(chosen);
    if (target === undefined) return undefined;
    await this.save(chosen, model, target);
    const where = target === vscode.ConfigurationTarget.Global ? vscode.l10n.t('user settings') : vscode.l10n.t('workspace settings');
    const who = chosen[0]?.title ?? agent;
    this.log.info(`Model for ${agent === ALL_AGENTS ? 'all agents' : agent} set to ${model} in ${target === vscode.ConfigurationTarget.Global ? 'user' : 'workspace'} settings`);
    const message = agent === ALL_AGENTS
      ? vscode.l10n.t('$(check) Quorum: all agents now use {0} ({1})', model, where)
      : vscode.l10n.t('$(check) Quorum: {0} now uses {1} ({2})', who, model, where);
    vscode.window.setStatusBarMessage(message, 5000);
    return { agents: chosen.map((r) => r.id), model, target };
  }

  private async pickModel(usedBy: ReadonlyMap<string, readonly string[]>, several: boolean, suggestions: readonly string[], agent: string | undefined): Promise<string | undefined> {
    const settings = this.settings.current;
    const current = [...usedBy.keys()];
    const currentMark = (id: string): string =>
      several ? vscode.l10n.t('used by {0}', escapeIcons((usedBy.get(id) ?? []).join(', '))) : vscode.l10n.t('current');
    const items = (async (): Promise<ModelItem[]> => {
      let listed: string[] | undefined;
      const listedPrices: Record<string, ModelPrice> = {};
      let failure: string | undefined;
      try {
        const models = await this.gateway().listModels();
        listed = models.map((m) => m.id);
        for (const m of models) if (m.price) listedPrices[m.id] = m.price;
      } catch (error) {
        const d = errorData(error);
        failure = d.code;
        this.log.warn(`Switch Model: /models failed (${d.code}: ${d.message}); offering the built-in agents' models`);
      }
      const choices = buildModelChoices({ gatewayModels: listed, listedPrices, overrides: settings.prices, current, suggestions });
      const measuredOn = agent ? this.measured(agent) : () => undefined;
      const out: ModelItem[] = [];
      if (failure) out.push({ label: vscode.l10n.t('The gateway did not list its models ({0}); showing known models', failure), kind: vscode.QuickPickItemKind.Separator });
      for (const c of choices) {
        const marks = [c.current ? currentMark(c.id) : undefined, c.suggested ? vscode.l10n.t('closest match') : undefined, listed && !c.listed ? vscode.l10n.t('not listed by the gateway') : undefined].filter(Boolean);
        out.push({
          model: c.id,
          label: `${c.current ? '$(check)' : c.suggested ? '$(lightbulb)' : '$(blank)'} ${escapeIcons(revealBidi(c.id))}`,
          description: this.describe(measuredOn(c.id), c.price ? `${priceLabel(c.price)}${c.priceSource === 'listed' ? ` (${vscode.l10n.t("the gateway's list")})` : ''}` : vscode.l10n.t('price unknown')),
          detail: marks.length > 0 ? marks.join(' · ') : undefined,
        });
      }
      out.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
      out.push({ enter: true, label: `$(edit) ${vscode.l10n.t('Enter a model id…')}`, alwaysShow: true });
      return out;
    })();
    const picked = await this.prompter.pick(items, {
      id: 'switchModel.model',
      title: vscode.l10n.t('Quorum: Switch Model — choose a model'),
      placeHolder: vscode.l10n.t('Prices are US dollars per million tokens (input · output)'),
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    if (!picked.enter) return picked.model;
    const typed = await this.prompter.input({
      id: 'switchModel.enter',
      title: vscode.l10n.t('Quorum: model id'),
      prompt: vscode.l10n.t('Any model id the gateway accepts, for example gpt-4.1 or openai/gpt-4o'),
      value: current[0] ?? '',
      validateInput: (v) => (modelIdSchema.safeParse(v).success ? undefined : vscode.l10n.t('Model ids contain letters, digits and . _ : / @ + - only.')),
    });
    if (typed === undefined) return undefined;
    const parsed = modelIdSchema.safeParse(typed);
    return parsed.success ? parsed.data : undefined;
  }

  /** The price, after the agent's last measured F1 on that model when there is one: `F1 0.72 on shipped corpus · $0.40 in · $1.60 out / MTok`. */
  private describe(measured: string | undefined, price: string): string {
    return measured ? `${measured} · ${price}` : price;
  }

  private async pickTarget(rows: readonly AgentRow[]): Promise<vscode.ConfigurationTarget | undefined> {
    if (!vscode.workspace.workspaceFolders?.length) return vscode.ConfigurationTarget.Global;
    const config = vscode.workspace.getConfiguration('quorum');
    // A model set in the workspace overrides the user setting there: offer the workspace first then.
    const inWorkspace = rows.some((r) => (r.custom ? config.inspect('customAgents')?.workspaceValue : config.inspect(`agents.${r.id}.model`)?.workspaceValue) !== undefined);
    const user: TargetItem = { target: vscode.ConfigurationTarget.Global, label: `$(account) ${vscode.l10n.t('User settings')}`, description: vscode.l10n.t('All your workspaces') };
    const workspace: TargetItem = {
      target: vscode.ConfigurationTarget.Workspace,
      label: `$(folder) ${vscode.l10n.t('Workspace settings')}`,
      description: vscode.l10n.t('Only this workspace'),
      detail: inWorkspace ? vscode.l10n.t('This workspace already sets the model, which overrides the user setting here') : undefined,
    };
    const items = inWorkspace ? [workspace, user] : [user, workspace];
    const picked = await this.prompter.pick(items, { id: 'switchModel.target', title: vscode.l10n.t('Quorum: Switch Model — save where?') });
    return picked?.target;
  }

  private async save(rows: readonly AgentRow[], model: string, target: vscode.ConfigurationTarget): Promise<void> {
    const config = vscode.workspace.getConfiguration('quorum');
    for (const row of rows.filter((r) => !r.custom)) await config.update(`agents.${row.id}.model`, model, target);
    const custom = new Set(rows.filter((r) => r.custom).map((r) => r.id));
    if (custom.size === 0) return;
    // Custom agents live in one list; change the model in the scope that defines them.
    const inspected = config.inspect<unknown[]>('customAgents');
    const scopes: [vscode.ConfigurationTarget, unknown[] | undefined][] = [
      [vscode.ConfigurationTarget.Workspace, inspected?.workspaceValue],
      [vscode.ConfigurationTarget.Global, inspected?.globalValue],
    ];
    for (const [scope, list] of scopes) {
      if (!Array.isArray(list)) continue;
      const mine = (entry: unknown): entry is Record<string, unknown> => isRecord(entry) && custom.has(String(entry.id));
      if (!list.some(mine)) continue;
      await config.update('customAgents', list.map((entry: unknown) => (mine(entry) ? { ...entry, model } : entry)), scope);
    }
  }
}
