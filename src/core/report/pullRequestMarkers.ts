/**
 * The hidden markers that let a later run recognise Quorum's own comments: a finding's fingerprints (hex digests
 * of agent, rule and normalised code, one per agent that raised it), the summary comment, and a "resolved"
 * reply. Untrusted text in a comment is rendered with `<` escaped (`commentText`), so a marker cannot be forged
 * from inside a finding.
 */

const FINDING = /^<!-- quorum:finding ([0-9a-f]{16,64}(?:,[0-9a-f]{16,64})*) -->/gm;
const SUMMARY = /^<!-- quorum:summary(?: sha=([0-9a-f]{7,64}))? -->/;
const RESOLVED = '<!-- quorum:resolved -->';

export function findingMarker(fingerprints: readonly string[]): string {
  return `<!-- quorum:finding ${fingerprints.join(',')} -->`;
}

/** Every fingerprint of every finding marker in a body (a review body lists several findings). */
export function findingFingerprints(body: string): string[][] {
  return [...body.matchAll(FINDING)].map((m) => (m[1] ?? '').split(','));
}

export function summaryMarker(headSha: string): string {
  return `<!-- quorum:summary sha=${headSha} -->`;
}

/** The summary comment's marker: the head it was written for (null when it names none); undefined: not ours. */
export function summaryOf(body: string): { sha: string | null } | undefined {
  const m = SUMMARY.exec(body);
  return m ? { sha: m[1] ?? null } : undefined;
}

export function resolvedMarker(): string {
  return RESOLVED;
}

export function isResolvedReply(body: string): boolean {
  return body.startsWith(RESOLVED);
}
