/**
 * A finding's severity: the one list (core, the CLI, the protocol and the page read it from here), its three levels,
 * and the one order of findings, most severe first, that the merge, the panel and the reports share.
 */

/** Most severe first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The three levels that CI checks and editors weigh a finding by (SARIF's names). */
export type SeverityLevel = 'error' | 'warning' | 'note';

/**
 * A severity on three levels, for every surface that has only those (SARIF, GitHub annotations, the Problems
 * panel): critical and high are errors (they fail a check), medium a warning, low and info notes.
 */
export function severityLevel(s: Severity): SeverityLevel {
  if (s === 'critical' || s === 'high') return 'error';
  return s === 'medium' ? 'warning' : 'note';
}

/** Negative when `a` is more severe than `b` (sorts most severe first). */
export function compareSeverity(a: Severity, b: Severity): number {
  return SEVERITIES.indexOf(a) - SEVERITIES.indexOf(b);
}

/** Whether `s` is `limit` or more severe. */
export function atLeast(s: Severity, limit: Severity): boolean {
  return compareSeverity(s, limit) <= 0;
}

interface Ordered {
  severity: Severity;
  confidence: number;
  file?: string | undefined;
  startLine: number;
  endLine: number;
  title: string;
}

/** Findings in the one order: most severe first, then more confident, then by file and line, then by title. */
export function compareFindings(a: Ordered, b: Ordered): number {
  const fa = a.file ?? '';
  const fb = b.file ?? '';
  return compareSeverity(a.severity, b.severity) || b.confidence - a.confidence || (fa < fb ? -1 : fa > fb ? 1 : 0) || a.startLine - b.startLine || a.endLine - b.endLine || a.title.localeCompare(b.title);
}
