import { readFile } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodeText, splitFileLines } from '../changes/skip';
import type { SecretRedactor } from '../redaction/redactor';
import { type LineRange, rangesOverlap } from '../domain/lines';
import type { ReviewTarget } from '../domain/target';
import { countTokens } from '../tokens/count';
import type { Definition } from './extract';
import type { ContextKind } from '../../shared/codeContext';
import type { BatchContext } from './types';
import type { ContextSnippet, CutContext } from '../domain/context';

/**
 * Candidate snippets of context and how they are ranked, de-duplicated and cut to a batch's budget — the one
 * selection, whichever source found the candidates (core's tree-sitter index, the editor's language server).
 */

export interface ContextCandidate {
  /** Repository-relative path, forward slashes. */
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

/** Call sites shown per changed function. */
export const MAX_CALLERS = 5;
/** A name defined more often than this is too ambiguous to send every definition of. */
export const MAX_DEFINITIONS_PER_NAME = 2;
/** Lines a definition shows at most (its signature, then its body); a longer one is cut. */
const MAX_DEFINITION_LINES = 30;
/** Fewer tokens than any snippet costs: its header line alone ("File: a (caller f, lines 1-1)") and the fence's 8. */
const LEAST_SNIPPET_TOKENS = 16;
/** Lines shown around a call site. */
const CALLER_AROUND = 2;

const DEFINITION_SCORE: Record<Definition['kind'], number> = { function: 70, method: 65, class: 55, type: 55, constant: 50 };

/** A definition that the changed lines use: called ones and functions rank first; a name defined often ranks lower. */
export function definitionCandidate(d: { file: string; language: string; startLine: number; endLine: number; signatureEnd: number; symbol: string; kind: Definition['kind']; forFile: string; called: boolean; ambiguous: boolean }): ContextCandidate {
  return {
    file: d.file,
    language: d.language,
    startLine: d.startLine,
    endLine: Math.min(d.endLine, d.startLine + MAX_DEFINITION_LINES - 1),
    minEnd: Math.min(d.signatureEnd, d.endLine),
    symbol: d.symbol,
    kind: 'definition',
    forFile: d.forFile,
    score: DEFINITION_SCORE[d.kind] + (d.called ? 20 : 0) - (d.ambiguous ? 15 : 0),
  };
}

/** A call site of a changed function in another file, with a few lines around: first of all when the signature changed. */
export function callerCandidate(c: { file: string; language: string; line: number; symbol: string; forFile: string; signatureChanged: boolean }): ContextCandidate {
  return {
    file: c.file,
    language: c.language,
    startLine: Math.max(1, c.line - CALLER_AROUND),
    endLine: c.line + CALLER_AROUND,
    minStart: c.line,
    minEnd: c.line,
    symbol: c.symbol,
    kind: 'caller',
    forFile: c.forFile,
    score: c.signatureChanged ? 100 : 45,
  };
}

/** The signature of the function or class that holds a hunk; `depth` 0 is the innermost. */
export function enclosingCandidate(e: { file: string; language: string; startLine: number; signatureEnd: number; symbol: string; depth: number }): ContextCandidate {
  return { file: e.file, language: e.language, startLine: e.startLine, endLine: e.signatureEnd, minEnd: e.signatureEnd, symbol: e.symbol, kind: 'enclosing', forFile: e.file, score: 80 - e.depth * 10 };
}

const readBytes = promisify(readFile);

/** A repository's files, as bytes and as lines, each read once. */
export class RepositoryFiles {
  private readonly read = new Map<string, Promise<Buffer | undefined>>();
  private readonly split = new Map<string, Promise<string[] | undefined>>();
  constructor(private readonly root: string) {}

  bytes(path: string): Promise<Buffer | undefined> {
    let known = this.read.get(path);
    if (!known) {
      known = readBytes(join(this.root, path)).catch(() => undefined);
      this.read.set(path, known);
    }
    return known;
  }

  lines(path: string): Promise<string[] | undefined> {
    let known = this.split.get(path);
    if (!known) {
      known = this.bytes(path).then((b) => (b ? splitFileLines(decodeText(b)) : undefined));
      this.split.set(path, known);
    }
    return known;
  }
}


/** The parts of `range` outside every range in `taken` (the first such part, the one nearest its start). */
function outside(range: LineRange, taken: readonly LineRange[]): LineRange | undefined {
  let { start, end } = range;
  for (const t of [...taken].sort((a, b) => a.start - b.start)) {
    if (!rangesOverlap({ start, end }, t)) continue;
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

/** The lines the batch sends, by file. */
export function sentLines(batch: ReviewTarget): Map<string, LineRange[]> {
  const sent = new Map<string, LineRange[]>();
  for (const r of batch.regions) sent.set(r.file, [...(sent.get(r.file) ?? []), { start: r.startLine, end: r.endLine }]);
  return sent;
}

interface ChooseOptions {
  maxTokens: number;
  /** The review's redactor: secrets in the snippets are replaced by placeholders as in the reviewed code; undefined: not redacted. */
  redactor: SecretRedactor | undefined;
}

/**
 * The batch's context from its candidates: ranked, never repeating a line the batch sends or another snippet
 * shows, cut to `maxTokens` with what did not fit named, and redacted.
 */
export async function chooseContext(batch: ReviewTarget, candidates: readonly ContextCandidate[], files: RepositoryFiles, options: ChooseOptions): Promise<BatchContext> {
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.startLine - b.startLine);
  // Lines already sent (reviewed or chosen) are never sent twice; a candidate keeps what is left of it. Every
  // candidate is first taken at its least (a signature, a call's line), in rank order, then grown to its whole
  // (body, lines around) in the same order while the budget lasts: many small pieces beat a few whole ones.
  const taken = new Map<string, LineRange[]>([...sentLines(batch)].map(([f, r]) => [f, [...r]]));
  const cost = (c: ContextCandidate, lines: readonly string[], r: LineRange) =>
    countTokens(lines.slice(r.start - 1, r.end).join('\n')) + countTokens(`File: ${c.file} (${c.kind} ${c.symbol}, lines ${r.start}-${r.end})`) + 8;
  const chosen: { c: ContextCandidate; lines: string[]; range: LineRange; tokens: number }[] = [];
  const cut: CutContext[] = [];
  let tokens = 0;
  // Every candidate's file is read at once (each once), not one after the other as the loop reaches it.
  for (const c of ranked) void files.lines(c.file);
  for (const c of ranked) {
    const lines = await files.lines(c.file);
    if (!lines) continue;
    const least = { start: c.minStart ?? c.startLine, end: Math.min(c.minEnd, lines.length) };
    const range = outside(least, taken.get(c.file) ?? []);
    if (!range) continue;
    // Once too little is left for any snippet, the rest are cut without counting their tokens.
    const t = options.maxTokens - tokens < LEAST_SNIPPET_TOKENS ? Infinity : cost(c, lines, range);
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
