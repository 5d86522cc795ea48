import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { titleSimilarity } from '../domain/merge';
import type { Finding } from '../domain/finding';
import { fingerprintsOf, locate, MAX_LOCATED_LINES, normalisedLines, type FingerprintedFinding } from './fingerprint';

/**
 * "Dismiss in this project": a finding is remembered by a fingerprint — the agent, its rule (the CWE, else the
 * title as a slug) and a hash of the normalised code of its lines — in `.quorum/dismissed.json`, which a team
 * can commit. A later review of the same code does not show it again, in the editor, the CLI, threads or pull
 * request comments (`isDismissed` is the one check every face uses); once the code of those lines changes, the
 * fingerprint no longer matches and the finding comes back.
 *
 * The same finding matches however it is raised again: by another agent with the same rule, or by the same agent
 * in other words (a renamed title), or with a similar title — as long as its lines overlap the dismissed lines and
 * those lines' normalised code is unchanged (found anywhere in the reviewed code, so lines added above move it).
 */

export const DISMISSED_FILE = join('.quorum', 'dismissed.json');

/** Titles this similar (merge.ts's measure) name the same finding. */
const SIMILAR_TITLE = 0.6;

const entrySchema = z.looseObject({
  agent: z.string().min(1).max(80),
  rule: z.string().min(1).max(200),
  /** sha256 of the normalised code, hex. */
  code: z.string().regex(/^[0-9a-f]{64}$/, 'code is a sha256 hex digest'),
  /** For people reading the file: where and what it was. */
  file: z.string().max(1000).optional(),
  title: z.string().max(300).optional(),
  dismissedAt: z.string().max(40).optional(),
  /** How many non-blank lines `code` hashes: lets a later review find those lines where they moved to. */
  lines: z.number().int().min(1).max(MAX_LOCATED_LINES).optional(),
});
export type DismissedEntry = z.infer<typeof entrySchema>;

const dismissedFileSchema = z.looseObject({
  version: z.literal(1),
  dismissed: z.array(entrySchema).max(10_000),
});

/**
 * The same finding: the same rule (by any agent, in any file with that code), or — in the file it was dismissed
 * in — in other words: by the same agent (a renamed title) or with a similar title.
 */
function sameFinding(f: FingerprintedFinding & { file?: string }, rule: string, e: DismissedEntry): boolean {
  if (e.rule === rule || (f.cwe !== undefined && e.rule === f.cwe)) return true;
  if (e.file !== undefined && f.file !== undefined && e.file !== f.file) return false;
  return f.agents.includes(e.agent) || (e.title !== undefined && titleSimilarity(e.title, f.title) >= SIMILAR_TITLE);
}

/**
 * Whether `f`, raised on code `text` (whose first line is `firstLine`: the reviewed region, or the whole file), is
 * dismissed by one of `entries`: the dismissed lines' normalised code is still there (where the finding's own
 * lines are, or, for entries that say how many lines they hash, anywhere in `text`), `f`'s lines overlap them, and
 * `f` is the same finding (the same rule; or in the same file, by the same agent or with a similar title). `f.file`
 * is compared with the path the entry was dismissed under (repository-relative, as faces name files). The one check of "is this finding known
 * to be dismissed" for every face (editor, CLI, threads, pull request comments): its name and meaning are stable.
 */
export function isDismissed(f: FingerprintedFinding & { file?: string }, text: string, firstLine: number, entries: readonly DismissedEntry[]): boolean {
  if (entries.length === 0) return false;
  const own = fingerprintsOf({ ...f, agents: f.agents.length > 0 ? f.agents : [''] }, text, firstLine)[0];
  if (!own) return false;
  const lines = normalisedLines(text, firstLine);
  const memo = new Map<number, Map<string, { start: number; end: number }[]>>();
  return entries.some((e) => {
    if (!sameFinding(f, own.rule, e)) return false;
    if (e.code === own.code) return true;
    if (e.lines === undefined) return false;
    return locate(e.code, e.lines, lines, memo).some((at) => at.start <= f.endLine && f.startLine <= at.end);
  });
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

/** A finding to dismiss, with the code it was raised on (`text`, whose first line is `firstLine`) and its repository path. */
interface Dismissal {
  finding: Pick<Finding, 'agents' | 'cwe' | 'title' | 'startLine' | 'endLine'>;
  text: string;
  firstLine: number;
  file: string;
  now?: Date;
}

/**
 * Adds a finding's fingerprints to `<root>/.quorum/dismissed.json` (created when missing; written atomically,
 * stable order, one entry per line so that merges in version control stay easy). An invalid existing file is
 * not overwritten: the problem is thrown.
 */
export async function dismissFinding(root: string, dismissal: Dismissal): Promise<DismissedEntry[]> {
  const { finding: f, text, firstLine, file, now = new Date() } = dismissal;
  const current = await readDismissed(root);
  if (!current.ok) throw new Error(current.problem);
  const entries = [...current.entries];
  for (const { lines, ...p } of fingerprintsOf(f, text, firstLine)) {
    if (entries.some((e) => e.agent === p.agent && e.rule === p.rule && e.code === p.code)) continue;
    entries.push({ ...p, file, title: f.title.slice(0, 300), dismissedAt: now.toISOString(), ...(lines > 0 && lines <= MAX_LOCATED_LINES ? { lines } : {}) });
  }
  const body = `{\n  "version": 1,\n  "dismissed": [\n${entries.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ]\n}\n`;
  await mkdir(join(root, '.quorum'), { recursive: true });
  const target = join(root, DISMISSED_FILE);
  const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, body, 'utf8');
  await rename(tmp, target);
  return entries;
}
