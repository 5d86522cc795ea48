import { createHash } from 'node:crypto';
import type { Finding } from '../domain/finding';
import type { ReviewSummary } from '../domain/result';
import { CWE_ID } from '../../shared/finding';
import type { Severity } from '../../shared/severity';
import { FingerprintCounter, lineHash } from './fingerprint';
import { ruleIdOf } from './ruleId';

/**
 * A review as a GitLab Code Quality report (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
 * a JSON array of issues with `description`, `check_name`, `fingerprint`, `severity` and `location.path` /
 * `location.lines.begin`, which the merge request widget compares with the target branch's report by
 * fingerprint. The fingerprint is the path, the rule and the text of the flagged lines (not their numbers), so
 * code that moves keeps its issue and GitLab shows only what is new; the same finding twice in a file is told
 * apart by its order.
 */

type CodeQualitySeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

/** Quorum's five severities on GitLab's five. */
const SEVERITY: Record<Severity, CodeQualitySeverity> = { critical: 'blocker', high: 'critical', medium: 'major', low: 'minor', info: 'info' };

interface CodeQualityIssue {
  type: 'issue';
  description: string;
  check_name: string;
  fingerprint: string;
  severity: CodeQualitySeverity;
  location: { path: string; lines: { begin: number; end: number } };
}

interface CodeQualityOptions {
  /** A finding's file relative to the repository root, forward slashes. */
  pathOf: (file: string) => string;
  /** The file's lines (index 0 is line 1), for fingerprints; undefined when it cannot be read. */
  linesOf: (file: string) => readonly string[] | undefined;
}

/** One line of plain text: the widget shows the description as text. */
function descriptionOf(f: Finding): string {
  const title = f.title.replace(/\s+/g, ' ').trim();
  const cwe = f.cwe && CWE_ID.test(f.cwe) ? ` (${f.cwe})` : '';
  return `${title}${cwe} [${f.agents.join(', ')}]`.slice(0, 1000);
}

export function toCodeQuality(summary: ReviewSummary, options: CodeQualityOptions): CodeQualityIssue[] {
  const counter = new FingerprintCounter();
  return summary.findings.map((f) => {
    const path = options.pathOf(f.file);
    const rule = ruleIdOf(f);
    const counted = counter.next(path, lineHash(rule, options.linesOf(f.file), f.startLine, f.endLine, f.title));
    const fingerprint = createHash('sha256').update(`${path}\0${counted}`).digest('hex').slice(0, 32);
    return { type: 'issue', description: descriptionOf(f), check_name: rule, fingerprint, severity: SEVERITY[f.severity], location: { path, lines: { begin: f.startLine, end: f.endLine } } };
  });
}
