import { filesOf } from '../domain/target';
import type { ReviewSummary } from '../domain/result';
import { formatUsd } from '../../shared/format';
import { lineLabel, lineSpan } from '../../shared/lineLabel';
import { codeSpan, escapeInline } from '../../shared/untrustedText';
import { statusWords } from './agentStatus';
import { findingFile } from './findingFile';
import { SEVERITY_ICON } from './levels';

/**
 * The Markdown a CI job appends to `$GITHUB_STEP_SUMMARY`: what was reviewed, the findings (most severe first)
 * in a table, and the agents with their models, status, tokens and cost. Model text is escaped so it cannot
 * become HTML, links or table cells of its own.
 */

const STEP_SUMMARY_MAX_FINDINGS = 200;

interface StepSummaryOptions {
  pathOf: (file: string) => string;
}


export function toStepSummary(summary: ReviewSummary, options: StepSummaryOptions): string {
  const t = summary.totals;
  const only = summary.target.kind !== 'changes' && summary.target.regions.length === 1 ? summary.target.regions[0] : undefined;
  const files = filesOf(summary.target).length;
  const target = only ? `${options.pathOf(only.file)} ${lineLabel(only.startLine, only.endLine)}` : `${summary.target.label}: ${files} file${files === 1 ? '' : 's'}`;
  const failed = summary.agents.filter((a) => a.status === 'error').length;
  const cached = summary.agents.filter((a) => a.cached).length;
  const out: string[] = [`### Quorum review: ${escapeInline(target)}`, ''];
  out.push([
    `**${summary.findings.length} finding${summary.findings.length === 1 ? '' : 's'}**`,
    `cost ${formatUsd(t.costUsd)}`,
    `${t.requests} request${t.requests === 1 ? '' : 's'}`,
    ...(cached ? [`${cached} cached`] : []),
    ...(failed ? [`**${failed} agent${failed === 1 ? '' : 's'} failed**`] : []),
    ...(summary.cancelled ? ['cancelled'] : []),
  ].join(' · '), '');
  if (summary.findings.length > 0) {
    out.push('| Severity | Location | Finding | Agents | Confidence |', '| --- | --- | --- | --- | ---: |');
    for (const f of summary.findings.slice(0, STEP_SUMMARY_MAX_FINDINGS)) {
      const where = `${options.pathOf(findingFile(summary, f))}:${lineSpan(f.startLine, f.endLine)}`;
      const title = f.cwe ? `${f.title} (${f.cwe})` : f.title;
      out.push(`| ${SEVERITY_ICON[f.severity]} ${f.severity} | ${codeSpan(where)} | ${escapeInline(title)} | ${escapeInline(f.agents.join(', '))} | ${Math.round(f.confidence * 100)}% |`);
    }
    if (summary.findings.length > STEP_SUMMARY_MAX_FINDINGS) out.push('', `_${summary.findings.length - STEP_SUMMARY_MAX_FINDINGS} more findings are in the SARIF report._`);
    out.push('');
  }
  out.push('| Agent | Model | Status | Tokens in/out | Cost |', '| --- | --- | --- | ---: | ---: |');
  for (const a of summary.agents) {
    out.push(`| ${escapeInline(a.agent)} | ${escapeInline(a.model)} | ${escapeInline(statusWords(a))} | ${a.usage.promptTokens}/${a.usage.completionTokens} | ${formatUsd(a.costUsd)}${a.costSource === 'estimated' && a.costUsd > 0 ? ' (estimated)' : ''} |`);
  }
  out.push(`| **Total** | | | ${t.promptTokens}/${t.completionTokens} | **${formatUsd(t.costUsd)}** |`, '');
  return out.join('\n') + '\n';
}
