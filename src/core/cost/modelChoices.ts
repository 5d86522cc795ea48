import { DEFAULT_PRICES, priceFor, type ListedPriceTable, type ModelPrice, type PriceLookup, type PriceOverrides } from './prices';

/**
 * The models offered by "Switch Model…": the gateway's `/models` merged with the price table and the
 * models in use, each with its price.
 */
interface ModelChoice {
  id: string;
  price?: ModelPrice;
  /** Where the price comes from: `quorum.prices`, Quorum's table, or the gateway's `/models` list. */
  priceSource?: PriceLookup['source'];
  /** Listed by the gateway's `/models` (false: only known from the price table or settings). */
  listed: boolean;
  current: boolean;
  /** One of the closest ids to a model the gateway did not know. */
  suggested: boolean;
}

interface ModelChoiceInput {
  /** Ids from `/models`, or undefined when it could not be listed. */
  gatewayModels: readonly string[] | undefined;
  /** Prices the gateway listed with its models (used for models that the settings and the table do not price). */
  listedPrices?: ListedPriceTable;
  overrides: PriceOverrides;
  /** The model(s) currently set for the chosen agent(s). */
  current: readonly string[];
  suggestions?: readonly string[];
}

export function buildModelChoices(input: ModelChoiceInput): ModelChoice[] {
  const listed = new Set(input.gatewayModels ?? []);
  const ids = new Set<string>([...(input.suggestions ?? []), ...input.current, ...(input.gatewayModels ?? [])]);
  // Without /models, the price table is the best list we have; with it, the table only adds prices.
  if (input.gatewayModels === undefined) {
    for (const id of Object.keys(DEFAULT_PRICES)) ids.add(id);
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
