
/**
 * Token usage, one definition for the whole core: the zero, the sum, and the clean-up of what a gateway (or
 * a cache file) reported. Every total of tokens — the ledger's, a review's, an agent's failed attempts' — is
 * a sum of `addUsage`.
 */

/** Tokens a model was sent and wrote, as the gateway reported them (or as counted when it did not). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's prompt cache (priced at the cached rate). */
  cachedTokens: number;
  /** Reasoning tokens, included in completionTokens; counted, never shown as the answer. */
  reasoningTokens: number;
}

export const ZERO_USAGE: Readonly<Usage> = Object.freeze({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 });

/** A fresh zero, for accumulating into. */
export function zeroUsage(): Usage {
  return { ...ZERO_USAGE };
}

/** Token fields of a total (cost totals keep no reasoning count). */
interface TokenTotals {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens?: number;
}

/** Adds `more` into `into` (and returns it); reasoning tokens only where `into` counts them. */
export function addUsage<T extends TokenTotals>(into: T, more: Readonly<Usage>): T {
  into.promptTokens += more.promptTokens;
  into.completionTokens += more.completionTokens;
  into.cachedTokens += more.cachedTokens;
  if (into.reasoningTokens !== undefined) into.reasoningTokens += more.reasoningTokens;
  return into;
}

/** The sum of several usages. */
export function sumUsage(list: Iterable<Readonly<Usage>>): Usage {
  const total = zeroUsage();
  for (const u of list) addUsage(total, u);
  return total;
}

function count(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/**
 * Whole, non-negative token counts; cached tokens at most the prompt, reasoning tokens at most the
 * completion (they are parts of them). Missing usage is zero.
 */
export function cleanUsage(u: Readonly<Partial<Usage>> | undefined): Usage {
  if (!u) return zeroUsage();
  const promptTokens = count(u.promptTokens);
  const completionTokens = count(u.completionTokens);
  return {
    promptTokens,
    completionTokens,
    cachedTokens: Math.min(promptTokens, count(u.cachedTokens)),
    reasoningTokens: Math.min(completionTokens, count(u.reasoningTokens)),
  };
}

/** Prompt plus completion tokens. */
export function totalTokens(u: Readonly<Usage>): number {
  return u.promptTokens + u.completionTokens;
}
