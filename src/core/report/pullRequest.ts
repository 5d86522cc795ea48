import type { Finding } from '../domain/finding';
import type { ReviewSummary } from '../domain/result';
import { SEVERITIES, type Severity } from '../../shared/severity';
import { CWE_ID } from '../../shared/finding';
import { formatUsd } from '../../shared/format';
import { lineLabel } from '../../shared/lineLabel';
import { SEVERITY_LABEL } from '../../shared/labels';
import { SEVERITY_ICON } from './levels';
import { reportWords } from './reportStrings';
import { codeSpan, commentLine, commentText, fence } from '../../shared/untrustedText';
import { findingMarker, resolvedMarker, summaryMarker } from './pullRequestMarkers';

/** The bodies Quorum posts on a pull request. Everything a model or a repository wrote goes through `commentText`, `commentLine` and `codeSpan` (untrustedText.ts). */

/** Skipped files named in the summary; the rest are counted (a comment holds at most 65,536 characters). */
const MAX_LISTED = 50;

/** `🔴 Critical`: a severity's mark and name. */
const severityLabel = (s: Severity): string => `${SEVERITY_ICON[s]} ${reportWords(SEVERITY_LABEL[s])}`;

/** Severity, agents, rule and title on one line. */
function headline(f: Finding): string {
  const cwe = f.cwe && CWE_ID.test(f.cwe) ? ` · ${f.cwe}` : '';
  return `**${severityLabel(f.severity)}** · ${f.agents.map((a) => commentLine(a, 40)).join(', ')}${cwe} — **${commentLine(f.title, 300)}**`;
}

function details(f: Finding, maxChars = 4000): string[] {
  const out: string[] = [];
  if (f.explanation.trim()) out.push(commentText(f.explanation.trim(), maxChars));
  if (f.advice?.trim()) out.push(`_Advice:_ ${commentText(f.advice.trim(), maxChars / 2)}`);
  return out;
}

/**
 * An inline comment: the marker, the finding, and a one-click suggestion when `suggestion` replaces exactly its
 * lines, in the host's syntax (`suggestion` on GitHub, `suggestion:-A+B` on GitLab).
 */
export function commentBody(f: Finding, keys: readonly string[], suggestion: string | undefined, otherCode: string | undefined, suggestionInfo: string): string {
  const parts = [findingMarker(keys), headline(f), ...details(f)];
  if (suggestion !== undefined) parts.push(fence(suggestion.slice(0, 20_000), suggestionInfo));
  else if (otherCode !== undefined) parts.push(`Proposed code for ${lineLabel(f.startLine, f.endLine)}:\n\n${fence(otherCode.slice(0, 20_000))}`);
  return parts.join('\n\n');
}

/** A finding listed in the review body (outside the diff, or refused by GitHub): marker, place, finding. */
function bodyItem(f: Finding, keys: readonly string[]): string {
  return [findingMarker(keys), `- ${headline(f)}  \n  ${codeSpan(f.file, 500)} ${lineLabel(f.startLine, f.endLine)}${details(f, 1000).map((d) => `  \n  ${d.replace(/\n/g, '  \n  ')}`).join('')}`].join('\n');
}

export function reviewBody(headSha: string, inline: number, outside: readonly { finding: Finding; keys: readonly string[] }[]): string {
  const total = inline + outside.length;
  const parts = [`### Quorum review of ${headSha.slice(0, 7)}`, `${total} new finding${total === 1 ? '' : 's'}: ${inline} on the changed lines, ${outside.length} outside the diff${outside.length > 0 ? ' (below)' : ''}.`];
  if (outside.length > 0) parts.push('#### Outside the diff', outside.map((o) => bodyItem(o.finding, o.keys)).join('\n\n'));
  return parts.join('\n\n');
}

export function resolvedBody(headSha: string): string {
  return `${resolvedMarker()}\nResolved in ${headSha.slice(0, 7)}`;
}

/** What this run did on the pull request, for the summary. */
interface RunChanges {
  posted: number;
  inline: number;
  alreadyPosted: number;
  resolved: number;
  dismissed: number;
  hidden: number;
  previousSha: string | null | undefined;
}

/** Findings listed in the summary, the most first (a note holds a million characters; Quorum keeps far below). */
const MAX_IN_SUMMARY = 100;

/** The findings that have no thread (outside the diff, refused by the host, or the checkout elsewhere), with their markers. */
function unplacedSection(unplaced: readonly { finding: Finding; keys: readonly string[] }[]): string[] {
  if (unplaced.length === 0) return [];
  const listed = unplaced.slice(0, MAX_IN_SUMMARY);
  const more = unplaced.length - listed.length;
  return ['', `#### Not on the diff's lines (${unplaced.length})`, '', listed.map((u) => bodyItem(u.finding, u.keys)).join('\n\n'), ...(more > 0 ? ['', `and ${more} more`] : [])];
}

export function summaryBody(headSha: string, base: string, summary: ReviewSummary, shown: readonly Finding[], changes: RunChanges, unplaced: readonly { finding: Finding; keys: readonly string[] }[] = []): string {
  const counts = SEVERITIES.map((s) => `${severityLabel(s)} ${shown.filter((f) => f.severity === s).length}`).join(' · ');
  const skipped = summary.target.skipped ?? [];
  const failed = summary.agents.filter((a) => a.status === 'error');
  const since = changes.previousSha ? `Since the last run (${changes.previousSha.slice(0, 7)})` : 'This run';
  const lines = [
    summaryMarker(headSha),
    '## Quorum review',
    `Reviewed ${headSha.slice(0, 7)} against ${codeSpan(base, 200)}: ${shown.length} finding${shown.length === 1 ? '' : 's'}.`,
    '',
    counts,
    '',
    `**${since}:** ${changes.posted} new (${changes.inline} inline), ${changes.alreadyPosted} already posted, ${changes.resolved} resolved.`,
    ...(changes.dismissed > 0 || changes.hidden > 0 ? ['', `Not posted: ${changes.dismissed} dismissed in \`.quorum/dismissed.json\`, ${changes.hidden} below the confidence or severity threshold.`] : []),
    '',
    skipped.length > 0 ? `**Skipped** (${skipped.length}): ${skipped.slice(0, MAX_LISTED).map((k) => `${codeSpan(k.file, 300)} (${k.reason})`).join(', ')}${skipped.length > MAX_LISTED ? `, and ${skipped.length - MAX_LISTED} more` : ''}` : '**Skipped:** none',
    ...(failed.length > 0 ? ['', `**Agents that failed:** ${failed.map((a) => `${commentLine(a.agent, 40)} (${a.error?.code ?? 'error'})`).join(', ')}`] : []),
    '',
    `**Cost:** ${formatUsd(summary.totals.costUsd)}${summary.totals.estimatedUsd > 0 ? ' (partly estimated)' : ''} · ${summary.totals.requests} request${summary.totals.requests === 1 ? '' : 's'} · ${summary.totals.promptTokens + summary.totals.completionTokens} tokens`,
    ...unplacedSection(unplaced),
  ];
  return lines.join('\n');
}
