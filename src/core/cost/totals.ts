/**
 * What the ledger sums, as plain data: the totals of a session, of each agent and of each model. Apart from the
 * ledger (and its price tables) so that the status bar can show a session's cost before anything is priced.
 */

export interface CostTotals {
  costUsd: number;
  /** The part of costUsd computed from locally estimated usage. */
  estimatedUsd: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Requests (first attempts), not counting result-cache hits. */
  requests: number;
  /** Attempts after the first: retries and fallbacks. */
  retries: number;
  /** Attempts whose model had no price (their cost is 0 and unknown). */
  unpriced: number;
  /** The part of costUsd priced at the gateway's listed prices (`/models`), not Quorum's table. */
  listedUsd: number;
}

export interface LedgerTotals {
  session: CostTotals;
  byAgent: Record<string, CostTotals>;
  byModel: Record<string, CostTotals>;
}

export function emptyTotals(): CostTotals {
  return { costUsd: 0, estimatedUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0, retries: 0, unpriced: 0, listedUsd: 0 };
}

/** The totals of a session in which nothing was sent yet. */
export function emptyLedgerTotals(): LedgerTotals {
  return { session: emptyTotals(), byAgent: {}, byModel: {} };
}
