import type { IssueComment, Review, ReviewComment } from './api';
import { findingFingerprints, isResolvedReply, summaryOf } from '../../core/report/pullRequestMarkers';

/**
 * What earlier runs left on the pull request, and what this run adds: a finding whose key is in any Quorum
 * comment (inline, or listed in a review body) is not posted again; an inline Quorum comment none of whose keys
 * is raised any more gets one "resolved" reply; the summary comment is found by its marker and edited.
 */

interface PreviousComment {
  id: number;
  keys: readonly string[];
  resolved: boolean;
}

interface Previous {
  inline: PreviousComment[];
  /** Every key in a Quorum comment or review body. */
  known: ReadonlySet<string>;
  summary?: { id: number; sha: string | null };
}

/**
 * Reads the earlier runs' comments. The summary's author is Quorum's identity on this pull request: once there is
 * one, markers in other people's comments are ignored (a marker pasted by hand cannot silence a finding).
 */
export function readPrevious(reviewComments: readonly ReviewComment[], reviews: readonly Review[], issueComments: readonly IssueComment[]): Previous {
  const summaries = issueComments.filter((c) => c.body && summaryOf(c.body));
  const first = summaries[0];
  const author = first?.user?.login;
  const ours = (c: { user?: { login: string } | null | undefined }) => author === undefined || !c.user || c.user.login === author;
  const known = new Set<string>();
  const resolvedIds = new Set(reviewComments.filter((c) => ours(c) && c.in_reply_to_id !== undefined && isResolvedReply(c.body)).map((c) => c.in_reply_to_id));
  const inline: PreviousComment[] = [];
  for (const c of reviewComments) {
    if (!ours(c) || c.in_reply_to_id !== undefined) continue;
    const [keys] = findingFingerprints(c.body);
    if (!keys) continue;
    for (const k of keys) known.add(k);
    inline.push({ id: c.id, keys, resolved: resolvedIds.has(c.id) });
  }
  for (const r of reviews) {
    if (!ours(r) || !r.body) continue;
    for (const keys of findingFingerprints(r.body)) for (const k of keys) known.add(k);
  }
  const sha = first?.body ? summaryOf(first.body)?.sha : undefined;
  return { inline, known, ...(first ? { summary: { id: first.id, sha: sha ?? null } } : {}) };
}

interface SyncPlan<T> {
  fresh: T[];
  alreadyPosted: T[];
  /** Earlier inline comments to mark resolved (once). */
  resolve: PreviousComment[];
}

/** `shown`: the findings to post (dismissed and hidden ones left out); `raised`: every key this run raised. */
export function planSync<T extends { keys: readonly string[] }>(shown: readonly T[], raised: ReadonlySet<string>, previous: Previous): SyncPlan<T> {
  const fresh: T[] = [];
  const alreadyPosted: T[] = [];
  const seen = new Set<string>();
  for (const item of shown) {
    if (item.keys.some((k) => previous.known.has(k) || seen.has(k))) alreadyPosted.push(item);
    else fresh.push(item);
    for (const k of item.keys) seen.add(k);
  }
  const resolve = previous.inline.filter((c) => !c.resolved && !c.keys.some((k) => raised.has(k)));
  return { fresh, alreadyPosted, resolve };
}
