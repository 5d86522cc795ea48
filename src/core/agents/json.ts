import { jsonrepair } from 'jsonrepair';

/** Finding the JSON in a model's answer: fenced, wrapped in prose, with trailing commas, comments or cut off. */

/** Removes reasoning blocks some models put before their answer. */
export function stripReasoning(text: string): string {
  return text.replace(/<(think|thinking|reasoning)>[\s\S]*?(<\/\1>|$)/gi, '');
}

function candidates(text: string): string[] {
  const out: string[] = [];
  const push = (s: string | undefined) => {
    const t = s?.trim();
    if (t && !out.includes(t)) out.push(t);
  };
  push(text);
  const fences = [...text.matchAll(/(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)(?:\n[ \t]*\1|$(?![\s\S]))/g)];
  for (const f of fences.filter((f) => /json/i.test(f[2] ?? ''))) push(f[3]);
  for (const f of fences) push(f[3]);
  const firstBrace = text.indexOf('{');
  if (firstBrace >= 0) {
    const last = text.lastIndexOf('}');
    push(last > firstBrace ? text.slice(firstBrace, last + 1) : text.slice(firstBrace));
  }
  const firstBracket = text.indexOf('[');
  if (firstBracket >= 0) {
    const last = text.lastIndexOf(']');
    push(last > firstBracket ? text.slice(firstBracket, last + 1) : text.slice(firstBracket));
  }
  return out;
}

function tryParse(candidate: string): unknown {
  if (!/^[[{]/.test(candidate)) return undefined;
  try {
    return JSON.parse(candidate);
  } catch {
    try {
      return JSON.parse(jsonrepair(candidate));
    } catch {
      return undefined;
    }
  }
}

/**
 * The first JSON object or array in `text` that `accept` recognises, or undefined. Tries the whole text, fenced
 * blocks (```json first), then the outermost braces and brackets; each strictly, then repaired.
 */
export function extractJson<T>(text: string, accept: (value: unknown) => T | undefined): T | undefined {
  for (const c of candidates(stripReasoning(text))) {
    const value = tryParse(c);
    if (value === undefined || value === null || typeof value !== 'object') continue;
    const accepted = accept(value);
    if (accepted !== undefined) return accepted;
  }
  return undefined;
}

/** The first of `keys` that `value` has with a non-empty string value (case-insensitive on keys). */
export function pickString(value: Record<string, unknown>, keys: readonly string[]): string | undefined {
  const lower = new Map(Object.keys(value).map((k) => [k.toLowerCase(), k]));
  for (const k of keys) {
    const real = lower.get(k.toLowerCase());
    if (real === undefined) continue;
    const v = value[real];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length > 0) return v.join('\n');
  }
  return undefined;
}

export function pick(value: Record<string, unknown>, keys: readonly string[]): unknown {
  const lower = new Map(Object.keys(value).map((k) => [k.toLowerCase(), k]));
  for (const k of keys) {
    const real = lower.get(k.toLowerCase());
    if (real !== undefined && value[real] !== undefined && value[real] !== null) return value[real];
  }
  return undefined;
}
