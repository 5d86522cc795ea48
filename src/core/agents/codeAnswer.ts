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
  const json = extractJson(text, (v) => (isRecord(v) && pickString(v, CODE_KEYS) !== undefined ? v : undefined));
  if (json) {
    const rationale = pickString(json, RATIONALE_KEYS)?.trim();
    return { parsed: true, improvedCode: cleanCode(pickString(json, CODE_KEYS) as string, target.startLine), ...(rationale ? { rationale } : {}) };
  }
  const plain = stripReasoning(text);
  const fences = [...plain.matchAll(/(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n[ \t]*\1[ \t]*(?:\n|$)/g)];
  if (fences.length === 0) return { parsed: false };
  const longest = fences.reduce((a, b) => ((b[2] as string).length > (a[2] as string).length ? b : a));
  const rationale = (plain.slice(0, longest.index) + '\n' + plain.slice((longest.index as number) + longest[0].length)).trim();
  return { parsed: true, improvedCode: cleanCode(longest[2] as string, target.startLine), ...(rationale ? { rationale } : {}) };
}
