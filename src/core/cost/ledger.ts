import type { CostSource } from '../../shared/reviewCodes';
import type { RequestTag } from '../domain/chat';
import { addUsage, cleanUsage, type Usage, zeroUsage } from '../domain/usage';
import type { ListedPriceTable, PriceOverrides } from './prices';
import { priceAttempt, type PricedBy } from './pricing';
import { emptyTotals, type CostTotals, type LedgerTotals } from './totals';

/** One HTTP attempt as the gateway client (or a result cache) reports it to the ledger. */
interface AttemptRecord {
  model: string;
  tag?: RequestTag;
  /** 1 for the first attempt of a request, 2.. for retries and the fallback. */
  attempt: number;
  /** Tokens the attempt used; absent or zero when it never reached the model (a 429, a refused connection). */
  usage?: Usage;
  /** `reported` when the usage came from the gateway, `estimated` when counted locally. */
  usageSource?: 'reported' | 'estimated';
  /** The gateway's own `usage.cost` in US dollars; believed over the price table. */
  reportedCostUsd?: number;
  /** A result-cache hit: recorded so the UI can show it, costs nothing. */
  cached?: boolean;
  outcome: 'ok' | 'failed';
  requestId?: string;
  /** Pricing the same attempt twice is a bug; a repeated key is ignored. */
  key?: string;
}

interface LedgerEntry {
  seq: number;
  at: number;
  model: string;
  agent?: string;
  reviewId?: string;
  attempt: number;
  usage: Usage;
  costUsd: number;
  costSource: CostSource;
  /** Who set the price: the gateway (`usage.cost`), the price table, the gateway's `/models` list, or nobody (unknown model: cost 0). */
  pricedBy: PricedBy;
  outcome: 'ok' | 'failed';
  requestId?: string;
}

type LedgerListener = (totals: LedgerTotals, entry: LedgerEntry | undefined) => void;

/** Agent key for requests without a tag. */
const UNTAGGED = '(other)';

/**
 * Prices every attempt exactly once and keeps session totals, by agent and by model. One ledger per session
 * (extension host or CLI run), fed by the shared gateway client.
 */
export class CostLedger {
  private list: LedgerEntry[] = [];
  private keys = new Set<string>();
  private listeners = new Set<LedgerListener>();
  private seq = 0;

  constructor(
    private readonly prices: () => PriceOverrides = () => ({}),
    /** The prices the current gateway lists in `/models`, for models that neither `quorum.prices` nor the table knows. */
    readonly listedPrices: () => ListedPriceTable = () => ({}),
  ) {}

  /** Prices and stores one attempt; returns the entry, or undefined when `key` was already recorded. */
  record(rec: AttemptRecord): LedgerEntry | undefined {
    if (rec.key !== undefined) {
      if (this.keys.has(rec.key)) return undefined;
      this.keys.add(rec.key);
    }
    const usage = rec.cached ? zeroUsage() : cleanUsage(rec.usage);
    const { costUsd, costSource, pricedBy } = priceAttempt({ model: rec.model, usage, usageSource: rec.usageSource, reportedCostUsd: rec.reportedCostUsd, cached: rec.cached }, this.prices(), this.listedPrices());
    const entry: LedgerEntry = {
      seq: ++this.seq,
      at: Date.now(),
      model: rec.model,
      agent: rec.tag?.agent,
      reviewId: rec.tag?.reviewId,
      attempt: Math.max(1, Math.floor(rec.attempt)),
      usage,
      costUsd,
      costSource,
      pricedBy,
      outcome: rec.outcome,
      requestId: rec.requestId,
    };
    this.list.push(entry);
    this.emit(entry);
    return entry;
  }

  entries(filter?: { reviewId?: string; agent?: string }): LedgerEntry[] {
    return this.list.filter(
      (e) => (filter?.reviewId === undefined || e.reviewId === filter.reviewId) && (filter?.agent === undefined || e.agent === filter.agent),
    );
  }

  /** Totals of the whole session, or of one review when `reviewId` is given. */
  totals(filter?: { reviewId?: string }): LedgerTotals {
    const session = emptyTotals();
    const byAgent: Record<string, CostTotals> = {};
    const byModel: Record<string, CostTotals> = {};
    for (const e of this.entries(filter)) {
      const agent = e.agent ?? UNTAGGED;
      for (const t of [session, (byAgent[agent] ??= emptyTotals()), (byModel[e.model] ??= emptyTotals())]) add(t, e);
    }
    return { session, byAgent, byModel };
  }

  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  onChange(listener: LedgerListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  reset(): void {
    this.list = [];
    this.keys.clear();
    this.emit(undefined);
  }

  private emit(entry: LedgerEntry | undefined): void {
    if (this.listeners.size === 0) return;
    const totals = this.totals();
    for (const l of [...this.listeners]) {
      try {
        l(totals, entry);
      } catch {
        // A failing listener (a disposed status bar) must not break pricing or the other listeners.
      }
    }
  }
}

function add(t: CostTotals, e: LedgerEntry): void {
  t.costUsd += e.costUsd;
  if (e.costSource === 'estimated') t.estimatedUsd += e.costUsd;
  addUsage(t, e.usage);
  if (e.costSource !== 'cached') {
    if (e.attempt === 1) t.requests += 1;
    else t.retries += 1;
  }
  if (e.pricedBy === 'none') t.unpriced += 1;
  if (e.pricedBy === 'list') t.listedUsd += e.costUsd;
}
