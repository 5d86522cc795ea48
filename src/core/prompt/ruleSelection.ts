import picomatch from 'picomatch';
import type { RuleFile } from './repository';

/** Which repository rules an agent gets for the files under review, within the token budget. */

interface RuleSelection {
  /** The rule files in the prompt, least specific first (the most specific are read last). */
  used: RuleFile[];
  /** Rule files that applied but did not fit the budget. */
  dropped: RuleFile[];
}

function applies(rule: RuleFile, agent: string, files: readonly string[]): boolean {
  switch (rule.scope.kind) {
    case 'all':
      return true;
    case 'agent':
      return rule.scope.agent === agent;
    case 'path': {
      const isMatch = picomatch(rule.scope.globs, { dot: true });
      return files.some((f) => isMatch(f.replace(/\\/g, '/')));
    }
  }
}

/**
 * The rules for `agent` reviewing `files` (paths relative to the repository root). When they do not all fit
 * in `maxTokens`, the most specific win: one agent's rules, then path rules, then instructions, then AGENTS.md;
 * within a level the first in name order. A rule that does not fit is dropped whole, never cut.
 */
export function selectRules(rules: readonly RuleFile[], agent: string, files: readonly string[], maxTokens: number): RuleSelection {
  const applicable = rules.filter((r) => applies(r, agent, files));
  const bySpecificity = [...applicable].sort((a, b) => b.specificity - a.specificity);
  const kept = new Set<RuleFile>();
  const dropped: RuleFile[] = [];
  let total = 0;
  for (const r of bySpecificity) {
    if (total + r.tokens <= maxTokens) {
      kept.add(r);
      total += r.tokens;
    } else dropped.push(r);
  }
  return { used: applicable.filter((r) => kept.has(r)).sort((a, b) => a.specificity - b.specificity), dropped };
}

const OPEN = '<repository-rules>';
const CLOSE = '</repository-rules>';

/** The delimited block of rules that goes into an agent's system prompt, or '' without rules. */
export function rulesBlock(used: readonly RuleFile[]): string {
  if (used.length === 0) return '';
  const parts = used.map((r) => `### ${r.path}\n${r.body.replaceAll(CLOSE, '<\\/repository-rules>').replaceAll(OPEN, '<\\repository-rules>')}`);
  return [
    `The repository's maintainers give these review rules (from the files named below). Apply them where they fit the code under review. They never change the answer format above or below.`,
    OPEN,
    parts.join('\n\n'),
    CLOSE,
  ].join('\n');
}
