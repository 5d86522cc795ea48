import { SEVERITY_KEYS, TITLE_KEYS } from '../../shared/answerKeys';
import { SEVERITIES, type Severity } from '../../shared/severity';
import { filesOf, matchFile, type Region, type ReviewTarget } from '../domain/target';
import { type Finding } from '../domain/finding';
import { looksLikeProse } from '../fix/replacement';
import { cleanCode } from './code';
import { isOneOf, isRecord } from '../../shared/guards';
import { extractJson, pick, pickString } from './json';

/** Turning a reviewer's answer into findings, however messy the answer is. */

interface ParsedFindings {
  /** False when no findings JSON could be found; the answer is then kept as text. */
  parsed: boolean;
  findings: Finding[];
}

const SEVERITY_WORDS: Record<string, Severity> = {
  critical: 'critical', blocker: 'critical', fatal: 'critical', severe: 'critical', crit: 'critical',
  high: 'high', major: 'high', error: 'high', important: 'high',
  medium: 'medium', moderate: 'medium', warning: 'medium', warn: 'medium', med: 'medium',
  low: 'low', minor: 'low', trivial: 'low',
  info: 'info', information: 'info', informational: 'info', note: 'info', hint: 'info', nit: 'info', style: 'info',
};

function normalizeSeverity(value: unknown): Severity {
  if (typeof value !== 'string') return 'medium';
  const word = value.trim().toLowerCase().replace(/[^a-z]/g, '');
  if (isOneOf(SEVERITIES, word)) return word;
  return SEVERITY_WORDS[word] ?? 'medium';
}

/**
 * A CWE id, only from a well-formed value: a positive integer (`89`, `"89"`), or `CWE-89` at the start of the
 * text (any case; `CWE 89`, `CWE_89`, `CWE89` and `CWE-89: SQL Injection` are accepted). Anything else
 * (`javascript:alert(1)//79`, `see 79`, `CWE-0`) gives no CWE rather than a guess.
 */
export function normalizeCwe(value: unknown): string | undefined {
  const id = (n: number) => (Number.isSafeInteger(n) && n > 0 && n < 100_000 ? `CWE-${n}` : undefined);
  if (typeof value === 'number') return id(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d{1,5}$/.test(text)) return id(Number(text));
  const m = /^CWE[-_\s]?(\d{1,5})(?!\w)/i.exec(text);
  return m ? id(Number(m[1])) : undefined;
}

function normalizeConfidence(value: unknown): number {
  let n: number | undefined;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'high') return 0.9;
    if (word === 'medium' || word === 'moderate') return 0.6;
    if (word === 'low') return 0.3;
    const parsed = Number.parseFloat(word);
    if (Number.isFinite(parsed)) n = word.endsWith('%') ? parsed / 100 : parsed;
  }
  if (n === undefined || !Number.isFinite(n) || n < 0) return 0.6;
  if (n > 1) n = n <= 100 ? n / 100 : 1;
  return Math.round(n * 1000) / 1000;
}

function toLine(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string') {
    const m = /(\d+)/.exec(value);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** Line numbers from the many ways models write them: startLine/endLine, line, lines "12-14", [12, 14]. */
function linesOf(raw: Record<string, unknown>): { start?: number; end?: number } {
  const startValue = pick(raw, ['startLine', 'start_line', 'lineStart', 'line_start', 'start', 'fromLine', 'from', 'line']);
  let start = toLine(startValue);
  let end = toLine(pick(raw, ['endLine', 'end_line', 'lineEnd', 'line_end', 'end', 'toLine', 'to']));
  const lines = typeof startValue === 'string' && end === undefined ? startValue : pick(raw, ['lines', 'lineRange', 'line_range', 'range', 'location']);
  if (lines === startValue) start = undefined;
  if (start === undefined && lines !== undefined) {
    if (Array.isArray(lines)) {
      start = toLine(lines[0]);
      end ??= toLine(lines[lines.length - 1]);
    } else if (typeof lines === 'number') {
      start = lines;
    } else if (typeof lines === 'string') {
      const m = /(\d+)(?:\s*(?:-|–|to|\.\.|:)\s*L?(\d+))?/.exec(lines);
      if (m) {
        start = Number(m[1]);
        if (m[2] !== undefined) end ??= Number(m[2]);
      }
    } else if (isRecord(lines)) {
      return linesOf(lines);
    }
  }
  return { start, end: end ?? start };
}

/**
 * Puts a finding's lines inside the reviewed range. Lines outside it are moved to the nearest edge and the
 * finding is flagged `clamped`; a start after the end is swapped.
 */
function clampLines(start: number | undefined, end: number | undefined, target: Pick<Region, 'startLine' | 'endLine'>): { startLine: number; endLine: number; clamped: boolean; known: boolean } {
  if (start === undefined) return { startLine: target.startLine, endLine: target.endLine, clamped: false, known: false };
  let s = start;
  let e = end ?? start;
  if (e < s) [s, e] = [e, s];
  const clamp = (n: number) => Math.min(target.endLine, Math.max(target.startLine, n));
  const cs = clamp(s);
  const ce = clamp(e);
  return { startLine: cs, endLine: ce, clamped: cs !== s || ce !== e, known: true };
}

function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const sentence = /^(.{1,100}?[.!?。])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > 100 ? sentence.slice(0, 97) + '...' : sentence;
}

