import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeText, splitFileLines } from '../changes/skip';
import type { SecretRedactor } from '../redaction/redactor';
import type { LineRange, Region, ReviewTarget } from '../review/types';
import { countTokens } from '../tokens/count';
import { parseFile, type Definition, type ParsedFile } from './extract';
import type { RepositoryIndex } from './repoIndex';
import type { BatchContext, ContextKind, ContextSnippet, CutContext } from './types';

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
}

/** Lines a definition shows at most (its signature, then its body); a longer one is cut. */
const MAX_DEFINITION_LINES = 30;
/** Call sites shown per changed function, and lines around each. */
const MAX_CALLERS = 5;
const CALLER_AROUND = 2;
/** A name defined more often than this is too ambiguous to send every definition of. */
const MAX_DEFINITIONS_PER_NAME = 2;

interface Candidate {
  file: string;
  language: string;
  startLine: number;
  endLine: number;
  /** The least that is worth sending (a signature, the call's line): sent first for every candidate, then grown. */
  minEnd: number;
  minStart?: number;
  symbol: string;
  kind: ContextKind;
  forFile: string;
  score: number;
}

const changedRanges = (r: Region): LineRange[] => r.changedLines ?? [{ start: r.startLine, end: r.endLine }];
const inRanges = (ranges: readonly LineRange[], line: number) => ranges.some((c) => c.start <= line && line <= c.end);
const overlaps = (a: LineRange, b: LineRange) => a.start <= b.end && b.start <= a.end;

/** Directory distance between two paths: 0 in the same folder. */
function distance(a: string, b: string): number {
  const pa = a.split('/').slice(0, -1);
  const pb = b.split('/').slice(0, -1);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.length - i + (pb.length - i);
}

class Files {
  private readonly cache = new Map<string, Promise<string[] | undefined>>();
  constructor(private readonly root: string) {}

  lines(path: string): Promise<string[] | undefined> {
    let known = this.cache.get(path);
    if (!known) {
      known = readFile(join(this.root, path)).then(
        (b) => splitFileLines(decodeText(b)),
        () => undefined,
      );
      this.cache.set(path, known);
    }
    return known;
  }
}

/** The parts of `range` outside every range in `taken` (the first such part, the one nearest its start). */
function outside(range: LineRange, taken: readonly LineRange[]): LineRange | undefined {
  let { start, end } = range;
  for (const t of [...taken].sort((a, b) => a.start - b.start)) {
    if (!overlaps({ start, end }, t)) continue;
    if (t.start <= start) start = t.end + 1;
    else end = t.start - 1;
    if (start > end) return undefined;
  }
  return start <= end ? { start, end } : undefined;
}

/** The first line of the stretch ending at `at` that no range in `taken` holds, going up to `from` at most. */
function startOfRun(at: number, from: number, taken: readonly LineRange[]): number {
  let start = at;
  while (start > from && !taken.some((r) => r.start <= start - 1 && start - 1 <= r.end)) start--;
  return start;
}

interface ReviewedFile {
  file: string;
  language: string;
  regions: Region[];
  changed: LineRange[];
  parsed: ParsedFile;
}

async function reviewedFiles(batch: ReviewTarget, files: Files, index: RepositoryIndex): Promise<ReviewedFile[]> {
  const out: ReviewedFile[] = [];
  for (const file of [...new Set(batch.regions.map((r) => r.file))]) {
    if (!index.holds(file)) continue;
    const regions = batch.regions.filter((r) => r.file === file);
    const language = regions[0]?.language ?? 'plaintext';
    const lines = await files.lines(file);
    if (!lines) continue;
    const parsed = await parseFile(lines.join('\n'), language);
    if (!parsed) continue;
    out.push({ file, language, regions, changed: regions.flatMap(changedRanges), parsed });
  }
  return out;
}

