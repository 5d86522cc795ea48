import { fenceMarks } from '../../shared/untrustedText';
import type { ToolResult } from '../domain/toolResult';

/**
 * The tool results in an agent's prompt: one read-only block per request, with tool, rule and lines, and the rule
 * that tells the agents what to do with it. The messages are repository text: fenced, like the code.
 */

export const TOOL_RESULTS_HEADING = "Already reported by the project's tools (read-only):";

export const TOOL_RESULTS_RULE = [
  `Problems under "${TOOL_RESULTS_HEADING.slice(0, -1)}" were found by the project's compiler, linters and scanners, and the`,
  'developer already sees them. Do not report them again, at those lines or in other words. You may build on them: report',
  'what they lead to or hide (for example a logic bug behind a type error), and say which tool result you build on.',
].join('\n');

function lines(r: Pick<ToolResult, 'startLine' | 'endLine'>): string {
  return r.startLine === r.endLine ? `${r.startLine}` : `${r.startLine}-${r.endLine}`;
}

/** One result as the agents read it: `src/a.ts:12 eslint no-unused-vars (warning): 'x' is never used.` */
export function describeToolResult(r: ToolResult): string {
  return `${r.file}:${lines(r)} ${r.tool}${r.rule ? ` ${r.rule}` : ''}${r.cwe && r.cwe.length > 0 ? ` [${r.cwe.join(', ')}]` : ''} (${r.severity}): ${r.message}`;
}

/** The block, or '' when there are none. */
export function toolResultsBlock(results: readonly ToolResult[] | undefined): string {
  if (!results || results.length === 0) return '';
  const body = results.map(describeToolResult).join('\n');
  const fence = fenceMarks(body);
  return [TOOL_RESULTS_HEADING, `${fence}text`, body, fence].join('\n');
}
