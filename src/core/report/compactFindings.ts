import { formatUsd } from '../../shared/format';
import { lineLabel, lineSpan } from '../../shared/lineLabel';
import { terminalText } from '../../shared/untrustedText';
import { compareFindings } from '../../shared/severity';
import type { Finding } from '../domain/finding';

/**
 * A review's findings as compact text that a coding agent can act on: one line per finding, most severe first —
 * file, lines, severity, agents, title, and the fix in one line (the replacement code when it is one line, the
 * advice otherwise). For the agent-mode tool; plain text, no Markdown to render.
 */

/** Characters of a title or a fix kept on a finding's line. */
const MAX_PART = 240;

function oneLine(text: string): string {
  const flat = terminalText(text).replace(/\s*\n\s*/g, ' ⏎ ').replace(/\s+/g, ' ').trim();
  return flat.length > MAX_PART ? `${flat.slice(0, MAX_PART - 1)}…` : flat;
}

/** The fix of a finding in one line: its replacement (one line of code, or how many lines), else its advice. */
function fixLine(f: Finding): string | undefined {
  if (f.suggestion !== undefined) {
    const lines = f.suggestion.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    if (lines.length === 1) return `replace with \`${oneLine(lines[0] ?? '').trim()}\``;
    return `replace ${lineLabel(f.startLine, f.endLine)} with ${lines.length} lines (first: \`${oneLine(lines.find((l) => l.trim() !== '') ?? '').trim()}\`)`;
  }
  return f.advice ? oneLine(f.advice) : undefined;
}

function findingLine(f: Finding): string {
  const fix = fixLine(f);
  return `${oneLine(f.file)}:${lineSpan(f.startLine, f.endLine)} ${f.severity} [${f.agents.join('+')}]${f.cwe ? ` ${f.cwe}` : ''} ${oneLine(f.title)}${fix ? ` — fix: ${fix}` : ''}`;
}

interface CompactReview {
  /** What was reviewed ("orders.py lines 4-13", "uncommitted changes"). */
  label: string;
  findings: readonly Finding[];
  /** Findings left out by the noise controls (minimum severity or confidence, dismissed in the project). */
  hidden: number;
  costUsd: number;
  /** Agents that failed, with their error codes. */
  failed: readonly { agent: string; code: string }[];
}

/** The compact text of a finished review. */
export function compactFindings(review: CompactReview): string {
  const sorted = [...review.findings].sort(compareFindings);
  const head = `Quorum review of ${oneLine(review.label)}: ${sorted.length} finding${sorted.length === 1 ? '' : 's'}${review.hidden > 0 ? ` (${review.hidden} hidden by noise controls)` : ''}, cost ${formatUsd(review.costUsd)}.`;
  const failed = review.failed.length > 0 ? [`Agents that failed: ${review.failed.map((f) => `${f.agent} (${f.code})`).join(', ')}.`] : [];
  return [head, ...failed, ...sorted.map(findingLine)].join('\n');
}