function changedFunctions(f: ReviewedFile): { def: Definition; signatureChanged: boolean }[] {
  return f.parsed.definitions
    .filter((d) => (d.kind === 'function' || d.kind === 'method') && f.changed.some((c) => overlaps(c, { start: d.startLine, end: d.endLine })))
    .map((def) => ({ def, signatureChanged: f.changed.some((c) => overlaps(c, { start: def.startLine, end: def.signatureEnd })) }));
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

function enclosing(f: ReviewedFile): Candidate[] {
  const out: Candidate[] = [];
  for (const region of f.regions) {
    const first = changedRanges(region)[0]?.start ?? region.startLine;
    const holders = f.parsed.definitions
      .filter((d) => d.kind !== 'constant' && d.startLine < region.startLine && d.startLine <= first && first <= d.endLine)
      .sort((a, b) => b.startLine - a.startLine)
      .slice(0, 2);
    holders.forEach((d, i) =>
      out.push({ file: f.file, language: f.language, startLine: d.startLine, endLine: d.signatureEnd, minEnd: d.signatureEnd, symbol: d.container ? `${d.container}.${d.name}` : d.name, kind: 'enclosing', forFile: f.file, score: 80 - i * 10 }),
    );
  }
  return out;
}

const DEFINITION_SCORE: Record<Definition['kind'], number> = { function: 70, method: 65, class: 55, type: 55, constant: 50 };

function definitions(f: ReviewedFile, index: RepositoryIndex, sent: ReadonlyMap<string, LineRange[]>): Candidate[] {
  const out: Candidate[] = [];
  for (const [name, called] of usedNames(f)) {
    const found = index
      .definitions(name)
      .filter((d) => !(sent.get(d.file) ?? []).some((r) => r.start <= d.startLine && d.startLine <= r.end))
      .sort((a, b) => (a.file === f.file ? -1 : 0) - (b.file === f.file ? -1 : 0) || distance(a.file, f.file) - distance(b.file, f.file));
    for (const d of found.slice(0, MAX_DEFINITIONS_PER_NAME)) {
      const score = DEFINITION_SCORE[d.kind] + (called ? 20 : 0) - (found.length > MAX_DEFINITIONS_PER_NAME ? 15 : 0);
      out.push({
        file: d.file,
        language: d.language,
        startLine: d.startLine,
        endLine: Math.min(d.endLine, d.startLine + MAX_DEFINITION_LINES - 1),
        minEnd: d.signatureEnd,
        symbol: d.container ? `${d.container}.${d.name}` : d.name,
        kind: 'definition',
        forFile: f.file,
        score,
      });
    }
  }
  return out;
}

function callers(f: ReviewedFile, index: RepositoryIndex): Candidate[] {
  const out: Candidate[] = [];
  for (const { def, signatureChanged } of changedFunctions(f)) {
    const sites = index
      .calls(def.name)
      .filter((c) => c.file !== f.file)
      .sort((a, b) => distance(a.file, f.file) - distance(b.file, f.file) || a.file.localeCompare(b.file) || a.line - b.line);
    for (const c of sites.slice(0, MAX_CALLERS)) {
      out.push({
        file: c.file,
        language: c.language,
        startLine: Math.max(1, c.line - CALLER_AROUND),
        endLine: c.line + CALLER_AROUND,
        minStart: c.line,
        minEnd: c.line,
        symbol: def.container ? `${def.container}.${def.name}` : def.name,
        kind: 'caller',
        forFile: f.file,
        score: signatureChanged ? 100 : 45,
      });
    }
  }
  return out;
}

/** The names whose definitions and call sites the batch needs: what the index must have parsed before lookups. */
function reachedNames(reviewed: readonly ReviewedFile[]): { definitions: string[]; called: string[] } {
  const definitions = new Set<string>();
  const called = new Set<string>();
  for (const f of reviewed) {
    for (const n of usedNames(f).keys()) definitions.add(n);
    for (const { def } of changedFunctions(f)) called.add(def.name);
  }
  return { definitions: [...definitions], called: [...called] };
}

/** The context of one batch from the repository index, within `options.maxTokens`. */
export async function selectContext(batch: ReviewTarget, index: RepositoryIndex, root: string, options: ContextOptions): Promise<BatchContext> {
  const files = new Files(root);
  const reviewed = await reviewedFiles(batch, files, index);
  const reached = reachedNames(reviewed);
  await index.reach(reached.definitions, reached.called);
  const sent = new Map<string, LineRange[]>();
  for (const r of batch.regions) sent.set(r.file, [...(sent.get(r.file) ?? []), { start: r.startLine, end: r.endLine }]);
  const candidates = reviewed.flatMap((f) => [...callers(f, index), ...enclosing(f), ...definitions(f, index, sent)]);
  candidates.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.startLine - b.startLine);

  // Lines already sent (reviewed or chosen) are never sent twice; a candidate keeps what is left of it. Every
  // candidate is first taken at its least (a signature, a call's line), in rank order, then grown to its whole
  // (body, lines around) in the same order while the budget lasts: many small pieces beat a few whole ones.
  const taken = new Map<string, LineRange[]>([...sent].map(([f, r]) => [f, [...r]]));
  const cost = (c: Candidate, lines: readonly string[], r: LineRange) =>
    countTokens(lines.slice(r.start - 1, r.end).join('\n')) + countTokens(`File: ${c.file} (${c.kind} ${c.symbol}, lines ${r.start}-${r.end})`) + 8;
  const chosen: { c: Candidate; lines: string[]; range: LineRange; tokens: number }[] = [];
  const cut: CutContext[] = [];
  let tokens = 0;
  for (const c of candidates) {
    const lines = await files.lines(c.file);
    if (!lines) continue;
    const least = { start: c.minStart ?? c.startLine, end: Math.min(c.minEnd, lines.length) };
    const range = outside(least, taken.get(c.file) ?? []);
    if (!range) continue;
    const t = cost(c, lines, range);
    if (tokens + t > options.maxTokens) {
      if (!cut.some((k) => k.file === c.file && k.symbol === c.symbol && k.kind === c.kind)) cut.push({ file: c.file, symbol: c.symbol, kind: c.kind });
      continue;
    }
    tokens += t;
    taken.set(c.file, [...(taken.get(c.file) ?? []), range]);
    chosen.push({ c, lines, range, tokens: t });
  }
  for (const pick of chosen) {
    const { c, lines } = pick;
    const others = (taken.get(c.file) ?? []).filter((r) => r !== pick.range);
    const whole = outside({ start: Math.max(c.startLine, startOfRun(pick.range.start, c.startLine, others)), end: Math.min(c.endLine, lines.length) }, others);
    if (!whole || whole.start > pick.range.start || whole.end < pick.range.end || (whole.start === pick.range.start && whole.end === pick.range.end)) continue;
    const t = cost(c, lines, whole);
    if (tokens - pick.tokens + t > options.maxTokens) continue;
    tokens += t - pick.tokens;
    taken.set(c.file, [...others, whole]);
    Object.assign(pick, { range: whole, tokens: t });
  }
  const snippets: ContextSnippet[] = [];
  for (const { c, lines, range, tokens: t } of chosen) {
    let text = lines.slice(range.start - 1, range.end).join('\n');
    if (options.redactor) text = await options.redactor.redactSnippet(text, range.start, c.file);
    snippets.push({ file: c.file, language: c.language, startLine: range.start, endLine: range.end, text, symbol: c.symbol, kind: c.kind, forFile: c.forFile, tokens: t });
  }
  return { snippets, cut };
}
