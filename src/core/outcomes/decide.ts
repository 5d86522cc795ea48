import { createHash } from 'node:crypto';
import { fingerprintKey, locateCode } from '../memory/fingerprint';
import { isDismissed, type DismissedEntry } from '../memory/dismissed';
import { raisedAgain } from '../memory/regionMemory';
import type { Finding } from '../domain/finding';
import { type LineRange, rangesOverlap } from '../domain/lines';
import type { OutcomeRecord, OutcomeSource, OutcomeStatus } from './record';

/**
 * THE outcome rule: what became of each finding Quorum showed, from what a later review (or the editor, or a
 * pull-request thread) observed. Only `open` and `gone` records are decided again; `addressed` and `dismissed`
 * are final (the same words raised later are a new finding).
 *
 * For each record in a file the review looked at:
 *   - raised again (the re-review's rule, regionMemory.ts `raisedAgain`; or by the same agent on the same code, a
 *     renamed title): `open`, at its new lines — or `dismissed` when the project's dismissals hid it;
 *   - its file deleted: `gone`;
 *   - its code (the hash of its lines' normalised code) still in the file: inside the reviewed lines it stays as it
 *     was (moved with its code); outside them, in a review of all of the file's changes or of the whole file, its
 *     lines are no longer reviewed: `gone`;
 *   - its code no longer in the file (its lines changed) and not raised again: `addressed`, when the review covered
 *     the file (all of its changes, the whole file, or a selection over its lines).
 */

/** A finding this review raised, with its fingerprint and what each of its agents spent on it. */
export interface RaisedFinding {
  finding: Pick<Finding, 'file' | 'agents' | 'cwe' | 'title' | 'severity' | 'startLine' | 'endLine' | 'verification'>;
  rule: string;
  code: string;
  lines: number;
  agents: OutcomeRecord['agents'];
  /** Hidden by the project's dismissals (`.quorum/dismissed.json`, or a learning made from one). */
  dismissed?: boolean;
  /** False: never shown (under the thresholds): it keeps a record of it open but starts none. */
  shown?: boolean;
}

/** A file the review looked at. */
export interface ObservedFile {
  file: string;
  /** Its text now; null: deleted. */
  text: string | null;
  /** The lines reviewed (sent, or carried over from memory). */
  reviewed: readonly LineRange[];
  /** The review covers all of the file that is reviewed (its changes, or the whole file); false: a selection. */
  whole: boolean;
}

interface Observation {
  at: number;
  files: readonly ObservedFile[];
  raised: readonly RaisedFinding[];
  /** The project's dismissals (`.quorum/dismissed.json`): a record not raised again whose code they dismiss is dismissed. */
  dismissed?: readonly DismissedEntry[];
}

/** A pull-request thread resolved since: by a push (the finding not raised on the new head) or by a person. */
export interface ThreadResolution {
  /** The finding's marker keys (`fingerprintKey`). */
  keys: readonly string[];
  by: 'push' | 'person';
  /** A person's resolution: whether the finding's lines changed since the thread was opened. */
  linesChanged?: boolean;
  reason?: string;
}

const cweOf = (rule: string) => (/^CWE-\d+$/.test(rule) ? rule : undefined);
const told = (r: OutcomeRecord) => ({ file: r.file, agents: r.agents.map((a) => a.agent), cwe: cweOf(r.rule), title: r.title });
const isLive = (r: OutcomeRecord) => r.status === 'open' || r.status === 'gone';

/** A record's marker keys, one per agent (the same digests the pull-request comments carry). */
export function outcomeKeys(r: Pick<OutcomeRecord, 'agents' | 'rule' | 'code'>): string[] {
  return r.agents.map((a) => fingerprintKey({ agent: a.agent, rule: r.rule, code: r.code }));
}

/** The same code told by the same agent (a renamed title, or moved code), the closest match. */
const sameCode = (r: OutcomeRecord, f: RaisedFinding) => r.file === f.finding.file && r.code === f.code && r.agents.some((a) => f.finding.agents.includes(a.agent));
const sameFinding = (r: OutcomeRecord, f: RaisedFinding) => sameCode(r, f) || (r.file === f.finding.file && raisedAgain(told(r), [f.finding]));

/** The live record `f` is, preferring one on the same code. */
function matchOf(live: readonly OutcomeRecord[], f: RaisedFinding, taken: ReadonlySet<string>): OutcomeRecord | undefined {
  const free = live.filter((c) => !taken.has(c.id));
  return free.find((c) => sameCode(c, f)) ?? free.find((c) => sameFinding(c, f));
}

function mergeAgents(was: OutcomeRecord['agents'], now: OutcomeRecord['agents']): OutcomeRecord['agents'] {
  const out = was.map((a) => ({ ...a }));
  for (const a of now) {
    const same = out.find((o) => o.agent === a.agent);
    if (same) same.costUsd += a.costUsd;
    else out.push({ ...a });
  }
  return out;
}

function snapshot(r: OutcomeRecord, at: number, status: OutcomeStatus, by: OutcomeSource, extra: Partial<OutcomeRecord> = {}): OutcomeRecord {
  const { reason: _reason, ...rest } = r;
  return { ...rest, ...extra, at, status, by };
}

