import { addUsage } from '../cost/usage';
import type { AgentResult, ReviewTotals } from './types';

/** A review's totals from its agents' results; cache hits count no requests and cost nothing. */
export function totalsOf(results: readonly AgentResult[]): ReviewTotals {
  const t: ReviewTotals = { costUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0, retries: 0 };
  for (const r of results) {
    t.costUsd += r.costUsd;
    addUsage(t, r.usage);
    if (!r.cached && r.attempts > 0) {
      t.requests += 1;
      t.retries += r.attempts - 1;
    }
  }
  t.costUsd = Math.round(t.costUsd * 1e9) / 1e9;
  return t;
}
