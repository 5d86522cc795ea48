import { fingerprintsOf } from '../memory/fingerprint';
import { type DismissedEntry } from '../memory/dismissed';
import { type Region, regionOf, type ReviewTarget } from '../domain/target';
import { reviewComplete, type NoiseSplit, type ReviewSummary } from '../domain/result';
import type { Finding } from '../domain/finding';
import { decideOutcomes, threadOutcomes, type ObservedFile, type RaisedFinding, type ThreadResolution } from './decide';
import type { OutcomeRecord } from './record';
import type { OutcomeStore } from './store';

/**
 * A finished review as the outcome rule sees it (decide.ts): the findings it raised, with their fingerprints and
 * cost, and the files it looked at; and the recorder that runs the rule and keeps what it decided.
 */

/** What the face tells of the store's health: codes and figures, the face words them. */
export type OutcomeProblem = { code: 'corrupt'; lines: number; path: string } | { code: 'unreadable'; message: string } | { code: 'unwritable'; path: string };

export interface OutcomeRecorder {
  store: OutcomeStore;
  /** A repository file's text now (repository-relative path); null: it does not exist; undefined: unreadable. */
  readFile: (file: string) => Promise<string | null | undefined>;
  now?: () => number;
  onProblem?: (problem: OutcomeProblem) => void;
  /** Told the snapshots written (a view follows the store through it). */
  onRecorded?: (records: readonly OutcomeRecord[]) => void;
}

/** The store's records, its problems told. */
export function readOutcomes(store: OutcomeStore, onProblem?: (p: OutcomeProblem) => void): OutcomeRecord[] {
  const read = store.read();
  if (read.corrupt > 0) onProblem?.({ code: 'corrupt', lines: read.corrupt, path: store.path });
  if (read.problem) onProblem?.({ code: 'unreadable', message: read.problem });
  return read.records;
}

/** What a review looked at: its target as read (before redaction), the summary and the noise split. */
interface ReviewSeen {
  target: ReviewTarget;
  /** A selection's or file's path from the repository root (a review of changes names its files so already). */
  relativeFile?: string;
  summary: ReviewSummary;
  noise: NoiseSplit;
  /** The project's dismissals, as the noise step read them. */
  dismissed?: readonly DismissedEntry[];
}

/** Each agent's cost per finding it raised in this review (a finding carried over cost nothing). */
function shares(summary: ReviewSummary): Map<string, { model: string; usd: number }> {
  return new Map(summary.agents.map((a) => [a.agent, { model: a.model, usd: a.findings.length > 0 ? a.costUsd / a.findings.length : 0 }]));
}

function raisedOf(seen: ReviewSeen, name: (file: string) => string): RaisedFinding[] {
  const cost = shares(seen.summary);
  const hidden = new Map(seen.noise.hidden.map((h) => [h.finding, h.reason]));
  const all: Finding[] = [...seen.noise.shown, ...seen.noise.hidden.map((h) => h.finding)];
  return all.map((f) => {
    const region = regionOf(f, seen.target.regions);
    const [print] = fingerprintsOf(f, region?.text ?? '', region?.startLine ?? f.startLine);
    const reason = hidden.get(f);
    const agents = f.agents.map((agent) => ({ agent, model: cost.get(agent)?.model ?? '', costUsd: f.carried ? 0 : (cost.get(agent)?.usd ?? 0) }));
    return {
      finding: { ...f, file: name(f.file) },
      rule: print?.rule ?? 'finding',
      code: print?.code ?? '',
      lines: print?.lines ?? 0,
      agents,
      // Hidden by the project's dismissals or by a rule learned from one: dismissed in the project.
      ...(reason === 'dismissed' || reason === 'learned' ? { dismissed: true } : {}),
      ...(reason === 'confidence' || reason === 'severity' ? { shown: false } : {}),
    };
  });
}

async function filesOf(seen: ReviewSeen, name: (file: string) => string, read: OutcomeRecorder['readFile']): Promise<ObservedFile[]> {
  const byFile = new Map<string, Region[]>();
  for (const r of seen.target.regions) byFile.set(name(r.file), [...(byFile.get(name(r.file)) ?? []), r]);
  const whole = seen.target.kind !== 'selection';
  const out: ObservedFile[] = [];
  for (const [file, regions] of byFile) {
    const text = await read(file);
    if (text === undefined) continue;
    out.push({ file, text, whole, reviewed: regions.map((r) => ({ start: r.startLine, end: r.endLine })) });
  }
  for (const s of seen.target.skipped ?? []) if (s.reason === 'deleted') out.push({ file: s.file, text: null, whole: true, reviewed: [] });
  return out;
}

/**
 * Decides and keeps the outcomes a finished review observed. A review that was cancelled or had a reviewer fail
 * decides nothing (what it did not raise says nothing). Returns the snapshots written.
 */
export async function recordReview(recorder: OutcomeRecorder, seen: ReviewSeen): Promise<OutcomeRecord[]> {
  const { summary } = seen;
  if (!reviewComplete(summary)) return [];
  const name = (file: string) => (seen.target.kind !== 'changes' && seen.relativeFile !== undefined ? seen.relativeFile : file);
  const records = readOutcomes(recorder.store, recorder.onProblem);
  const at = (recorder.now ?? (() => Date.now()))();
  const decided = decideOutcomes(records, { at, raised: raisedOf(seen, name), files: await filesOf(seen, name, recorder.readFile), ...(seen.dismissed ? { dismissed: seen.dismissed } : {}) });
  if (!recorder.store.append(decided)) recorder.onProblem?.({ code: 'unwritable', path: recorder.store.path });
  else if (decided.length > 0) recorder.onRecorded?.(decided);
  return decided;
}

/**
 * Pull-request threads resolved (the host adapter tells: GitHub's sync, later GitLab's): their findings addressed
 * (by a push) or dismissed (by a person, lines unchanged). Returns the snapshots written.
 */
export function recordThreads(recorder: OutcomeRecorder, threads: readonly ThreadResolution[]): OutcomeRecord[] {
  if (threads.length === 0) return [];
  const decided = threadOutcomes(readOutcomes(recorder.store, recorder.onProblem), threads, (recorder.now ?? (() => Date.now()))());
  if (!recorder.store.append(decided)) recorder.onProblem?.({ code: 'unwritable', path: recorder.store.path });
  else if (decided.length > 0) recorder.onRecorded?.(decided);
  return decided;
}
