import { catalogEntry } from './catalog';

/**
 * Context windows (prompt + answer tokens). The gateway's own figure comes first — what its `/models` lists for
 * that id (core/gateway/models.ts: `context_length`, `context_window`, vLLM's `max_model_len`, llama.cpp's
 * `meta.n_ctx`) — then Quorum's bundled catalogue (core/cost/catalog.ts, which also reads prefixed and dated ids);
 * a model neither knows gets DEFAULT_CONTEXT_WINDOW.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** Context windows a gateway listed in its `/models`, by model id. */
export type ListedContextWindows = Readonly<Record<string, number>>;

export function contextWindowFor(model: string, listed: ListedContextWindows = {}): number {
  const own = Object.hasOwn(listed, model) ? listed[model] : undefined;
  if (own !== undefined && Number.isInteger(own) && own > 0) return own;
  return catalogEntry(model)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}
