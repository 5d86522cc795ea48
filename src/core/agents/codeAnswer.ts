import { CODE_KEYS } from '../../shared/answerKeys';
import { filesOf, matchFile, type Region } from '../domain/target';
import type { CodeReplacement } from '../domain/result';
import { isAdvice } from '../fix/replacement';
import { cleanCode } from './code';
import { isRecord } from '../../shared/guards';
import { extractJson, pick, pickString, stripReasoning } from './json';

/** The coding agent's answer: an improved version of exactly the reviewed lines (per region), and why. */
interface ParsedCodeAnswer {
  parsed: boolean;
  /** The improved code of a single-region review. */
  improvedCode?: string;
  /** The improved code per region (one for a single region). */
  replacements?: CodeReplacement[];
  rationale?: string;
}

/** Where the coding agent may replace code: the reviewed regions. */
interface CodeScope {
  regions: readonly (Pick<Region, 'file' | 'startLine' | 'endLine' | 'changedLines' | 'removed'> & { language?: string })[];
}

const RATIONALE_KEYS = ['rationale', 'explanation', 'summary', 'notes', 'reasoning', 'changes', 'description'];
const LIST_KEYS = ['replacements', 'regions', 'edits', 'changes', 'files'];

/** A single region without change data: the answer is `{"rationale","improvedCode"}` (as the prompt asks). */
function plainRegion(scope: CodeScope): CodeScope['regions'][number] | undefined {
  const only = scope.regions.length === 1 ? scope.regions[0] : undefined;
  return only && !only.changedLines && !only.removed ? only : undefined;
}

function toLine(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

/** One `{file,startLine,endLine,code}` entry, kept only when its lines lie inside a reviewed region of that file. */
function toReplacement(raw: unknown, scope: CodeScope): CodeReplacement | undefined {
  if (!isRecord(raw)) return undefined;
  const code = pickString(raw, CODE_KEYS);
  if (code === undefined && typeof pick(raw, CODE_KEYS) !== 'string') return undefined;
  const files = filesOf(scope);
  const named = pickString(raw, ['file', 'path', 'filePath', 'file_path', 'filename']);
  const file = named !== undefined ? matchFile(files, named) : files.length === 1 ? files[0] : undefined;
  const start = toLine(pick(raw, ['startLine', 'start_line', 'start', 'fromLine']));
  const end = toLine(pick(raw, ['endLine', 'end_line', 'end', 'toLine'])) ?? start;
  if (file === undefined || start === undefined || end === undefined || end < start) return undefined;
  const region = scope.regions.find((r) => r.file === file && r.startLine <= start && end <= r.endLine);
  if (!region) return undefined;
  return { file, startLine: start, endLine: end, code: cleanCode(code ?? '', start) };
}

/**
 * Advice written where code belongs ("Use a parameterized query instead: cur.execute(...)") is not offered as a
 * replacement (Apply would paste it over the lines): it is kept with the rationale, headed by its file and lines.
 * Files whose language is prose (Markdown, plain text) take words.
 */
function splitAdvice(replacements: readonly CodeReplacement[], scope: CodeScope): { code: CodeReplacement[]; advice: string[] } {
  const code: CodeReplacement[] = [];
  const advice: string[] = [];
  for (const r of replacements) {
    const language = scope.regions.find((g) => g.file === r.file)?.language;
    if (isAdvice(r.code, language)) advice.push(`${r.file}:${r.startLine}-${r.endLine}: ${r.code.trim()}`);
    else code.push(r);
  }
  return { code, advice };
}

function replacementList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return Array.from<unknown>(value);
  if (!isRecord(value)) return undefined;
  const list = pick(value, LIST_KEYS);
  return Array.isArray(list) ? list : undefined;
}

/**
 * Reads the coding agent's answer. For a single region: `{"rationale","improvedCode"}` JSON, or else prose with a
 * fenced code block (the longest one is the code, the prose around it the rationale). For several regions (or
 * changes): `{"rationale","replacements":[{file,startLine,endLine,code}]}`, each kept only inside a reviewed region.
 * Code is cleaned of fences and of the line-number column.
 */
export function parseCodeAnswer(text: string, scope: CodeScope): ParsedCodeAnswer {
  const plain = plainRegion(scope);
  if (!plain) {
    const json = extractJson(text, (v) => (replacementList(v) !== undefined ? v : undefined));
    if (json === undefined) {
      // One region answered in the single-region shape is still that region's code.
      const only = scope.regions.length === 1 ? scope.regions[0] : undefined;
      const single = only ? adviceAsRationale(parsePlain(text, only.startLine), only.language) : { parsed: false };
      if (!only || !single.parsed || single.improvedCode === undefined) return { parsed: false };
      return { parsed: true, replacements: [{ file: only.file, startLine: only.startLine, endLine: only.endLine, code: single.improvedCode }], ...(single.rationale ? { rationale: single.rationale } : {}) };
    }
    const listed = (replacementList(json) ?? []).map((r) => toReplacement(r, scope)).filter((r): r is CodeReplacement => r !== undefined);
    const { code: replacements, advice } = splitAdvice(listed, scope);
    const rationale = [isRecord(json) ? pickString(json, RATIONALE_KEYS.filter((k) => k !== 'changes'))?.trim() : undefined, ...advice].filter((t) => t).join('\n\n');
    return { parsed: true, replacements, ...(rationale ? { rationale } : {}) };
  }
  const single = adviceAsRationale(parsePlain(text, plain.startLine), plain.language);
  if (!single.parsed || single.improvedCode === undefined) return single;
  return { ...single, replacements: [{ file: plain.file, startLine: plain.startLine, endLine: plain.endLine, code: single.improvedCode }] };
}

/**
 * A single region's "improved code" that reads as advice ("Use a parameterized query: cur.execute(...)") is not
 * offered as code to apply: it joins the rationale, as a review of changes does with such a region (splitAdvice).
 */
function adviceAsRationale(answer: ParsedCodeAnswer, language: string | undefined): ParsedCodeAnswer {
  const code = answer.improvedCode;
  if (code === undefined || !isAdvice(code, language)) return answer;
  const rationale = [answer.rationale, code.trim()].filter((t) => t).join('\n\n');
  return { parsed: true, ...(rationale ? { rationale } : {}) };
}

function parsePlain(text: string, startLine: number): ParsedCodeAnswer {
  const json = extractJson(text, (v) => {
    const code = isRecord(v) ? pickString(v, CODE_KEYS) : undefined;
    return isRecord(v) && code !== undefined ? { code, rationale: pickString(v, RATIONALE_KEYS)?.trim() } : undefined;
  });
  if (json) {
    const { code, rationale } = json;
    return { parsed: true, improvedCode: cleanCode(code, startLine), ...(rationale ? { rationale } : {}) };
  }
  const plain = stripReasoning(text);
  const fences = [...plain.matchAll(/(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n[ \t]*\1[ \t]*(?:\n|$)/g)].map((m) => ({
    code: m[2] ?? '',
    start: m.index,
    end: m.index + m[0].length,
  }));
  const longest = fences.reduce<(typeof fences)[number] | undefined>((a, b) => (a && a.code.length >= b.code.length ? a : b), undefined);
  if (!longest) return { parsed: false };
  const rationale = (plain.slice(0, longest.start) + '\n' + plain.slice(longest.end)).trim();
  return { parsed: true, improvedCode: cleanCode(longest.code, startLine), ...(rationale ? { rationale } : {}) };
}
