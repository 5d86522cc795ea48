import * as z from 'zod';
import { priceSchema, type PriceSettings } from '../settings/schema';
import type { Usage } from '../gateway/types';

/** US dollars per million tokens. `cachedInput` is the price of prompt tokens served from the prompt cache. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

/**
 * Default prices, $ per million tokens, as published by each provider for its own API (list prices, the
 * short-context tier where a provider has tiers), checked 2025-10:
 * - OpenAI (https://openai.com/api/pricing): gpt-4.1 2.00 / 0.50 cached / 8.00; gpt-4.1-mini 0.40 / 0.10 / 1.60;
 *   gpt-4o 2.50 / 1.25 / 10.00.
 * - Anthropic (https://www.anthropic.com/pricing#api): Claude Sonnet 4.5 3.00 / 0.30 cache read / 15.00.
 * - Google (https://ai.google.dev/gemini-api/docs/pricing): gemini-2.5-flash 0.30 / 0.075 / 2.50;
 *   gemini-2.5-pro (≤200k prompt) 1.25 / 0.31 / 10.00.
 * - DeepSeek (https://api-docs.deepseek.com/quick_start/pricing, V3.2 from 2025-09-29): 0.28 cache miss /
 *   0.028 cache hit / 0.42.
 * The seeds (Korean posts about the HolySheep gateway, 2025) quote one flat figure per model for the gateway —
 * GPT-4.1 $8.00, Claude Sonnet 4.5 $15.00, Gemini 2.5 Flash $2.50, DeepSeek V3.2 $0.42, GPT-4o $2.50 per MTok —
 * which equal the providers' OUTPUT prices above (GPT-4o's is its input price), so the provider table is used;
 * a gateway that charges otherwise can be described in `quorum.prices`, and a gateway that reports
 * `usage.cost` is believed over any table.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gpt-4.1': { input: 2.0, cachedInput: 0.5, output: 8.0 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10.0 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'claude-sonnet-4.5': { input: 3.0, cachedInput: 0.3, output: 15.0 },
  'claude-sonnet-4-5': { input: 3.0, cachedInput: 0.3, output: 15.0 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.075, output: 2.5 },
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.31, output: 10.0 },
  'deepseek-v3.2': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
});

export type PriceOverrides = Readonly<Record<string, PriceSettings>>;

/** Prices a gateway listed in its `/models` answer, by model id ($ per million tokens). */
export type ListedPriceTable = Readonly<Record<string, ModelPrice>>;

export interface PriceLookup {
  price: ModelPrice;
  /** The table key that matched (`gpt-4.1` for `openai/gpt-4.1-2025-04-14`). */
  matched: string;
  /** `quorum.prices`, Quorum's table, or the gateway's `/models` list. */
  source: 'settings' | 'default' | 'listed';
}

const overridesSchema = z.record(z.string(), priceSchema);

function normalise(price: PriceSettings): ModelPrice {
  return { input: price.input, cachedInput: price.cachedInput ?? price.input, output: price.output };
}

/** Candidate keys for a model id, most specific first: itself, lower-cased, without a `provider/` prefix. */
function candidates(model: string): string[] {
  const lower = model.trim().toLowerCase();
  const bare = lower.slice(lower.lastIndexOf('/') + 1);
  return [...new Set([model, lower, bare])];
}

function exactIn(table: Readonly<Record<string, ModelPrice>>, model: string): { matched: string; price: ModelPrice } | undefined {
  const entries = Object.entries(table);
  for (const c of candidates(model)) {
    const exact = entries.find(([k]) => k === c || k.toLowerCase() === c);
    if (exact) return { matched: exact[0], price: exact[1] };
  }
  return undefined;
}

/**
 * Dated or suffixed variants (`gpt-4.1-2025-04-14`, `claude-sonnet-4.5-20250929`): the longest key of any
 * table that is a prefix followed by a separator, so `gpt-4.1-mini-…` finds `gpt-4.1-mini`, not `gpt-4.1`;
 * on equal length the earlier table wins.
 */