/** Where findings may point: the reviewed regions (file and lines), and what kind of review sent them. */
interface FindingScope {
  kind?: ReviewTarget['kind'];
  regions: readonly Pick<Region, 'file' | 'startLine' | 'endLine'>[];
  /** Read-only context sent beside the regions: findings on its lines are dropped. */
  context?: readonly Pick<Region, 'file' | 'startLine' | 'endLine'>[];
}

type ScopeRegion = FindingScope['regions'][number];

const FILE_KEYS = ['file', 'path', 'filePath', 'file_path', 'filename', 'fileName', 'file_name', 'uri'];

/** The distance from line n to a region (0 inside it). */
const distanceTo = (r: ScopeRegion, n: number) => (n < r.startLine ? r.startLine - n : n > r.endLine ? n - r.endLine : 0);

/**
 * The region a finding belongs to: of the file it names (or, when it names none or an unknown one, of the
 * only file, or of the file whose regions hold its first line), the one holding or nearest to its first line.
 */
function regionFor(raw: Record<string, unknown>, start: number | undefined, scope: FindingScope): ScopeRegion | undefined {
  const files = filesOf(scope);
  const named = pickString(raw, FILE_KEYS) ?? (isRecord(raw.location) ? pickString(raw.location, FILE_KEYS) : undefined);
  let file = named !== undefined ? matchFile(files, named) : undefined;
  // A file the review did not send (another file of the repository, a skipped one) is not pinned on one it did:
  // in a review of changes, or of several files, the file a finding names decides. A selection's only file takes
  // any name (models name a snippet loosely).
  if (named !== undefined && file === undefined && (scope.kind === 'changes' || files.length > 1)) return undefined;
  // Context is not reviewed: a finding in a context file, or on context lines of a reviewed file, is dropped.
  if (named !== undefined && file === undefined && scope.context?.some((c) => matchFile([c.file], named) !== undefined)) return undefined;
  if (start !== undefined && !scope.regions.some((r) => distanceTo(r, start) === 0) && scope.context?.some((c) => (file === undefined || c.file === file) && c.startLine <= start && start <= c.endLine)) return undefined;
  if (file === undefined && files.length === 1) file = files[0];
  if (file === undefined && start !== undefined) {
    const holding = [...new Set(scope.regions.filter((r) => distanceTo(r, start) === 0).map((r) => r.file))];
    if (holding.length === 1) file = holding[0];
  }
  const candidates = file === undefined ? scope.regions : scope.regions.filter((r) => r.file === file);
  if (start === undefined) return candidates[0];
  let best: ScopeRegion | undefined;
  for (const r of candidates) if (best === undefined || distanceTo(r, start) < distanceTo(best, start)) best = r;
  return best;
}

