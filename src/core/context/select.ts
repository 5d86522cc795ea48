import type { SecretRedactor } from '../redaction/redactor';
import { type LineRange, rangesOverlap } from '../domain/lines';
import type { Region, ReviewTarget } from '../domain/target';
import { callerCandidate, chooseContext, definitionCandidate, enclosingCandidate, MAX_CALLERS, MAX_DEFINITIONS_PER_NAME, RepositoryFiles, sentLines, type ContextCandidate } from './candidates';
import { identifiersIn, parseFile, type Definition, type ParsedFile } from './extract';
import type { ContextBudget } from './budget';
import { keptOf } from './chosenMemo';
import { distanceFrom } from './nearest';
import type { Asked } from './lookup';
import type { RepositoryIndex } from './repoIndex';
import type { BatchContext } from './types';

/**
 * Choosing the context of one batch (or selection): the definitions that its changed lines use and that are not in
 * the batch, the callers in other files of a function whose code changed, and the signature of the function or
 * class that holds a hunk without showing it. Ranked, de-duplicated, never repeating a line the batch sends, and
 * cut to a token budget; what did not fit is named.
 */

interface ContextOptions {
  maxTokens: number;
  /** The review's redactor: secrets in the snippets are replaced by placeholders as in the reviewed code; undefined: not redacted. */
  redactor: SecretRedactor | undefined;
  /** The review's time for context; undefined: no limit. */
  budget?: ContextBudget;
}

const changedRanges = (r: Region): LineRange[] => r.changedLines ?? [{ start: r.startLine, end: r.endLine }];
const inRanges = (ranges: readonly LineRange[], line: number) => ranges.some((c) => c.start <= line && line <= c.end);

interface ReviewedFile {
  file: string;
  language: string;
  regions: Region[];
  changed: LineRange[];
  parsed: ParsedFile;
  /** Directory distance from this file (nearest.ts). */
  distance: (path: string) => number;
}

async function reviewedFiles(batch: ReviewTarget, files: RepositoryFiles, index: RepositoryIndex): Promise<ReviewedFile[]> {
  const held = [...new Set(batch.regions.map((r) => r.file))].filter((file) => index.holds(file));
  // Read at once (each once), parsed one after the other on this thread.
  const out = await Promise.all(held.map((file) => reviewedFile(file, batch.regions.filter((r) => r.file === file), files, index)));
  return out.filter((f): f is ReviewedFile => f !== undefined);
}

async function reviewedFile(file: string, regions: Region[], files: RepositoryFiles, index: RepositoryIndex): Promise<ReviewedFile | undefined> {
  const language = regions[0]?.language ?? 'plaintext';
  const bytes = await files.bytes(file);
  const lines = await files.lines(file);
  if (!bytes || !lines) return undefined;
  const changed = regions.flatMap(changedRanges);
  const text = lines.join('\n');
  // Only the changed lines' identifiers are read (`usedNames`); the symbols are the index's when it holds this content.
  const known = index.symbolsAt(file, bytes);
  const identifiers = known && (index.identifiersAt(file, bytes, changed) ?? (await identifiersIn(text, language, changed)));
  const parsed = known && identifiers ? { ...known, identifiers } : await parseFile(text, language, changed);
  if (!parsed) return undefined;
  // Kept for the next review of this content: it parses nothing of it again.
  if (!known) index.learn(file, bytes, parsed);
  index.keepIdentifiers(file, bytes, changed, parsed.identifiers);
  return { file, language, regions, changed, parsed, distance: distanceFrom(file) };
}

function changedFunctions(f: ReviewedFile): { def: Definition; signatureChanged: boolean }[] {
  return f.parsed.definitions
    .filter((d) => (d.kind === 'function' || d.kind === 'method') && f.changed.some((c) => rangesOverlap(c, { start: d.startLine, end: d.endLine })))
    .map((def) => ({ def, signatureChanged: f.changed.some((c) => rangesOverlap(c, { start: def.startLine, end: def.signatureEnd })) }));
}

/** The names the changed lines use, each with whether it is called there; aliases read as what they stand for. */
function usedNames(f: ReviewedFile): Map<string, boolean> {
  const aliases = new Map(f.parsed.aliases);
  const calledAt = new Set(f.parsed.calls.filter(([, line]) => inRanges(f.changed, line)).map(([n]) => n));
  const declaredHere = new Set(f.parsed.definitions.filter((d) => inRanges(f.changed, d.startLine)).map((d) => d.name));
  const used = new Map<string, boolean>();
  for (const [name, line] of f.parsed.identifiers) {
    if (!inRanges(f.changed, line) || name.length < 2 || declaredHere.has(name)) continue;
    const called = calledAt.has(name);
    const real = aliases.get(name) ?? name;
    used.set(real, (used.get(real) ?? false) || called);
  }
  return used;
}

function enclosing(f: ReviewedFile): ContextCandidate[] {
  const out: ContextCandidate[] = [];
  for (const region of f.regions) {
    const first = changedRanges(region)[0]?.start ?? region.startLine;
    const holders = f.parsed.definitions
      .filter((d) => d.kind !== 'constant' && d.startLine < region.startLine && d.startLine <= first && first <= d.endLine)
      .sort((a, b) => b.startLine - a.startLine)
      .slice(0, 2);
    holders.forEach((d, i) => out.push(enclosingCandidate({ file: f.file, language: f.language, startLine: d.startLine, signatureEnd: d.signatureEnd, symbol: d.container ? `${d.container}.${d.name}` : d.name, depth: i })));
  }
  return out;
}

