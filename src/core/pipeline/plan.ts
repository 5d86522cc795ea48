import { normalizeLanguage } from '../agents/language';
import { buildMessages, type AgentInput } from '../agents/messages';
import { resolveAgents, selectAgents, topologicalOrder } from '../agents/registry';
import type { AgentSpec } from '../agents/spec';
import type { ChatMessage } from '../domain/chat';
import { agentRules } from '../prompt/shape';
import { modelIdSchema, type QuorumSettings } from '../settings/schema';
import { countChatTokens } from '../tokens/count';
import { cacheKey } from './cache';
import { ReviewConfigError } from './errors';
import type { ListedPriceTable } from '../cost/prices';
import type { ListedContextWindows } from '../cost/contextWindows';
import { estimateOf } from './estimate';
import type { ReviewEstimate } from '../domain/estimate';
import type { ReviewOptions } from './options';
import type { ReviewTarget } from '../domain/target';
import { lineLabel } from '../../shared/lineLabel';

/**
 * Planning a review, once: the agents in run order, each one's rules, messages and cache key, and the estimate
 * made from them. `ReviewPipeline.estimate` returns the plan; `ReviewPipeline.run` sends it.
 */

export interface PlannedAgent {
  spec: AgentSpec;
  /** Agents whose results this one waits for and reads: its dependencies, or in sequential mode all before it. */
  inputs: string[];
  /** The repository rules in this agent's prompt, and the version they add to its cache key ('' without rules). */
  rules: { block: string; version: string };
  /** What the agent is sent before any other agent answers: final for an agent without inputs. */
  messages: ChatMessage[];
  /** The tokens of `messages`. */
  promptTokens: number;
  /** The cache key of an agent without inputs; a dependent agent's key is made when its inputs have answered. */
  cacheKey?: string;
}

export interface ReviewPlan {
  /** The target as it will be sent. */
  target: ReviewTarget;
  options: ReviewOptions;
  /** The settings read when the review was planned, with the repository's own agents among the custom agents. */
  settings: QuorumSettings;
  /** The resolved output language. */
  language: string;
  agents: PlannedAgent[];
  estimate: ReviewEstimate;
  /** The context windows the gateway lists in `/models` (its own figures come before the catalogue's). */
  contextWindows?: ListedContextWindows;
}

/** Plans `target`: throws a `ReviewConfigError` when there is nothing to review or the agents are misconfigured. */
export function planReview(target: ReviewTarget, options: ReviewOptions, configured: QuorumSettings, isCached: (key: string) => boolean, listed: ListedPriceTable = {}, windows: ListedContextWindows = {}): ReviewPlan {
  checkTarget(target);
  const projectAgents = options.prompt?.projectAgents ?? [];
  // The repository's own agents join the configured custom agents (and are checked the same way).
  const settings = projectAgents.length > 0 ? { ...configured, customAgents: [...configured.customAgents, ...projectAgents] } : configured;
  const ordered = topologicalOrder(chooseAgents(settings, options));
  const sequential = settings.review.mode === 'sequential';
  const language = normalizeLanguage(options.language) ?? 'en';
  const agents = ordered.map((spec, i): PlannedAgent => {
    const inputs = sequential ? ordered.slice(0, i).map((a) => a.id) : [...spec.dependsOn];
    const { block, version } = agentRules(options.prompt, spec.id);
    const planned: PlannedAgent = { spec, inputs, rules: { block, version }, messages: [], promptTokens: 0 };
    planned.messages = messagesFor(planned, { target, options, language });
    planned.promptTokens = countChatTokens(planned.messages);
    if (inputs.length === 0) planned.cacheKey = keyFor(planned, { target, settings, language }, planned.messages);
    return planned;
  });
  const estimate = estimateOf(agents, target, settings, (a) => a.cacheKey !== undefined && !options.noCache && isCached(a.cacheKey), listed, windows);
  return { target, options, settings, language, agents, estimate, contextWindows: windows };
}

function checkTarget(target: ReviewTarget): void {
  const bad = target.regions.find((r) => !(r.startLine >= 1) || !(r.endLine >= r.startLine));
  if (target.regions.length > 0 && !bad && target.regions.some((r) => r.text.trim() !== '')) return;
  const where = bad ?? target.regions[0];
  throw new ReviewConfigError('empty-target', where ? `nothing to review in ${where.file} ${lineLabel(where.startLine, where.endLine)}` : `nothing to review in ${target.label}`);
}

/** The enabled agents the options select, with the options' models; a `ReviewConfigError` for anything unknown or invalid. */
function chooseAgents(settings: QuorumSettings, options: ReviewOptions): AgentSpec[] {
  const resolved = resolveAgents(settings);
  const fatal = resolved.issues.filter((i) => i.fatal);
  if (fatal.length > 0) throw new ReviewConfigError('invalid-agents', fatal.map((i) => i.message).join('; '), { issues: fatal });
  const { agents, unknown } = selectAgents(resolved.agents, options.agents);
  if (unknown.length > 0) {
    const known = resolved.agents.map((a) => a.id).join(', ');
    throw new ReviewConfigError('unknown-agent', `unknown agent ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${known})`, { related: unknown });
  }
  for (const [agent, model] of Object.entries(options.modelOverrides ?? {})) {
    const spec = agents.find((a) => a.id === agent);
    if (!spec) {
      if (resolved.agents.some((a) => a.id === agent)) continue;
      throw new ReviewConfigError('unknown-agent', `a model was given for unknown agent "${agent}"`, { related: [agent] });
    }
    const parsed = modelIdSchema.safeParse(model);
    if (!parsed.success) throw new ReviewConfigError('invalid-model', `"${model}" is not a valid model id for agent "${agent}"`, { related: [agent] });
    spec.model = parsed.data;
  }
  if (agents.length === 0) throw new ReviewConfigError('no-agents', 'no agent is enabled');
  return agents;
}

/** An agent's messages, with the results of the agents it reads once they have answered. */
export function messagesFor(agent: PlannedAgent, plan: Pick<ReviewPlan, 'target' | 'options' | 'language'>, inputs: readonly AgentInput[] = []): ChatMessage[] {
  const { target, options, language } = plan;
  return buildMessages({ agent: agent.spec, target, language, inputs, rules: agent.rules.block, redacted: options.prompt?.redacted === true });
}

/** What makes two requests of an agent the same answer: its prompt's version, model, messages and answer options. */
export function keyFor(agent: PlannedAgent, plan: Pick<ReviewPlan, 'target' | 'settings' | 'language'>, messages: readonly ChatMessage[]): string {
  const { spec, rules } = agent;
  return cacheKey({
    agent: spec.id,
    model: spec.model,
    fallbackModel: spec.fallbackModel,
    // Repository rules change the prompt, so they version it.
    promptVersion: rules.version ? `${spec.promptVersion}+${rules.version}` : spec.promptVersion,
    language: plan.language,
    regions: plan.target.regions.map((r) => ({ file: r.file, startLine: r.startLine, endLine: r.endLine })),
    messages,
    maxTokens: plan.settings.review.maxOutputTokens,
    responseFormat: plan.settings.gateway.useResponseFormat,
  });
}
