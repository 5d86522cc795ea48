import { createHash } from 'node:crypto';
import { type Region, regionOf } from '../domain/target';
import type { Finding } from '../domain/finding';

/**
 * A finding's fingerprint: the agent, its rule (the CWE, else the title as a slug) and a hash of the normalised
 * code of its lines. The one identity of a finding across runs and hosts: dismissals (dismissed.ts), the markers
 * of pull- and merge-request threads, and the outcome store know a finding by it.
 */

/** Dismissed code longer than this many lines is matched at the finding's own lines only. */
export const MAX_LOCATED_LINES = 400;

/** The rule of a finding: its CWE, else its title as a slug. */
export function ruleOf(f: Pick<Finding, 'cwe' | 'title'>): string {
  if (f.cwe && /^CWE-\d+$/.test(f.cwe)) return f.cwe;
  const slug = f.title.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80);
  return slug || 'finding';
}

/** The non-blank lines of a text whose first line is `firstLine`, normalised (whitespace runs collapsed), with their line numbers. */
export function normalisedLines(text: string, firstLine: number): { line: number; code: string }[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l, i) => ({ line: firstLine + i, code: l.trim().replace(/\s+/g, ' ') }))
    .filter((l) => l.code !== '');
}

/** The normalised code of lines start..end of a text whose first line is `firstLine` (blank lines dropped). */
function normalisedCode(text: string, firstLine: number, start: number, end: number): { code: string; lines: number } {
  const lines = normalisedLines(text, firstLine).filter((l) => l.line >= start && l.line <= end);
  return { code: lines.map((l) => l.code).join('\n'), lines: lines.length };
}

function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export type FingerprintedFinding = Pick<Finding, 'agents' | 'cwe' | 'title' | 'startLine' | 'endLine'>;

/** The fingerprints of a finding, one per agent that reported it. */
export function fingerprintsOf(f: FingerprintedFinding, text: string, firstLine: number): { agent: string; rule: string; code: string; lines: number }[] {
  const rule = ruleOf(f);
  const normalised = normalisedCode(text, firstLine, f.startLine, f.endLine);
  const code = codeHash(normalised.code);
  return f.agents.map((agent) => ({ agent, rule, code, lines: normalised.lines }));
}

/** Where the code an entry hashes stands in `lines` now: every run of `n` non-blank lines with that hash. */
export function locate(code: string, n: number, lines: readonly { line: number; code: string }[], memo: Map<number, Map<string, { start: number; end: number }[]>>): { start: number; end: number }[] {
  let byHash = memo.get(n);
  if (!byHash) {
    byHash = new Map();
    for (let i = 0; i + n <= lines.length; i++) {
      const h = codeHash(lines.slice(i, i + n).map((l) => l.code).join('\n'));
      const at = { start: lines[i]?.line ?? 0, end: lines[i + n - 1]?.line ?? 0 };
      byHash.set(h, [...(byHash.get(h) ?? []), at]);
    }
    memo.set(n, byHash);
  }
  return byHash.get(code) ?? [];
}

/** Where `n` non-blank lines whose normalised code hashes to `code` stand in `text` (whose first line is `firstLine`). */
export function locateCode(code: string, n: number, text: string, firstLine: number): { start: number; end: number }[] {
  if (n <= 0) return [];
  return locate(code, n, normalisedLines(text, firstLine), new Map());
}

/** A fingerprint's key in pull-request comment markers: a digest of agent, rule and code (one source for every host). */
export function fingerprintKey(p: { agent: string; rule: string; code: string }): string {
  return createHash('sha256').update(`${p.agent}\0${p.rule}\0${p.code}`).digest('hex').slice(0, 24);
}

/**
 * A finding's keys in comment markers: one per agent that raised it, each a digest of the same fingerprint
 * `.quorum/dismissed.json` uses (agent, rule, normalised code of its lines). A finding is known to a pull request
 * when any of its keys is in a Quorum comment there, so a merge that adds or drops an agent still matches.
 */
export function findingKeys(f: Finding, regions: readonly Pick<Region, 'file' | 'text' | 'startLine' | 'endLine'>[]): string[] {
  const region = regionOf(f, regions);
  const prints = fingerprintsOf(f, region?.text ?? '', region?.startLine ?? f.startLine);
  return [...new Set(prints.map(fingerprintKey))];
}