function prefixIn(tables: readonly Readonly<Record<string, ModelPrice>>[], model: string): { matched: string; price: ModelPrice; table: number } | undefined {
  let best: { matched: string; price: ModelPrice; table: number } | undefined;
  for (const c of candidates(model)) {
    tables.forEach((table, t) => {
      for (const [k, price] of Object.entries(table)) {
        if (!c.startsWith(k.toLowerCase()) || !/^[-_:@]/.test(c.slice(k.length))) continue;
        if (!best || k.length > best.matched.length) best = { matched: k, price, table: t };
      }
    });
    if (best) return best;
  }
  return undefined;
}

/**
 * The price of a model: its exact id in the settings overrides (validated; invalid entries are ignored), then
 * in the default table, then the longest prefix in either when it is the overrides', then the price the gateway
 * lists for exactly that id in its `/models`, then that longest prefix of the default table. `undefined` when
 * none knows the model.
 */
export function priceFor(model: string, overrides: PriceOverrides = {}, listed: ListedPriceTable = {}): PriceLookup | undefined {
  const parsed = overridesSchema.safeParse(overrides);
  const valid: Record<string, ModelPrice> = {};
  if (parsed.success) for (const [k, v] of Object.entries(parsed.data)) valid[k] = normalise(v);
  else {
    for (const [k, v] of Object.entries(overrides)) {
      const one = priceSchema.safeParse(v);
      if (one.success) valid[k] = normalise(one.data);
    }
  }
  // An exact id in either table wins over any prefix match: overriding `gpt-4.1` does not reprice `gpt-4.1-mini`.
  const exactSettings = exactIn(valid, model);
  if (exactSettings) return { ...exactSettings, source: 'settings' };
  const exactDefault = exactIn(DEFAULT_PRICES, model);
  if (exactDefault) return { ...exactDefault, source: 'default' };
  // The user's own prices win over the gateway's list; the gateway's list wins over a guess from a prefix.
  const prefix = prefixIn([valid, DEFAULT_PRICES], model);
  if (prefix && prefix.table === 0) return { matched: prefix.matched, price: prefix.price, source: 'settings' };
  const listedPrice = Object.hasOwn(listed, model) ? listed[model] : undefined;
  if (listedPrice) return { matched: model, price: listedPrice, source: 'listed' };
  if (prefix) return { matched: prefix.matched, price: prefix.price, source: 'default' };
  return undefined;
}

interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  /** Part of promptTokens served from the prompt cache. */
  cachedTokens?: number;
}

/** Cost in US dollars of the given tokens at a price; cached prompt tokens at the cached price. */
export function costOf(price: ModelPrice, tokens: TokenCounts): number {
  const prompt = Math.max(0, tokens.promptTokens);
  const cached = Math.min(prompt, Math.max(0, tokens.cachedTokens ?? 0));
  const completion = Math.max(0, tokens.completionTokens);
  return ((prompt - cached) * price.input + cached * price.cachedInput + completion * price.output) / 1_000_000;
}

interface CostEstimateResult {
  costUsd: number;
  /** False when the model has no price: the figure is then 0 and should be shown as unknown. */
  priced: boolean;
  price?: ModelPrice;
  /** Where the price came from. */
  source?: PriceLookup['source'];
}

/**
 * Cost of a request from token counts (a pre-send estimate: prompt tokens counted, completion tokens at
 * `max_tokens`; or usage after the fact).
 */
export function estimateCost(model: string, tokens: TokenCounts | Usage, overrides: PriceOverrides = {}, listed: ListedPriceTable = {}): CostEstimateResult {
  const lookup = priceFor(model, overrides, listed);
  if (!lookup) return { costUsd: 0, priced: false };
  return { costUsd: costOf(lookup.price, tokens), priced: true, price: lookup.price, source: lookup.source };
}
