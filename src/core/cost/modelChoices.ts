import { BUILTIN_AGENTS } from '../../shared/builtinAgents';
import { priceFor, type ListedPriceTable, type ModelPrice, type PriceLookup, type PriceOverrides } from './prices';

/**
 * The models offered by "Switch Model…": the gateway's `/models` merged with the models in use, each with its
 * price (core/cost/prices.ts: `quorum.prices`, the gateway's list, the catalogue).
 */
interface ModelChoice {
  id: string;
  price?: ModelPrice;
  /** Where the price comes from: `quorum.prices`, Quorum's catalogue, or the gateway's `/models` list. */
  priceSource?: PriceLookup['source'];
  /** Listed by the gateway's `/models` (false: only in use, a built-in default or in `quorum.prices`). */
  listed: boolean;
  current: boolean;
  /** One of the closest ids to a model the gateway did not know. */
  suggested: boolean;
}

interface ModelChoiceInput {
  /** Ids from `/models`, or undefined when it could not be listed. */
  gatewayModels: readonly string[] | undefined;
  /** Prices the gateway listed with its models (used before the catalogue's). */
  listedPrices?: ListedPriceTable;
  overrides: PriceOverrides;
  /** The model(s) currently set for the chosen agent(s). */
  current: readonly string[];
  suggestions?: readonly string[];
}

export function buildModelChoices(input: ModelChoiceInput): ModelChoice[] {
  const listed = new Set(input.gatewayModels ?? []);
  const ids = new Set<string>([...(input.suggestions ?? []), ...input.current, ...(input.gatewayModels ?? [])]);
  // Without /models, the built-in agents' models and the user's priced ones are the best list we have.
  if (input.gatewayModels === undefined) {
    for (const agent of Object.values(BUILTIN_AGENTS)) ids.add(agent.defaultModel);
    for (const id of Object.keys(input.overrides)) ids.add(id);
  }
  const suggestions = new Set(input.suggestions ?? []);
  const current = new Set(input.current);
  const out = [...ids].map((id): ModelChoice => {
    const lookup = priceFor(id, input.overrides, input.listedPrices);
    return { id, price: lookup?.price, priceSource: lookup?.source, listed: listed.has(id), current: current.has(id), suggested: suggestions.has(id) };
  });
  const rank = (c: ModelChoice): number => (c.suggested ? 0 : c.current ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
}

/** `$2.00 in · $8.00 out / MTok` style figures, locale-independent. */
export function priceLabel(price: ModelPrice | undefined): string | undefined {
  if (!price) return undefined;
  const f = (n: number): string => `$${n < 0.1 && n > 0 ? n.toFixed(3) : n.toFixed(2)}`;
  return `${f(price.input)} in · ${f(price.output)} out / MTok`;
}
