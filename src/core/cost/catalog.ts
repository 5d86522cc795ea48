import type { ModelPrice } from './prices';

/**
 * Quorum's bundled catalogue of model prices and context windows: `@pydantic/genai-prices` (MIT, Pydantic; its
 * data, github.com/pydantic/genai-prices prices/providers/*.yml, is compiled into the package, so nothing is
 * fetched: its `updatePrices` is never called). The package is loaded on the first lookup, not when Quorum starts
 * (0.5 MB of data; in the extension's build a file of its own, esbuild.js: LAZY_MODULES).
 *
 * Each catalogue model has a `match` rule (equals / starts_with / regex…) that already takes dated and aliased ids
 * (`gpt-4.1-2025-04-14`, `claude-sonnet-4-5-20250929`, `claude-3-5-sonnet-latest`); Quorum adds the spellings
 * gateways use: a `provider/` prefix (OpenRouter, LiteLLM: `openai/gpt-5`, `anthropic/claude-sonnet-4.5`, looked up
 * at that provider, then at any, then as OpenRouter's own id), Vertex's `@date`, `-latest` and Ollama's `:latest`.
 * Prices are $ per million tokens: `input_mtok`, `cache_read_mtok` (the cached input price; the input price where
 * none is listed) and `output_mtok`; a tiered price (Anthropic's and Google's above 200k prompt tokens) counts at
 * its base tier; a price that depends on the time (DeepSeek's off-peak hours, a price change from a date) is the
 * one in force at `at`.
 */

type GenaiPrices = typeof import('@pydantic/genai-prices');
type CatalogModel = NonNullable<ReturnType<GenaiPrices['calcPrice']>>;

let library: GenaiPrices | undefined;

function catalogue(): GenaiPrices {
  if (!library) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deliberate lazy load (see above)
    const loaded = require('@pydantic/genai-prices') as GenaiPrices;
    library = loaded;
  }
  return library;
}

interface CatalogEntry {
  /** The catalogue's id of the model that matched (`gpt-4.1` for `openai/gpt-4.1-2025-04-14`). */
  matched: string;
  /** The catalogue's provider of that model (`openai`, `openrouter`…). */
  provider: string;
  /** Undefined when the catalogue lists the model without a token price (an audio or image model). */
  price?: ModelPrice;
  contextWindow?: number;
}

/** A price field at its base tier, or undefined when absent or not a usable number. */
function perMTok(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'object' && value !== null && 'base' in value ? value.base : undefined;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

function entryOf(found: CatalogModel): CatalogEntry {
  const p = found.model_price;
  const input = perMTok(p.input_mtok);
  const output = perMTok(p.output_mtok);
  const cached = perMTok(p.cache_read_mtok);
  const window = found.model.context_window;
  // Shared by every caller through the memo below: frozen.
  return Object.freeze({
    matched: found.model.id,
    provider: found.provider.id,
    ...(input !== undefined && output !== undefined ? { price: Object.freeze({ input, cachedInput: cached !== undefined && cached <= input ? cached : input, output }) } : {}),
    ...(typeof window === 'number' && Number.isInteger(window) && window > 0 ? { contextWindow: window } : {}),
  });
}

/** The spellings of `model` to look up, most specific first, each with the provider to look it up at. */
function spellings(model: string): { id: string; providerId?: string }[] {
  const lower = model.trim().toLowerCase();
  const out: { id: string; providerId?: string }[] = [{ id: lower }];
  const slash = lower.lastIndexOf('/');
  const bare = slash >= 0 ? lower.slice(slash + 1) : lower;
  if (slash >= 0) {
    const provider = lower.slice(0, lower.indexOf('/'));
    if (provider && catalogue().findProvider({ providerId: provider })) out.push({ id: bare, providerId: provider });
    out.push({ id: bare }, { id: lower, providerId: 'openrouter' });
  }
  const plain = bare.replace(/@\d{8}$/, '').replace(/[-:]latest$/, '');
  if (plain !== bare && plain) out.push({ id: plain });
  return out;
}

/**
 * Lookups already made, by model id and the minute they were for (a price in force changes at most on a minute:
 * DeepSeek's off-peak hours start at 16:30 UTC): Switch Model prices every model an OpenRouter lists, several
 * hundred, each a scan of the catalogue (about 0.1 ms).
 */
const memo = new Map<string, CatalogEntry | undefined>();
const MEMO_SIZE = 2_000;

/** What the catalogue says of `model` (its price in force at `at`), or undefined when it does not know it. */
export function catalogEntry(model: string, at: Date = new Date()): CatalogEntry | undefined {
  if (model.trim() === '' || model.length > 300) return undefined;
  const key = `${Math.floor(at.getTime() / 60_000)}\n${model}`;
  if (memo.has(key)) return memo.get(key);
  if (memo.size >= MEMO_SIZE) memo.clear();
  const entry = lookUp(model, at);
  memo.set(key, entry);
  return entry;
}

function lookUp(model: string, at: Date): CatalogEntry | undefined {
  const lib = catalogue();
  for (const s of spellings(model)) {
    let found: CatalogModel | null;
    try {
      found = lib.calcPrice({ input_tokens: 0, output_tokens: 0 }, s.id, { ...(s.providerId ? { providerId: s.providerId } : {}), timestamp: at });
    } catch {
      found = null; // a catalogue entry it cannot price (an unknown constraint) is no price
    }
    if (found) return entryOf(found);
  }
  return undefined;
}

/** The catalogue's price of `model`, $ per million tokens, or undefined. */
export function catalogPrice(model: string, at?: Date): ModelPrice | undefined {
  return catalogEntry(model, at)?.price;
}
