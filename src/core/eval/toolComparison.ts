import type { Finding } from '../domain/finding';
import { repeatedToolResult } from '../toolResults/duplicate';
import type { ToolResult } from '../domain/toolResult';
import type { RunFigures } from './score';
import { alignedLines, formatRatio } from './table';

/**
 * `quorum eval` on cases that carry tool results (`toolResults` in expected.json): each case is reviewed with its
 * tool results in the prompt, as a review sends them, and each run is scored twice — on every finding the agent
 * reported, and on those a review shows (less the repeats of a tool result, which a review hides as
 * reported-by-tool: the same rule as a review's). A repeat is never an expected finding's due: the tool said it.
 */

export interface ToolFilteredFigures {
  /** The runs scored without the findings that repeat a tool result, in the order of the runs. */
  runs: RunFigures[];
  /** How many findings each run's agent reported that repeat a tool result. */
  hidden: number[];
}

/** The findings a review would show: those that repeat none of `results`, and how many did. */
export function withoutRepeats<F extends Pick<Finding, 'file' | 'startLine' | 'endLine' | 'title' | 'explanation' | 'cwe'>>(findings: readonly F[], results: readonly ToolResult[]): { findings: F[]; hidden: number } {
  const kept = results.length === 0 ? [...findings] : findings.filter((f) => repeatedToolResult(f, results) === undefined);
  return { findings: kept, hidden: findings.length - kept.length };
}

/** The side-by-side figures as data (the JSON document's `toolResults`). */
export function toolComparisonJson(runs: readonly RunFigures[], tools: ToolFilteredFigures) {
  return runs.map((r, i) => {
    const w = tools.runs[i];
    return {
      agent: r.agent,
      model: r.model,
      without: { precision: r.precision, recall: r.recall, f1: r.f1 },
      with: { precision: w?.precision ?? null, recall: w?.recall ?? null, f1: w?.f1 ?? null },
      repeatsHidden: tools.hidden[i] ?? 0,
    };
  });
}

/** The side-by-side table: `precision 0.50 -> 0.75` per run (every finding -> less the repeats of tool results). */
export function formatToolComparisonTable(runs: readonly RunFigures[], tools: ToolFilteredFigures): string {
  const arrow = (a: number | null, b: number | null) => `${formatRatio(a)} -> ${formatRatio(b)}`;
  const body = toolComparisonJson(runs, tools).map((r) => [r.agent, r.model, arrow(r.without.precision, r.with.precision), arrow(r.without.recall, r.with.recall), arrow(r.without.f1, r.with.f1), String(r.repeatsHidden)]);
  return ['Every finding -> less the repeats of tool results:', ...alignedLines(['agent', 'model', 'precision', 'recall', 'F1', 'repeats hidden'], body)].join('\n') + '\n';
}
