import * as z from 'zod';
import { priceSchema, type PriceSettings } from '../settings/schema';
import type { Usage } from '../domain/usage';
import { catalogEntry } from './catalog';

/** US dollars per million tokens. `cachedInput` is the price of prompt tokens served from the prompt cache. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

export type PriceOverrides = Readonly<Record<string, PriceSettings>>;

/** Prices a gateway listed in its `/models` answer, by model id ($ per million tokens). */
export type ListedPriceTable = Readonly<Record<string, ModelPrice>>;

export interface PriceLookup {
  price: ModelPrice;
  /** The key that matched (`gpt-4.1` for `openai/gpt-4.1-2025-04-14`): a `quorum.prices` key, the listed id, the catalogue's id. */
  matched: string;
  /** `quorum.prices`, Quorum's bundled catalogue (core/cost/catalog.ts), or the gateway's `/models` list. */
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
 * Dated or suffixed variants (`gpt-4.1-2025-04-14`, `claude-sonnet-4.5-20250929`) of a `quorum.prices` key: the
 * longest key that is a prefix followed by a separator, so `gpt-4.1-mini-…` finds `gpt-4.1-mini`, not `gpt-4.1`.
 */
function prefixIn(table: Readonly<Record<string, ModelPrice>>, model: string): { matched: string; price: ModelPrice } | undefined {
  let best: { matched: string; price: ModelPrice } | undefined;
  for (const c of candidates(model)) {
    for (const [k, price] of Object.entries(table)) {
      if (!c.startsWith(k.toLowerCase()) || !/^[-_:@]/.test(c.slice(k.length))) continue;
      if (!best || k.length > best.matched.length) best = { matched: k, price };
    }
    if (best) return best;
  }
  return undefined;
}

function validOverrides(overrides: PriceOverrides): Record<string, ModelPrice> {
  const parsed = overridesSchema.safeParse(overrides);
  const valid: Record<string, ModelPrice> = {};
  if (parsed.success) for (const [k, v] of Object.entries(parsed.data)) valid[k] = normalise(v);
  else {
    for (const [k, v] of Object.entries(overrides)) {
      const one = priceSchema.safeParse(v);
      if (one.success) valid[k] = normalise(one.data);
    }
  }
  return valid;
}

/**
 * The price of a model, the user's first, then the gateway's, then the catalogue's:
 * 1. its id in `quorum.prices` (validated; invalid entries are ignored);
 * 2. the longest `quorum.prices` key it extends (`gpt-4.1` for `gpt-4.1-2025-04-14`), unless the catalogue knows
 *    it as a more specific model (overriding `gpt-4.1` does not reprice `gpt-4.1-mini`);
 * 3. the price the gateway lists for exactly that id in its `/models` (OpenRouter's `pricing`, LiteLLM's fields);
 * 4. Quorum's bundled catalogue (core/cost/catalog.ts: dated, prefixed and aliased ids), at the time `at`.
 * `undefined` when none knows the model.
 */
export function priceFor(model: string, overrides: PriceOverrides = {}, listed: ListedPriceTable = {}, at?: Date): PriceLookup | undefined {
  const valid = validOverrides(overrides);
  const exactSettings = exactIn(valid, model);
  if (exactSettings) return { ...exactSettings, source: 'settings' };
  const prefix = prefixIn(valid, model);
  const listedPrice = Object.hasOwn(listed, model) ? listed[model] : undefined;
  // The catalogue is read only when the user's and the gateway's figures leave it a say.
  const known = prefix || !listedPrice ? catalogEntry(model, at) : undefined;
  if (prefix && !(known && known.matched.length > prefix.matched.length)) return { ...prefix, source: 'settings' };
  if (listedPrice) return { matched: model, price: listedPrice, source: 'listed' };
  if (known?.price) return { matched: known.matched, price: known.price, source: 'default' };
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
