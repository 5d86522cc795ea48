/**
 * What the ledger sums, as plain data: the totals of a session, of each agent and of each model. Apart from the
 * ledger (and its price tables) so that the status bar can show a session's cost before anything is priced.
 */

import type { ReviewTotals } from '../domain/result';

/** A review's spending (the fields a review reports) and what the ledger knows besides. */
export interface CostTotals extends ReviewTotals {
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
