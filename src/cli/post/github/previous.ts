import type { IssueComment, Review, ReviewComment } from './api';
import { findingFingerprints, isResolvedReply, summaryOf } from '../../../core/report/pullRequestMarkers';
import type { Previous, PreviousThread } from '../host';

/**
 * What earlier runs left on a GitHub pull request: a finding whose key is in any Quorum comment (inline, or listed
 * in a review body) is known; the summary comment is found by its marker. The summary's author is Quorum's
 * identity on this pull request: once there is one, markers in other people's comments are ignored (a marker
 * pasted by hand cannot silence a finding).
 */
export function readPrevious(reviewComments: readonly ReviewComment[], reviews: readonly Review[], issueComments: readonly IssueComment[]): Previous {
  const summaries = issueComments.filter((c) => c.body && summaryOf(c.body));
  const first = summaries[0];
  const author = first?.user?.login;
  const ours = (c: { user?: { login: string } | null | undefined }) => author === undefined || !c.user || c.user.login === author;
  const known = new Set<string>();
  const resolvedIds = new Set(reviewComments.filter((c) => ours(c) && c.in_reply_to_id !== undefined && isResolvedReply(c.body)).map((c) => c.in_reply_to_id));
  const threads: PreviousThread[] = [];
  for (const c of reviewComments) {
    if (!ours(c) || c.in_reply_to_id !== undefined) continue;
    const [keys] = findingFingerprints(c.body);
    if (!keys) continue;
    for (const k of keys) known.add(k);
    threads.push({ id: String(c.id), keys, resolved: resolvedIds.has(c.id) });
  }
  for (const r of reviews) {
    if (!ours(r) || !r.body) continue;
    for (const keys of findingFingerprints(r.body)) for (const k of keys) known.add(k);
  }
  const sha = first?.body ? summaryOf(first.body)?.sha : undefined;
  return { threads, known, listed: new Set(), ...(first ? { summary: { id: String(first.id), sha: sha ?? null } } : {}) };
}
