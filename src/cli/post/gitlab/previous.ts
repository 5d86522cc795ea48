import { findingFingerprints, isResolvedReply, summaryOf } from '../../../core/report/pullRequestMarkers';
import type { Previous, PreviousThread } from '../host';
import type { Discussion, GitlabUser } from './api';

/**
 * What earlier runs left on a merge request. Quorum's notes are those the token's own user wrote (GET /user): a
 * person who quotes a Quorum note, markers and all, neither silences a finding nor has a note edited or a
 * thread resolved. A thread is Quorum's when its first note carries a finding marker; it counts as resolved
 * when GitLab says so or Quorum already replied that it is. The summary is the oldest of its notes with the
 * summary marker; the findings it listed are `listed` (it is edited every run, so they may be listed again).
 */
export function readPrevious(me: GitlabUser, discussions: readonly Discussion[]): Previous {
  const ours = (n: { author: { id: number }; system?: boolean | undefined }) => n.author.id === me.id && n.system !== true;
  const threads: PreviousThread[] = [];
  const known = new Set<string>();
  let summary: Previous['summary'];
  let listed = new Set<string>();
  for (const d of discussions) {
    const [first, ...replies] = d.notes;
    if (!first || !ours(first)) continue;
    const marked = summaryOf(first.body);
    if (marked) {
      if (!summary) {
        summary = { id: String(first.id), sha: marked.sha };
        listed = new Set(findingFingerprints(first.body).flat());
      }
      continue;
    }
    const [keys] = findingFingerprints(first.body);
    if (!keys) continue;
    for (const k of keys) known.add(k);
    const resolved = first.resolved === true || replies.some((n) => ours(n) && isResolvedReply(n.body));
    threads.push({ id: d.id, keys, resolved });
  }
  return { threads, known, listed, ...(summary ? { summary } : {}) };
}
