import type { CostSource } from '../../shared/reviewCodes';
import { totalTokens, type Usage } from '../domain/usage';
import { estimateCost, type ListedPriceTable, type PriceOverrides } from './prices';

/**
 * THE price of one attempt, for the ledger and for a client without one: a result-cache hit costs nothing;
 * a cost the gateway reported (`usage.cost`) is believed; otherwise the price table times the usage
 * (reported by the gateway or estimated locally); a model without a price costs 0, marked `pricedBy: 'none'`.
 */

interface AttemptToPrice {
  model: string;
  /** Clean usage of the attempt (zero when it never reached the model). */
  usage: Usage;
  usageSource?: 'reported' | 'estimated';
  /** The gateway's own `usage.cost`, US dollars. */
  reportedCostUsd?: number;
  cached?: boolean;
}

interface AttemptPrice {
  costUsd: number;
  costSource: CostSource;
  /**
   * Who set the price: the gateway (its `usage.cost`), Quorum's table or `quorum.prices`, the gateway's
   * `/models` list, or nobody (a model without a price).
   */
  pricedBy: PricedBy;
}

export type PricedBy = 'gateway' | 'table' | 'list' | 'none';

export function priceAttempt(a: AttemptToPrice, overrides: PriceOverrides, listed: ListedPriceTable = {}): AttemptPrice {
  if (a.cached) return { costUsd: 0, costSource: 'cached', pricedBy: 'table' };
  const reported = a.reportedCostUsd;
  if (typeof reported === 'number' && Number.isFinite(reported) && reported >= 0) return { costUsd: reported, costSource: 'reported', pricedBy: 'gateway' };
  if (totalTokens(a.usage) === 0) return { costUsd: 0, costSource: 'none', pricedBy: 'table' };
  const costSource: CostSource = a.usageSource === 'estimated' ? 'estimated' : 'usage';
  const priced = estimateCost(a.model, a.usage, overrides, listed);
  if (priced.priced) return { costUsd: priced.costUsd, costSource, pricedBy: priced.source === 'listed' ? 'list' : 'table' };
  return { costUsd: 0, costSource, pricedBy: 'none' };
}
