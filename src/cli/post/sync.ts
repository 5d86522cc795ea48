import type { Previous, PreviousThread } from './host';

/**
 * What this run adds to what earlier runs left: a finding whose key is known (in a Quorum thread, or in a body
 * that is never edited) is not posted again; a Quorum thread none of whose keys is raised any more is resolved
 * once.
 */

interface SyncPlan<T> {
  fresh: T[];
  alreadyPosted: T[];
  /** Earlier threads to mark resolved (once). */
  resolve: PreviousThread[];
}

/** `shown`: the findings to post (dismissed and hidden ones left out); `raised`: every key this run raised. */
export function planSync<T extends { keys: readonly string[] }>(shown: readonly T[], raised: ReadonlySet<string>, previous: Pick<Previous, 'known' | 'threads'>): SyncPlan<T> {
  const fresh: T[] = [];
  const alreadyPosted: T[] = [];
  const seen = new Set<string>();
  for (const item of shown) {
    if (item.keys.some((k) => previous.known.has(k) || seen.has(k))) alreadyPosted.push(item);
    else fresh.push(item);
    for (const k of item.keys) seen.add(k);
  }
  const resolve = previous.threads.filter((c) => !c.resolved && !c.keys.some((k) => raised.has(k)));
  return { fresh, alreadyPosted, resolve };
}
