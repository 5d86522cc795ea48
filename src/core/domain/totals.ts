import { addUsage } from './usage';
import type { AgentResult, ReviewTotals } from './result';

/** A review's totals from its agents' results; cache hits count no requests and cost nothing. */
export function totalsOf(results: readonly AgentResult[]): ReviewTotals {
  const t = zeroTotals();
  for (const r of results) {
    t.costUsd += r.costUsd;
    t.estimatedUsd += estimatedPart(r);
    addUsage(t, r.usage);
    if (!r.cached && r.attempts > 0) {
      t.requests += 1;
      t.retries += r.attempts - 1;
    }
  }
  t.costUsd = Math.round(t.costUsd * 1e9) / 1e9;
  t.estimatedUsd = Math.round(t.estimatedUsd * 1e9) / 1e9;
  return t;
}

/** Totals of a review that spent nothing. */
export function zeroTotals(): ReviewTotals {
  return { costUsd: 0, estimatedUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0, retries: 0 };
}

/** The part of an agent's cost priced from locally counted tokens. */
export function estimatedPart(r: Pick<AgentResult, 'costUsd' | 'costSource' | 'estimatedUsd'>): number {
  return r.estimatedUsd ?? (r.costSource === 'estimated' ? r.costUsd : 0);
}

/** Two totals added (two parts of one review). */
export function addTotals(a: ReviewTotals, b: ReviewTotals): ReviewTotals {
  return {
    costUsd: Math.round((a.costUsd + b.costUsd) * 1e9) / 1e9,
    estimatedUsd: Math.round((a.estimatedUsd + b.estimatedUsd) * 1e9) / 1e9,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    requests: a.requests + b.requests,
    retries: a.retries + b.retries,
  };
}
