import { createHash } from 'node:crypto';

/**
 * `partialFingerprints.primaryLocationLineHash` for a finding: a hash of its rule and of the text of its lines
 * with whitespace collapsed, plus `:n` for the n-th finding with the same hash in the file. It does not depend
 * on line numbers, so lines added above a finding keep its fingerprint (and its alert) across runs; editing the
 * flagged lines changes it. Without the file's text, the rule and the title stand in for the lines.
 */
export function lineHash(ruleId: string, lines: readonly string[] | undefined, startLine: number, endLine: number, title: string): string {
  const hash = createHash('sha256').update(ruleId).update('\0');
  const flagged = lines?.slice(startLine - 1, endLine);
  if (flagged && flagged.length > 0) hash.update(flagged.map((l) => l.replace(/\s+/g, ' ').trim()).join('\n'));
  else hash.update(`title:${title.replace(/\s+/g, ' ').trim().toLowerCase()}`);
  return hash.digest('hex').slice(0, 32);
}

/** Numbers repeated hashes in order (`h:1`, `h:2`, …) so that identical findings keep distinct fingerprints. */
export class FingerprintCounter {
  private readonly seen = new Map<string, number>();

  next(file: string, hash: string): string {
    const k = `${file}\0${hash}`;
    const n = (this.seen.get(k) ?? 0) + 1;
    this.seen.set(k, n);
    return `${hash}:${n}`;
  }
}
