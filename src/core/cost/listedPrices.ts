import * as z from 'zod';
import type { ModelPrice } from './prices';
import { field } from '../../shared/guards';

/**
 * Prices a gateway lists in its `/models` answer, used before the catalogue's (core/cost/prices.ts: priceFor).
 * Gateways write them three ways:
 * - OpenRouter: `pricing: { prompt: "0.000003", completion: "0.000015", input_cache_read: "0.0000003" }`,
 *   US dollars per token, as strings (`"-1"` for routers whose price depends on the model they pick: https://openrouter.ai/docs/api-reference/list-available-models);
 * - LiteLLM-style: `input_cost_per_token` / `output_cost_per_token` (and `cache_read_input_token_cost`) per token;
 * - Together-style: `pricing: { input: 0.88, output: 0.88 }` per million tokens.
 * A listed price is untrusted input: it is used only when input and output both parse as finite, non-negative
 * numbers of at most MAX_LISTED_USD_PER_MTOK per million tokens; anything else is no price at all.
 */

/** The most a listed price may be, $ per million tokens (the same bound as `quorum.prices`). */
const MAX_LISTED_USD_PER_MTOK = 10_000;

/** A decimal number, as a JSON number or a string of one (no hex, no `Infinity`, no empty string). */
const amount = z.union([
  z.number(),
  z.string().trim().regex(/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/).transform(Number),
]);

const perTokenPricing = z.looseObject({ prompt: amount, completion: amount, input_cache_read: amount.optional().catch(undefined) });
const perMillionPricing = z.looseObject({ input: amount, output: amount, cached_input: amount.optional().catch(undefined) });
const perTokenFields = z.looseObject({
  input_cost_per_token: amount,
  output_cost_per_token: amount,
  cache_read_input_token_cost: amount.optional().catch(undefined),
});

function inRange(perMTok: number): boolean {
  return Number.isFinite(perMTok) && perMTok >= 0 && perMTok <= MAX_LISTED_USD_PER_MTOK;
}

/** Rounds away float noise of the per-token × 1e6 conversion (0.000003 × 1e6 = 2.9999999999999996). */
function tidy(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

function price(input: number, output: number, cachedInput: number | undefined): ModelPrice | undefined {
  if (!inRange(input) || !inRange(output)) return undefined;
  const cached = cachedInput !== undefined && inRange(cachedInput) && cachedInput <= input ? cachedInput : input;
  return { input: tidy(input), cachedInput: tidy(cached), output: tidy(output) };
}

/** The price in one `/models` entry, $ per million tokens, or undefined when it lists none that makes sense. */
export function parseListedPrice(entry: unknown): ModelPrice | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const pricing = field(entry, 'pricing');
  const openRouter = perTokenPricing.safeParse(pricing);
  if (openRouter.success) {
    const p = openRouter.data;
    return price(p.prompt * 1e6, p.completion * 1e6, p.input_cache_read === undefined ? undefined : p.input_cache_read * 1e6);
  }
  const perMillion = perMillionPricing.safeParse(pricing);
  if (perMillion.success) return price(perMillion.data.input, perMillion.data.output, perMillion.data.cached_input);
  const fields = perTokenFields.safeParse(entry);
  if (fields.success) {
    const f = fields.data;
    return price(f.input_cost_per_token * 1e6, f.output_cost_per_token * 1e6, f.cache_read_input_token_cost === undefined ? undefined : f.cache_read_input_token_cost * 1e6);
  }
  return undefined;
}

interface Listed {
  at: number;
  /** The ids listed, in the gateway's order; undefined when the gateway gave no list. */
  ids: readonly string[] | undefined;
  prices: Readonly<Record<string, ModelPrice>>;
  windows: Readonly<Record<string, number>>;
}

/**
 * What each gateway (base URL) listed in its latest `/models` answer: its model ids, the prices and the context
 * windows it gave (its own figures, used before the catalogue's).
 */
export class ListedPrices {
  private readonly byGateway = new Map<string, Listed>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Replaces what a gateway lists with its latest `/models` answer. */
  learn(baseUrl: string, models: readonly { id: string; price?: ModelPrice; contextWindow?: number }[]): void {
    const prices: Record<string, ModelPrice> = {};
    const windows: Record<string, number> = {};
    for (const m of models) {
      if (m.price) prices[m.id] = m.price;
      if (m.contextWindow) windows[m.id] = m.contextWindow;
    }
    this.byGateway.set(baseUrl, { at: this.now(), ids: Object.freeze(models.map((m) => m.id)), prices: Object.freeze(prices), windows: Object.freeze(windows) });
  }

  /** The gateway answered `/models` with no list (an error, a gateway without one): not asked again for a while. */
  unlisted(baseUrl: string): void {
    this.byGateway.set(baseUrl, { at: this.now(), ids: undefined, prices: {}, windows: {} });
  }

  /** The prices a gateway listed (empty when its `/models` was not read, or listed none). */
  for(baseUrl: string): Readonly<Record<string, ModelPrice>> {
    return this.byGateway.get(baseUrl)?.prices ?? {};
  }

  /** The context windows a gateway listed (empty when its `/models` was not read, or listed none). */
  windowsFor(baseUrl: string): Readonly<Record<string, number>> {
    return this.byGateway.get(baseUrl)?.windows ?? {};
  }

  /** The model ids a gateway listed, or undefined when its `/models` was not read or gave no list. */
  idsFor(baseUrl: string): readonly string[] | undefined {
    return this.byGateway.get(baseUrl)?.ids;
  }

  /** When the gateway's `/models` was last read, or undefined. */
  learnedAt(baseUrl: string): number | undefined {
    return this.byGateway.get(baseUrl)?.at;
  }
}
