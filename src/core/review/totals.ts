import type { Usage } from '../gateway/types';
import type { AgentResult, ReviewTotals } from './types';

export const ZERO_USAGE: Readonly<Usage> = Object.freeze({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 });

/** A review's totals from its agents' results; cache hits count no requests and cost nothing. */
export function totalsOf(results: readonly AgentResult[]): ReviewTotals {
  const t: ReviewTotals = { costUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0, retries: 0 };
  for (const r of results) {
    t.costUsd += r.costUsd;
    t.promptTokens += r.usage.promptTokens;
    t.completionTokens += r.usage.completionTokens;
    t.cachedTokens += r.usage.cachedTokens;
    if (!r.cached && r.attempts > 0) {
      t.requests += 1;
      t.retries += r.attempts - 1;
    }
  }
  t.costUsd = Math.round(t.costUsd * 1e9) / 1e9;
  return t;
}
