import type { ReviewTarget } from '../review/types';
import { cleanCode } from './code';
import { extractJson, isRecord, pickString, stripReasoning } from './json';

/** The coding agent's answer: an improved version of exactly the reviewed lines, and why. */
export interface ParsedCodeAnswer {
  parsed: boolean;
  improvedCode?: string;
  rationale?: string;
}

const CODE_KEYS = ['improvedCode', 'improved_code', 'code', 'fixedCode', 'fixed_code', 'newCode', 'new_code', 'replacement'];
const RATIONALE_KEYS = ['rationale', 'explanation', 'summary', 'notes', 'reasoning', 'changes', 'description'];

/**
 * Reads `{"rationale","improvedCode"}` JSON, or else prose with a fenced code block (the longest one is the
 * code, the prose around it the rationale). The code is cleaned of fences and of the line-number column.
 */
export function parseCodeAnswer(text: string, target: Pick<ReviewTarget, 'startLine'>): ParsedCodeAnswer {
  const json = extractJson(text, (v) => {
    const code = isRecord(v) ? pickString(v, CODE_KEYS) : undefined;
    return isRecord(v) && code !== undefined ? { code, rationale: pickString(v, RATIONALE_KEYS)?.trim() } : undefined;
  });
  if (json) {
    const { code, rationale } = json;
    return { parsed: true, improvedCode: cleanCode(code, target.startLine), ...(rationale ? { rationale } : {}) };
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
  return { parsed: true, improvedCode: cleanCode(longest.code, target.startLine), ...(rationale ? { rationale } : {}) };
}
