import { contextWindowFor, type ListedContextWindows } from '../cost/contextWindows';
import { estimateCost, type ListedPriceTable } from '../cost/prices';
import type { QuorumSettings } from '../settings/schema';
import { BUILTIN_AGENTS, VERIFIER } from '../../shared/builtinAgents';
import { countTokens } from '../tokens/count';
import { likelyOutputTokens } from './likelyOutput';
import type { PlannedAgent } from './plan';
import type { AgentEstimate, ReviewEstimate } from '../domain/estimate';
import type { ReviewTarget } from '../domain/target';

/** Tokens allowed, in an estimate, for each input a dependent agent will receive. */
const INPUT_ALLOWANCE_TOKENS = 1500;

/** Prompt sizes, context-window checks and the review's likely and ceiling cost, from the planned agents' messages. */
export function estimateOf(agents: readonly PlannedAgent[], target: ReviewTarget, settings: QuorumSettings, cached: (agent: PlannedAgent) => boolean, listed: ListedPriceTable = {}, windows: ListedContextWindows = {}): ReviewEstimate {
  const perAgent: Record<string, AgentEstimate> = {};
  let costUsd = 0;
  let likelyUsd = 0;
  const reviewedTokens = target.regions.reduce((n, r) => n + countTokens(r.text), 0);
  for (const agent of agents) {
    const e = estimateAgent(agent, reviewedTokens, settings, cached(agent), listed, windows);
    perAgent[agent.spec.id] = e;
    costUsd += e.costUsd;
    likelyUsd += e.likelyUsd;
  }
  const verifier = estimateVerifier(agents, reviewedTokens, settings, agents.every(cached), listed, windows);
  if (verifier) {
    perAgent[VERIFIER.id] = verifier;
    costUsd += verifier.costUsd;
    likelyUsd += verifier.likelyUsd;
  }
  return { perAgent, costUsd, likelyUsd, order: agents.map((a) => a.spec.id) };
}

/** Findings a findings agent typically reports (a typical answer over a finding's typical length). */
const TYPICAL_FINDINGS_PER_AGENT = 4;
/** The verifier's instructions, and what each finding adds: its text and the code around its lines. */
const VERIFIER_BASE_TOKENS = 400;
const VERIFIER_TOKENS_PER_FINDING = 120;
const VERIFIER_CODE_TOKENS_PER_FINDING = 200;
/** A verdict: the id, the verdict and a sentence or two of reason. */
const VERDICT_TOKENS = 50;

/**
 * The verification step's share (quorum.review.verify): the findings the reviewers typically report, each sent with
 * its code, on the model it would run on (the configured verifier model, else one no reviewer uses, for
 * `cross-model`). None when verification is off or no agent reports findings.
 */
function estimateVerifier(agents: readonly PlannedAgent[], reviewedTokens: number, settings: QuorumSettings, cached: boolean, listed: ListedPriceTable, windows: ListedContextWindows): AgentEstimate | undefined {
  const mode = settings.review.verify;
  const reviewers = agents.filter((a) => a.spec.role === 'reviewer');
  if (mode === 'off' || reviewers.length === 0) return undefined;
  const used = new Set(reviewers.map((a) => a.spec.model.toLowerCase()));
  const configured = settings.agents.verifier.model;
  const model =
    configured ||
    (mode === 'same-model' ? reviewers[0]?.spec.model : [...agents.map((a) => a.spec.model), ...Object.values(BUILTIN_AGENTS).map((a) => a.defaultModel)].find((m) => !used.has(m.toLowerCase()))) ||
    reviewers[0]?.spec.model ||
    BUILTIN_AGENTS.analyst.defaultModel;
  const findings = reviewers.length * TYPICAL_FINDINGS_PER_AGENT;
  const promptTokens = VERIFIER_BASE_TOKENS + findings * (VERIFIER_TOKENS_PER_FINDING + Math.min(reviewedTokens, VERIFIER_CODE_TOKENS_PER_FINDING));
  const maxCompletionTokens = settings.review.maxOutputTokens;
  const likelyCompletionTokens = Math.min(maxCompletionTokens, findings * VERDICT_TOKENS);
  const priced = (completionTokens: number) => (cached ? 0 : estimateCost(model, { promptTokens, completionTokens }, settings.prices, listed).costUsd);
  return { model, promptTokens, maxCompletionTokens, costUsd: priced(maxCompletionTokens), likelyCompletionTokens, likelyUsd: priced(likelyCompletionTokens), contextWindow: contextWindowFor(model, windows) };
}

function estimateAgent({ spec, inputs, promptTokens: sent }: PlannedAgent, reviewedTokens: number, settings: QuorumSettings, cached: boolean, listed: ListedPriceTable, windows: ListedContextWindows): AgentEstimate {
  const promptTokens = sent + inputs.length * INPUT_ALLOWANCE_TOKENS;
  const maxCompletionTokens = settings.review.maxOutputTokens;
  const contextWindow = contextWindowFor(spec.model, windows);
  const likelyCompletionTokens = likelyOutputTokens(spec.output, reviewedTokens, maxCompletionTokens);
  const priced = (completionTokens: number) => (cached ? 0 : estimateCost(spec.model, { promptTokens, completionTokens }, settings.prices, listed).costUsd);
  const size = promptTokens + maxCompletionTokens;
  return {
    model: spec.model,
    promptTokens,
    maxCompletionTokens,
    costUsd: priced(maxCompletionTokens),
    likelyCompletionTokens,
    likelyUsd: priced(likelyCompletionTokens),
    contextWindow,
    ...(size > contextWindow ? { tooLarge: { limit: contextWindow, size } } : {}),
  };
}
