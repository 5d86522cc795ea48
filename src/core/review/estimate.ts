import { contextWindowFor } from '../agents/contextWindows';
import { estimateCost, type ListedPriceTable } from '../cost/prices';
import type { QuorumSettings } from '../settings/schema';
import { countTokens } from '../tokens/count';
import { likelyOutputTokens } from './likelyOutput';
import type { PlannedAgent } from './plan';
import type { AgentEstimate, ReviewEstimate, ReviewTarget } from './types';

/** Tokens allowed, in an estimate, for each input a dependent agent will receive. */
const INPUT_ALLOWANCE_TOKENS = 1500;

/** Prompt sizes, context-window checks and the review's likely and ceiling cost, from the planned agents' messages. */
export function estimateOf(agents: readonly PlannedAgent[], target: ReviewTarget, settings: QuorumSettings, cached: (agent: PlannedAgent) => boolean, listed: ListedPriceTable = {}): ReviewEstimate {
  const perAgent: Record<string, AgentEstimate> = {};
  let costUsd = 0;
  let likelyUsd = 0;
  const reviewedTokens = target.regions.reduce((n, r) => n + countTokens(r.text), 0);
  for (const agent of agents) {
    const e = estimateAgent(agent, reviewedTokens, settings, cached(agent), listed);
    perAgent[agent.spec.id] = e;
    costUsd += e.costUsd;
    likelyUsd += e.likelyUsd;
  }
  return { perAgent, costUsd, likelyUsd, order: agents.map((a) => a.spec.id) };
}

function estimateAgent({ spec, inputs, promptTokens: sent }: PlannedAgent, reviewedTokens: number, settings: QuorumSettings, cached: boolean, listed: ListedPriceTable): AgentEstimate {
  const promptTokens = sent + inputs.length * INPUT_ALLOWANCE_TOKENS;
  const maxCompletionTokens = settings.review.maxOutputTokens;
  const contextWindow = contextWindowFor(spec.model);
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