/** A new record's id: stable for its first sighting (file, lines, rule, code, time). */
function newId(f: RaisedFinding, at: number, n: number): string {
  return createHash('sha256').update(JSON.stringify([f.finding.file, f.finding.startLine, f.rule, f.code, at, n])).digest('hex').slice(0, 32);
}

function raisedRecord(f: RaisedFinding, at: number, n: number): OutcomeRecord {
  const { finding } = f;
  const verdict = finding.verification?.verdict;
  return {
    v: 1,
    id: newId(f, at, n),
    raisedAt: at,
    at,
    file: finding.file,
    startLine: finding.startLine,
    endLine: finding.endLine,
    agents: f.agents,
    severity: finding.severity,
    ...(verdict ? { verdict } : {}),
    rule: f.rule,
    title: finding.title.slice(0, 300),
    code: f.code,
    lines: f.lines,
    status: f.dismissed ? 'dismissed' : 'open',
    by: f.dismissed ? 'project' : 'review',
  };
}

/** What a record not raised again becomes in a file the review looked at; undefined: unchanged. */
function unraised(r: OutcomeRecord, file: ObservedFile, at: number, dismissed: readonly DismissedEntry[]): OutcomeRecord | undefined {
  if (file.text === null) return r.status === 'gone' ? undefined : snapshot(r, at, 'gone', 'review');
  const own = { start: r.startLine, end: r.endLine };
  const found = r.lines > 0 ? locateCode(r.code, r.lines, file.text, 1) : [own];
  const text = file.text;
  if (found.some((l) => isDismissed({ ...told(r), startLine: l.start, endLine: l.end }, text, 1, dismissed))) return snapshot(r, at, 'dismissed', 'project');
  const inReview = found.find((at) => file.reviewed.some((l) => rangesOverlap(at, l)));
  if (inReview) {
    if (inReview.start === r.startLine && inReview.end === r.endLine) return undefined;
    return snapshot(r, at, r.status, r.by, { startLine: inReview.start, endLine: inReview.end });
  }
  if (found.length > 0) return file.whole && r.status !== 'gone' ? snapshot(r, at, 'gone', 'review') : undefined;
  if (r.status === 'open' && (file.whole || file.reviewed.some((l) => rangesOverlap(own, l)))) return snapshot(r, at, 'addressed', 'review');
  return undefined;
}

/** The snapshots a review's observation writes: records raised again, newly raised, or decided. */
export function decideOutcomes(records: readonly OutcomeRecord[], obs: Observation): OutcomeRecord[] {
  const live = records.filter(isLive);
  const dismissed = records.filter((r) => r.status === 'dismissed');
  const matched = new Set<string>();
  const out: OutcomeRecord[] = [];
  obs.raised.forEach((f, n) => {
    const r = matchOf(live, f, matched);
    if (!r) {
      // Raised again after a person dismissed it (a thread resolved, a Dismiss for one review): still that finding, still dismissed.
      if (f.shown !== false && !matchOf(dismissed, f, matched)) out.push(raisedRecord(f, obs.at, n));
      return;
    }
    matched.add(r.id);
    const verdict = f.finding.verification?.verdict ?? r.verdict;
    const fields = { startLine: f.finding.startLine, endLine: f.finding.endLine, code: f.code, lines: f.lines, severity: f.finding.severity, agents: mergeAgents(r.agents, f.agents), ...(verdict ? { verdict } : {}) };
    out.push(f.dismissed ? snapshot(r, obs.at, 'dismissed', 'project', fields) : snapshot(r, obs.at, 'open', 'review', fields));
  });
  const files = new Map(obs.files.map((f) => [f.file, f]));
  for (const r of live) {
    const file = files.get(r.file);
    if (matched.has(r.id) || !file) continue;
    const next = unraised(r, file, obs.at, obs.dismissed ?? []);
    if (next) out.push(next);
  }
  return out;
}

/** Dismissed by a person (the editor's Dismiss, a reason when given): the live record of that finding. */
export function dismissOutcome(records: readonly OutcomeRecord[], f: RaisedFinding, at: number, reason?: string): OutcomeRecord | undefined {
  const r = matchOf(records.filter(isLive), f, new Set());
  if (!r) return undefined;
  const trimmed = reason?.trim().slice(0, 500);
  return { ...snapshot(r, at, 'dismissed', 'editor'), ...(trimmed ? { reason: trimmed } : {}) };
}

/** Pull-request threads resolved: by a push (addressed), by a person with the lines unchanged (dismissed) or changed (addressed). */
export function threadOutcomes(records: readonly OutcomeRecord[], threads: readonly ThreadResolution[], at: number): OutcomeRecord[] {
  const out: OutcomeRecord[] = [];
  for (const r of records.filter(isLive)) {
    const keys = outcomeKeys(r);
    const t = threads.find((x) => x.keys.some((k) => keys.includes(k)));
    if (!t) continue;
    if (t.by === 'push') out.push(snapshot(r, at, 'addressed', 'thread-push'));
    else if (t.linesChanged) out.push(snapshot(r, at, 'addressed', 'thread-person'));
    else out.push({ ...snapshot(r, at, 'dismissed', 'thread-person'), ...(t.reason?.trim() ? { reason: t.reason.trim().slice(0, 500) } : {}) });
  }
  return out;
}