function definitions(f: ReviewedFile, index: RepositoryIndex, sent: ReadonlyMap<string, LineRange[]>): ContextCandidate[] {
  const out: ContextCandidate[] = [];
  for (const [name, called] of usedNames(f)) {
    const found = index
      .definitions(name)
      .filter((d) => !(sent.get(d.file) ?? []).some((r) => r.start <= d.startLine && d.startLine <= r.end))
      .map((d, i) => ({ d, i, key: d.file === f.file ? -1 : f.distance(d.file) }))
      .sort((a, b) => a.key - b.key || a.i - b.i)
      .map((k) => k.d);
    // More definitions than are sent: found, or (a lookup stops at as many as are sent) in a file not parsed yet.
    const ambiguous = found.length > MAX_DEFINITIONS_PER_NAME || (found.length === MAX_DEFINITIONS_PER_NAME && index.mayDefineMore(name));
    for (const d of found.slice(0, MAX_DEFINITIONS_PER_NAME)) {
      out.push(
        definitionCandidate({ file: d.file, language: d.language, startLine: d.startLine, endLine: d.endLine, signatureEnd: d.signatureEnd, symbol: d.container ? `${d.container}.${d.name}` : d.name, kind: d.kind, forFile: f.file, called, ambiguous }),
      );
    }
  }
  return out;
}

function callers(f: ReviewedFile, index: RepositoryIndex): ContextCandidate[] {
  const out: ContextCandidate[] = [];
  for (const { def, signatureChanged } of changedFunctions(f)) {
    for (const c of index.nearestCalls(def.name, f.file, MAX_CALLERS)) {
      out.push(callerCandidate({ file: c.file, language: c.language, line: c.line, symbol: def.container ? `${def.container}.${def.name}` : def.name, forFile: f.file, signatureChanged }));
    }
  }
  return out;
}

/** The batch's lookups: the definitions of the names its changed lines use (not on lines the batch sends) and the call sites of the functions it changes. */
export function lookupsOf({ batch, reviewed }: PreparedBatch): Asked[] {
  const sent = sentLines(batch);
  const unsent = (d: { file: string; startLine: number }) => !(sent.get(d.file) ?? []).some((r) => r.start <= d.startLine && d.startLine <= r.end);
  return reviewed.flatMap((f) => [
    ...[...usedNames(f).keys()].map((name): Asked => ({ of: 'defines', name, near: f.file, keep: unsent })),
    ...changedFunctions(f).map(({ def }): Asked => ({ of: 'calls', name: def.name, near: f.file })),
  ]);
}

/** Parses what the batch's lookups need, nearest first; false when the budget stopped it before every lookup was done. */
async function reach(prepared: PreparedBatch, index: RepositoryIndex, budget: ContextBudget | undefined): Promise<boolean> {
  for (const asked of lookupsOf(prepared)) {
    const done = asked.of === 'defines' ? await index.reachDefinitions(asked.name, asked.near, asked.keep, budget) : await index.reachCalls(asked.name, asked.near, budget);
    if (!done) return false;
  }
  return true;
}

/** A batch whose reviewed files are read and parsed: what its lookups start from. */
export interface PreparedBatch {
  batch: ReviewTarget;
  reviewed: ReviewedFile[];
}

/**
 * Reads and parses the batch's reviewed files (their symbols from the index when it holds their content): nothing
 * here needs the names of the repository. Their text is not kept (every batch is prepared before the first is chosen).
 */
export async function prepareBatch(batch: ReviewTarget, index: RepositoryIndex, root: string): Promise<PreparedBatch> {
  return { batch, reviewed: await reviewedFiles(batch, new RepositoryFiles(root), index) };
}

/**
 * The context of one prepared batch from the repository index, within `options.maxTokens`, and whether every lookup
 * was done (not stopped by the time budget: then what was parsed in time is chosen from).
 */
export async function selectContext(prepared: PreparedBatch, index: RepositoryIndex, root: string, options: ContextOptions): Promise<{ context: BatchContext; complete: boolean }> {
  const complete = await reach(prepared, index, options.budget);
  return chooseFrom(prepared, candidatesOf(prepared, index), index, root, options, complete);
}

/**
 * What the batch's context is chosen from, as the index holds it now: read at once, so that a batch whose lookups
 * are done is chosen from the same files whatever the index's threads parse next.
 */
export function candidatesOf({ batch, reviewed }: PreparedBatch, index: RepositoryIndex): ContextCandidate[] {
  const sent = sentLines(batch);
  return reviewed.flatMap((f) => [...callers(f, index), ...enclosing(f), ...definitions(f, index, sent)]);
}

/** The batch's context chosen from `candidates`; kept for the next review when every lookup was done (`complete`). */
export async function chooseFrom({ batch }: PreparedBatch, candidates: ContextCandidate[], index: RepositoryIndex, root: string, options: ContextOptions, complete: boolean): Promise<{ context: BatchContext; complete: boolean }> {
  const context = await chooseContext(batch, candidates, new RepositoryFiles(root), options);
  // Kept only when every lookup was done: a context the time budget cut is looked up again next time.
  if (complete) index.keepChosen(batch, options.maxTokens, keptOf(context));
  return { context, complete };
}