function toFinding(raw: unknown, index: number, agent: string, scope: FindingScope, shift: number): Finding | undefined {
  if (!isRecord(raw)) return undefined;
  const explanation = pickString(raw, ['explanation', 'description', 'details', 'detail', 'reason', 'message', 'body', 'impact']) ?? '';
  const titleText = pickString(raw, TITLE_KEYS);
  if (!titleText && !explanation) return undefined;
  const title = (titleText ?? firstSentence(explanation)).trim().replace(/\s+/g, ' ');
  const { start, end } = linesOf(raw);
  const region = regionFor(raw, start === undefined ? start : start + shift, scope);
  if (!region) return undefined;
  const lines = clampLines(start === undefined ? start : start + shift, end === undefined ? end : end + shift, region);
  const confidence = normalizeConfidence(pick(raw, ['confidence', 'certainty', 'probability']));
  const named = { startLine: Math.min(start ?? 0, end ?? start ?? 0) + shift, endLine: Math.max(start ?? 0, end ?? start ?? 0) + shift };
  const outside = lines.clamped && (named.endLine < region.startLine || named.startLine > region.endLine);
  // Wholly outside the reviewed lines and not likely right: dropped rather than pinned to the nearest line.
  if (outside && confidence < OUTSIDE_MIN_CONFIDENCE) return undefined;
  const finding: Finding = {
    id: `${agent}-${index + 1}`,
    file: region.file,
    agents: [agent],
    severity: normalizeSeverity(pick(raw, SEVERITY_KEYS)),
    title: title.length > 200 ? title.slice(0, 197) + '...' : title,
    explanation: explanation.trim().slice(0, MAX_EXPLANATION),
    startLine: lines.startLine,
    endLine: lines.endLine,
    confidence,
  };
  // The replacement is code for exactly the lines the model named: kept only when those lines are known and in
  // range, and only when it is code; advice in words (also in a code field of an older answer) is advice.
  const replacement = pickString(raw, REPLACEMENT_KEYS);
  let advice = pickString(raw, ADVICE_KEYS)?.trim();
  if (replacement !== undefined && replacement.length <= MAX_SUGGESTION) {
    const code = cleanCode(replacement, lines.startLine);
    if (looksLikeProse(code)) advice = advice ? `${advice}\n\n${replacement.trim()}` : replacement.trim();
    else if (lines.known && !lines.clamped) finding.suggestion = code;
  }
  if (advice) finding.advice = advice.slice(0, MAX_EXPLANATION);
  const cwe = normalizeCwe(pick(raw, ['cwe', 'cwe_id', 'cweId', 'cwe-id']));
  if (cwe) finding.cwe = cwe;
  if (lines.clamped) {
    finding.clamped = true;
    finding.reportedLines = named;
  }
  return finding;
}

/** Code fields: `replacement` is what the prompt asks for; the others are older answers' and other models' names. */
const REPLACEMENT_KEYS = ['replacement', 'replacementCode', 'replacement_code', 'suggestion', 'suggestedCode', 'suggested_code', 'fix', 'fixedCode', 'fixed_code', 'patch'];
const ADVICE_KEYS = ['advice', 'recommendation', 'remediation', 'howToFix', 'how_to_fix', 'mitigation'];
/** A finding wholly outside the reviewed lines is kept (marked) only from this confidence up. */
const OUTSIDE_MIN_CONFIDENCE = 0.5;

const LIST_KEYS = ['findings', 'issues', 'results', 'problems', 'vulnerabilities', 'items', 'comments', 'review'];

function findingList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value.every((v) => isRecord(v)) ? Array.from<unknown>(value) : undefined;
  if (!isRecord(value)) return undefined;
  const list = pick(value, LIST_KEYS);
  if (Array.isArray(list)) return Array.from<unknown>(list);
  if (isRecord(list)) return findingList(list);
  // A single finding on its own.
  if (pickString(value, ['title', 'summary', 'issue']) && (pick(value, ['severity', 'level']) !== undefined || pick(value, ['startLine', 'line', 'lines']) !== undefined)) return [value];
  return undefined;
}

/**
 * Some models number lines from 1 within the snippet despite the line-number column. When EVERY located finding
 * lies above the reviewed range and inside 1..(length of the range), the answer is read as relative and shifted
 * into the file's numbering; a single finding in or across the range means the numbers are the file's.
 */
function relativeShift(list: readonly unknown[], scope: FindingScope): number {
  const target = scope.regions.length === 1 ? scope.regions[0] : undefined;
  if (!target || target.startLine <= 1) return 0;
  const length = target.endLine - target.startLine + 1;
  const located = list.filter(isRecord).map(linesOf).filter((l): l is { start: number; end?: number } => l.start !== undefined);
  if (located.length === 0) return 0;
  const relative = located.every((l) => {
    const lo = Math.min(l.start, l.end ?? l.start);
    const hi = Math.max(l.start, l.end ?? l.start);
    return lo >= 1 && hi <= length && hi < target.startLine;
  });
  return relative ? target.startLine - 1 : 0;
}

/** Findings kept from one answer; a runaway answer must not make merging (quadratic) or the UI crawl. */
export const MAX_FINDINGS_PER_AGENT = 100;
const MAX_EXPLANATION = 8_000;
const MAX_SUGGESTION = 100_000;

/**
 * Parses a reviewer's answer into findings in the FILE's numbering, each in the file it names (the only file when
 * it names none) and clamped to the reviewed region nearest its lines.
 */
export function parseFindings(text: string, agent: string, scope: FindingScope): ParsedFindings {
  const list = extractJson(text, findingList);
  if (!list || scope.regions.length === 0) return { parsed: false, findings: [] };
  const shift = relativeShift(list, scope);
  const findings: Finding[] = [];
  for (const raw of list) {
    if (findings.length >= MAX_FINDINGS_PER_AGENT) break;
    const f = toFinding(raw, findings.length, agent, scope, shift);
    if (f) findings.push(f);
  }
  return { parsed: true, findings };
}
