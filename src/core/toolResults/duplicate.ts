import { sameCweFamily } from '../domain/cwe';
import { titleSimilarity } from '../domain/merge';
import type { Finding } from '../domain/finding';
import type { ToolMatch, ToolResult } from '../domain/toolResult';
import { sameFileOverlap } from '../domain/lines';

/**
 * THE rule of "a tool already reported this": a finding is a repeat of a tool result when their lines overlap in
 * the same file and they say the same thing — the same CWE (or one of its family), the same rule family (the
 * finding names the rule, or both are about unused code, an undefined name, a type error …), or a similar
 * title. Every face hides such a finding with reason `reported-by-tool` and the tool's rule.
 */

/** A title and a tool's message this similar (merge.ts's measure) say the same thing. */
const SIMILAR = 0.55;

/** Families of rules that tools name in their own words: a rule (`tool/rule`) of the family, and how a finding says it. */
const FAMILIES: readonly { rules: RegExp; words: RegExp }[] = [
  // Unused variables, imports, parameters and assignments (ESLint, tsc 6133/6192/6196, Ruff F401/F841, golangci unused).
  { rules: /no-unused|unused|\/(?:F401|F811|F841|ARG00\d|6133|6138|6192|6196|6198|TS6133|TS6196)$|ineffassign|deadcode|varcheck/i, words: /\bunused\b|never (?:used|read)|not used|declared but|assigned (?:a value )?but|is defined but|unnecessary import|redundant import/i },
  // Names not defined (ESLint no-undef, Ruff F821/F822, tsc 2304/2552, typecheck).
  { rules: /no-undef\b|undefined|\/(?:F821|F822|F823|2304|2552|2582|TS2304|TS2552)$|typecheck/i, words: /undefined (?:name|variable|identifier|reference|symbol)|not defined|cannot find name|undeclared|unknown (?:name|identifier)|unresolved (?:name|reference)/i },
  // Type errors (tsc's numbered rules, mypy, pyright).
  { rules: /^(?:ts|tsc|typescript|mypy|pyright)\/|\/TS\d{4}$|\/\d{4}$|no-unsafe-|restrict-/i, words: /type (?:error|mismatch|check)|wrong type|not assignable|incompatible (?:type|argument)|no overload|does not exist on type|possibly (?:null|undefined)|implicit(?:ly)? (?:has )?an? ['"]?any/i },
  // Unreachable code.
  { rules: /unreachable|no-fallthrough|\/7027$/i, words: /unreachable|dead code|never (?:runs|executes|reached)/i },
  // Loose equality and comparisons to None / True.
  { rules: /eqeqeq|no-self-compare|\/(?:E711|E712|E721|PLR0133)$/i, words: /loose equality|strict equality|==|comparison (?:to|with) (?:none|true|false)|compar(?:es|ing) .* itself/i },
  // Catch-all exception handlers, errors left unchecked, floating promises.
  { rules: /\/(?:E722|BLE001|S110|S112|B110|B112)$|bare-except|errcheck|no-floating-promises|no-misused-promises|require-await|no-empty/i, words: /bare except|catch(?:es)?[- ]all|broad except|swallow|empty (?:catch|block|except)|ignor(?:ed|es|ing) (?:the )?error|unchecked error|error (?:is )?not checked|unhandled (?:promise|rejection)|floating promise|not awaited|missing await/i },
  // Shadowed and redefined names.
  { rules: /no-shadow|no-redeclare|redefined|\/(?:A001|A002|F811)$/i, words: /shadow|redeclar|redefin/i },
  // `any` used explicitly.
  { rules: /no-explicit-any|\/ANN401$/i, words: /\bany\b/i },
  // Debug output left in.
  { rules: /no-console|no-debugger|\/(?:T201|T203|T100)$/i, words: /console\.|print\(|debug(?:ger| output| statement)|leftover log/i },
];

/**
 * How a finding may name a tool's rule: as written, by its last segment (`…audit.dangerous-system-call`); a number
 * (tsc's 2322) only as `TS2322` or `ts(2322)`, never as a bare number.
 */
function ruleNames(rule: string): RegExp | undefined {
  const last = rule.split(/[./]/).pop() ?? '';
  const numbered = /^\d+$/.test(rule);
  const names = [...new Set(numbered ? [`TS${rule}`, `ts(${rule})`] : [rule, ...(last.length >= 6 ? [last] : [])])].filter((n) => n.length >= 3);
  if (names.length === 0) return undefined;
  const alternatives = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return new RegExp(`(?:^|[^\\w-])(?:${alternatives})(?:$|[^\\w-])`, 'i');
}

/** Whether the finding and the tool result say the same thing (their lines apart). */
export function saysTheSame(f: Pick<Finding, 'title' | 'explanation' | 'cwe'>, r: Pick<ToolResult, 'tool' | 'rule' | 'message' | 'cwe'>): boolean {
  if (f.cwe && (r.cwe ?? []).some((c) => sameCweFamily(c, f.cwe))) return true;
  const said = `${f.title}\n${f.explanation}`;
  const named = ruleNames(r.rule);
  if (named && named.test(said)) return true;
  const key = `${r.tool}/${r.rule}`;
  const ofTool = (fam: (typeof FAMILIES)[number]) => (r.rule !== '' && fam.rules.test(key)) || fam.words.test(r.message);
  if (FAMILIES.some((fam) => ofTool(fam) && fam.words.test(f.title))) return true;
  return r.message !== '' && titleSimilarity(f.title, r.message) >= SIMILAR;
}

/**
 * The tool result a finding repeats, if any: same file, overlapping lines, and the same thing said
 * (`saysTheSame`). Among several, the first in the tool results' order.
 */
export function repeatedToolResult(f: Pick<Finding, 'file' | 'startLine' | 'endLine' | 'title' | 'explanation' | 'cwe'>, results: readonly ToolResult[]): ToolMatch | undefined {
  for (const r of results) {
    if (!sameFileOverlap(r, f)) continue;
    if (saysTheSame(f, r)) return { tool: r.tool, rule: r.rule };
  }
  return undefined;
}
