import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { Finding } from './types';

/**
 * "Dismiss in this project": a finding is remembered by a fingerprint — the agent, its rule (the CWE, else the
 * title as a slug) and a hash of the normalised code of its lines — in `.quorum/dismissed.json`, which a team
 * can commit. A later review of the same code does not show it again, in the editor or the CLI; once the code
 * of those lines changes, the fingerprint no longer matches and the finding comes back.
 */

export const DISMISSED_FILE = join('.quorum', 'dismissed.json');

const entrySchema = z.looseObject({
  agent: z.string().min(1).max(80),
  rule: z.string().min(1).max(200),
  /** sha256 of the normalised code, hex. */
  code: z.string().regex(/^[0-9a-f]{64}$/, 'code is a sha256 hex digest'),
  /** For people reading the file: where and what it was. */
  file: z.string().max(1000).optional(),
  title: z.string().max(300).optional(),
  dismissedAt: z.string().max(40).optional(),
});
export type DismissedEntry = z.infer<typeof entrySchema>;

const dismissedFileSchema = z.looseObject({
  version: z.literal(1),
  dismissed: z.array(entrySchema).max(10_000),
});

/** The rule of a finding: its CWE, else its title as a slug. */
function ruleOf(f: Pick<Finding, 'cwe' | 'title'>): string {
  if (f.cwe && /^CWE-\d+$/.test(f.cwe)) return f.cwe;
  const slug = f.title.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80);
  return slug || 'finding';
}

/** The code of lines start..end of a text whose first line is `firstLine`, normalised: whitespace runs collapsed, blank lines dropped. */
function normalisedCode(text: string, firstLine: number, start: number, end: number): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return lines
    .slice(Math.max(0, start - firstLine), Math.max(0, end - firstLine + 1))
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '')
    .join('\n');
}

function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** The fingerprints of a finding, one per agent that reported it. */
export function fingerprintsOf(f: Pick<Finding, 'agents' | 'cwe' | 'title' | 'startLine' | 'endLine'>, text: string, firstLine: number): { agent: string; rule: string; code: string }[] {
  const rule = ruleOf(f);
  const code = codeHash(normalisedCode(text, firstLine, f.startLine, f.endLine));
  return f.agents.map((agent) => ({ agent, rule, code }));
}

export function isDismissed(f: Pick<Finding, 'agents' | 'cwe' | 'title' | 'startLine' | 'endLine'>, text: string, firstLine: number, entries: readonly DismissedEntry[]): boolean {
  if (entries.length === 0) return false;
  return fingerprintsOf(f, text, firstLine).some((p) => entries.some((e) => e.agent === p.agent && e.rule === p.rule && e.code === p.code));
}

type DismissedRead = { ok: true; entries: DismissedEntry[] } | { ok: false; entries: []; problem: string };

/** Reads `<root>/.quorum/dismissed.json`: none is an empty list; an invalid file is reported (by field) and ignored. */
export async function readDismissed(root: string): Promise<DismissedRead> {
  let raw: string;
  try {
    raw = await readFile(join(root, DISMISSED_FILE), 'utf8');
  } catch {
    return { ok: true, entries: [] };
  }
  return parseDismissed(raw);
}

function parseDismissed(raw: string): DismissedRead {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, entries: [], problem: `${DISMISSED_FILE} is not JSON` };
  }
  const parsed = dismissedFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, entries: [], problem: `${DISMISSED_FILE}: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, entries: parsed.data.dismissed };
}

/**
 * Adds a finding's fingerprints to `<root>/.quorum/dismissed.json` (created when missing; written atomically,
 * stable order, one entry per line so that merges in version control stay easy). An invalid existing file is
 * not overwritten: the problem is thrown.
 */
export async function dismissFinding(root: string, f: Pick<Finding, 'agents' | 'cwe' | 'title' | 'startLine' | 'endLine'>, text: string, firstLine: number, file: string, now = new Date()): Promise<DismissedEntry[]> {
  const current = await readDismissed(root);
  if (!current.ok) throw new Error(current.problem);
  const entries = [...current.entries];
  for (const p of fingerprintsOf(f, text, firstLine)) {
    if (entries.some((e) => e.agent === p.agent && e.rule === p.rule && e.code === p.code)) continue;
    entries.push({ ...p, file, title: f.title.slice(0, 300), dismissedAt: now.toISOString() });
  }
  const body = `{\n  "version": 1,\n  "dismissed": [\n${entries.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ]\n}\n`;
  await mkdir(join(root, '.quorum'), { recursive: true });
  const target = join(root, DISMISSED_FILE);
  const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, body, 'utf8');
  await rename(tmp, target);
  return entries;
}
