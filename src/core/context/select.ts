import type { SecretRedactor } from '../redaction/redactor';
import { type LineRange, rangesOverlap } from '../domain/lines';
import type { Region, ReviewTarget } from '../domain/target';
import { callerCandidate, chooseContext, definitionCandidate, enclosingCandidate, MAX_CALLERS, MAX_DEFINITIONS_PER_NAME, RepositoryFiles, sentLines, type ContextCandidate } from './candidates';
import { identifiersIn, parseFile, type Definition, type ParsedFile } from './extract';
import type { ContextBudget } from './budget';
import { distance } from './nearest';
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
}

async function reviewedFiles(batch: ReviewTarget, files: RepositoryFiles, index: RepositoryIndex): Promise<ReviewedFile[]> {
  const out: ReviewedFile[] = [];
  const held = [...new Set(batch.regions.map((r) => r.file))].filter((file) => index.holds(file));
  // Read at once (each once), parsed in order.
  for (const file of held) void files.lines(file);
  for (const file of held) {
    const regions = batch.regions.filter((r) => r.file === file);
    const language = regions[0]?.language ?? 'plaintext';
    const bytes = await files.bytes(file);
    const lines = await files.lines(file);
    if (!bytes || !lines) continue;
    const changed = regions.flatMap(changedRanges);
    const text = lines.join('\n');
    // Only the changed lines' identifiers are read (`usedNames`); the symbols are the index's when it holds this content.
    const known = index.symbolsAt(file, bytes);
    const identifiers = known && (index.identifiersAt(file, bytes, changed) ?? (await identifiersIn(text, language, changed)));
    const parsed = known && identifiers ? { ...known, identifiers } : await parseFile(text, language, changed);
    if (!parsed) continue;
    // Kept for the next review of this content: it parses nothing of it again.
    if (!known) index.learn(file, bytes, parsed);
    index.keepIdentifiers(file, bytes, changed, parsed.identifiers);
    out.push({ file, language, regions, changed, parsed });
  }
  return out;
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
      .sort((a, b) => (a.file === f.file ? -1 : 0) - (b.file === f.file ? -1 : 0) || distance(a.file, f.file) - distance(b.file, f.file));
    for (const d of found.slice(0, MAX_DEFINITIONS_PER_NAME)) {
      out.push(
        definitionCandidate({ file: d.file, language: d.language, startLine: d.startLine, endLine: d.endLine, signatureEnd: d.signatureEnd, symbol: d.container ? `${d.container}.${d.name}` : d.name, kind: d.kind, forFile: f.file, called, ambiguous: found.length > MAX_DEFINITIONS_PER_NAME }),
      );
    }
  }
  return out;
}

function callers(f: ReviewedFile, index: RepositoryIndex): ContextCandidate[] {
  const out: ContextCandidate[] = [];
  for (const { def, signatureChanged } of changedFunctions(f)) {
    const sites = index
      .calls(def.name)
      .filter((c) => c.file !== f.file)
      .sort((a, b) => distance(a.file, f.file) - distance(b.file, f.file) || a.file.localeCompare(b.file) || a.line - b.line);
    for (const c of sites.slice(0, MAX_CALLERS)) {
      out.push(callerCandidate({ file: c.file, language: c.language, line: c.line, symbol: def.container ? `${def.container}.${def.name}` : def.name, forFile: f.file, signatureChanged }));
    }
  }
  return out;
}

/**
 * Parses what the batch's lookups need, nearest first: the definitions of the names its changed lines use (not on
 * lines the batch sends) and the call sites of the functions it changes. Stops when the budget is over.
 */
async function reach(reviewed: readonly ReviewedFile[], index: RepositoryIndex, sent: ReadonlyMap<string, LineRange[]>, budget: ContextBudget | undefined): Promise<void> {
  const unsent = (d: { file: string; startLine: number }) => !(sent.get(d.file) ?? []).some((r) => r.start <= d.startLine && d.startLine <= r.end);
  for (const f of reviewed) {
    for (const name of usedNames(f).keys()) await index.reachDefinitions(name, f.file, unsent, budget);
    for (const { def } of changedFunctions(f)) await index.reachCalls(def.name, f.file, budget);
    if (budget?.over) return;
  }
}

/** The context of one batch from the repository index, within `options.maxTokens`. */
export async function selectContext(batch: ReviewTarget, index: RepositoryIndex, root: string, options: ContextOptions): Promise<BatchContext> {
  const files = new RepositoryFiles(root);
  const reviewed = await reviewedFiles(batch, files, index);
  const sent = sentLines(batch);
  await reach(reviewed, index, sent, options.budget);
  const candidates = reviewed.flatMap((f) => [...callers(f, index), ...enclosing(f), ...definitions(f, index, sent)]);
  return chooseContext(batch, candidates, files, options);
}
