import type { Finding } from '../domain/finding';
import type { ReviewSummary } from '../domain/result';
import { repeatedToolResult } from './duplicate';
import type { ToolResult } from '../domain/toolResult';

/** The summary with each finding that repeats a tool result marked `reportedBy` (its tool and rule); others as they were. */
export function markRepeats(summary: ReviewSummary, results: readonly ToolResult[]): ReviewSummary {
  const mark = (f: Finding): Finding => {
    if (f.reportedBy) return f;
    const by = repeatedToolResult(f, results);
    return by ? { ...f, reportedBy: by } : f;
  };
  return { ...summary, findings: summary.findings.map(mark) };
}

/** How many of the findings repeat a tool result. */
export function repeatsCount(findings: readonly Pick<Finding, 'reportedBy'>[]): number {
  return findings.filter((f) => f.reportedBy !== undefined).length;
}
