import picomatch from 'picomatch';
import * as z from 'zod';
import { SEVERITIES, compareSeverity, type Severity } from '../../shared/severity';
import { countTokens } from '../tokens/count';
import type { RuleFile } from './repository';

/**
 * Rules learned from dismissals: `.quorum/learnings.md`, one learning per `## ` section — its title, then
 * `key: value` lines (`applyTo` globs, and optionally `hides`: the rule of the findings it hides, `severity`: the
 * most a matching finding may be), a blank line, and the rule in words. Each learning travels with the prompts as
 * a repository rule of its own (the same privacy, estimate, cache key and What Will Be Sent); `hides` and
 * `severity` act on the findings it matches, which then name it (`learning`). The user writes every learning:
 * the editor only proposes one, from a dismissal's reason, for the user to accept or edit.
 */

export const LEARNINGS_FILE = '.quorum/learnings.md';

const learningSchema = z.object({
  title: z.string().trim().min(1).max(200),
  applyTo: z.array(z.string().trim().min(1).max(500)).max(50),
  /** The rule (a CWE, or a title's slug as dismissed.json has it) of the findings this learning hides. */
  hides: z.string().trim().min(1).max(200).optional(),
  severity: z.enum(SEVERITIES).optional(),
  body: z.string().trim().min(1, 'a learning needs the rule in words under its keys').max(4000),
});
export type Learning = z.infer<typeof learningSchema>;

interface LearningsRead {
  learnings: Learning[];
  /** Sections that could not be used, by title and why. */
  issues: { title: string; message: string }[];
}

function listOf(v: string): string[] {
  const t = v.trim().replace(/^\[|\]$/g, '');
  return t.split(',').map((s) => s.trim().replace(/^["']|["']$/g, '')).filter((s) => s !== '');
}

/** One `## ` section: the keys up to the first blank line, the rule after. */
function section(title: string, lines: readonly string[]): { learning?: Learning; message?: string } {
  const raw: Record<string, unknown> = { title, applyTo: [] };
  let i = 0;
  for (; i < lines.length && (lines[i] ?? '').trim() !== ''; i++) {
    const m = /^([A-Za-z]+):\s*(.*)$/.exec(lines[i] ?? '');
    if (!m) break;
    const [, key = '', value = ''] = m;
    raw[key] = key === 'applyTo' ? listOf(value) : value.trim().replace(/^["']|["']$/g, '');
  }
  raw.body = lines.slice(i).join('\n').trim();
  const parsed = learningSchema.strict().safeParse(raw);
  if (parsed.success) return { learning: parsed.data };
  const issue = parsed.error.issues[0];
  return { message: `${issue?.path.join('.') || 'section'}: ${issue?.message ?? 'invalid'}` };
}

/** The learnings of `.quorum/learnings.md` (text outside `## ` sections is for people and is ignored). */
export function parseLearnings(text: string): LearningsRead {
  const out: LearningsRead = { learnings: [], issues: [] };
  const lines = text.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, '').split('\n');
  let title: string | undefined;
  let body: string[] = [];
  const flush = () => {
    if (title === undefined) return;
    const { learning, message } = section(title, body);
    if (learning) out.learnings.push(learning);
    else out.issues.push({ title, message: message ?? 'invalid' });
  };
  for (const line of lines) {
    const heading = /^## (.+)$/.exec(line);
    if (!heading) {
      body.push(line);
      continue;
    }
    flush();
    title = heading[1]?.trim();
    body = [];
  }
  flush();
  return out;
}

/** A learning as a repository rule: scoped by its `applyTo`, else for every file. */
export function learningRule(l: Learning): RuleFile {
  const body = `${l.title}\n${l.body}`;
  return { path: `${LEARNINGS_FILE} § ${l.title}`, scope: l.applyTo.length > 0 ? { kind: 'path', globs: l.applyTo } : { kind: 'all' }, body, tokens: countTokens(body), specificity: 2 };
}

/** Whether a learning applies to a repository-relative file. */
function learningApplies(l: Pick<Learning, 'applyTo'>, file: string): boolean {
  return l.applyTo.length === 0 || picomatch(l.applyTo, { dot: true })(file.replace(/\\/g, '/'));
}

/**
 * The learnings for a review's findings: a review of changes names files from the repository root, as `applyTo`
 * does; a selection's or file's findings name the file as the face does, so the learnings that apply to its
 * `relativeFile` apply to all of them (none outside a repository).
 */
export function learningsForWork(all: readonly Learning[], work: { changes?: unknown; relativeFile?: string | undefined }): Learning[] {
  if (all.length === 0 || work.changes) return [...all];
  const relative = work.relativeFile;
  return relative === undefined ? [] : all.filter((l) => learningApplies(l, relative)).map((l) => ({ ...l, applyTo: [] }));
}

/** What a learning does to a finding of `rule` in `file`: hide it, cap its severity, or nothing. */
export function learnedAction(learnings: readonly Learning[], f: { file: string; rule: string; severity: Severity }): { learning: Learning; hide: boolean; severity?: Severity } | undefined {
  for (const l of learnings) {
    if (l.hides !== f.rule || !learningApplies(l, f.file)) continue;
    if (!l.severity) return { learning: l, hide: true };
    if (compareSeverity(f.severity, l.severity) < 0) return { learning: l, hide: false, severity: l.severity };
  }
  return undefined;
}

/** The `applyTo` guessed from where a finding was dismissed: its folder and file type (`src/api/**\/*.ts`), or the file at the root. */
export function guessApplyTo(file: string): string {
  const path = file.replace(/\\/g, '/');
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const ext = dot > slash + 1 ? path.slice(dot) : '';
  if (slash < 0) return ext ? `*${ext}` : path;
  return `${path.slice(0, slash)}/**/*${ext}`;
}

/** A learning proposed from a dismissal: the user sees it and accepts or edits it before it is written. */
export function proposeLearning(d: { file: string; title: string; rule: string; reason: string }): Learning {
  const reason = d.reason.trim().replace(/\s+/g, ' ');
  return { title: reason.slice(0, 80), applyTo: [guessApplyTo(d.file)], hides: d.rule, body: `Findings like "${d.title.replace(/\s+/g, ' ').slice(0, 160)}" were dismissed here: ${reason}` };
}

/** The section of a learning in `.quorum/learnings.md`. */
function renderLearning(l: Learning): string {
  const keys = [`applyTo: ${l.applyTo.join(', ')}`, ...(l.hides ? [`hides: ${l.hides}`] : []), ...(l.severity ? [`severity: ${l.severity}`] : [])];
  return `## ${l.title.replace(/\s+/g, ' ')}\n${keys.join('\n')}\n\n${l.body.trim()}\n`;
}

const LEARNINGS_HEADER = `# Learnings\n\n<!-- Rules learned from dismissed findings (Quorum). Each "## " section is one learning: applyTo globs, optionally\nhides (the rule of the findings it hides) and severity (the most a matching finding may be), a blank line, then the\nrule in words. They go to the reviewers with the repository's rules. Edit or delete any. -->\n`;

/** `.quorum/learnings.md` with `l` added (the file's existing text kept as it is). */
export function withLearning(existing: string | undefined, l: Learning): string {
  const base = existing === undefined || existing.trim() === '' ? LEARNINGS_HEADER : existing.replace(/\s*$/, '\n');
  return `${base}\n${renderLearning(l)}`;
}
