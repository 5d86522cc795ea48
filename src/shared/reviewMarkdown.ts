import { formatCount, formatMs, formatUsd } from './format';
import { AGENT_STATE_LABEL, REVIEW_STATE_LABEL, SEVERITY_LABEL } from './labels';
import { actualCostLabel, estimateLabel, formatString, type PanelStringKey, type PanelStrings } from './panelStrings';
import type { ReviewView } from './protocol';
import { costSourceKey, sortFindings } from './reviewReducer';

/**
 * The review as a Markdown document (the panel's Export): target, status, cost per agent, findings most
 * severe first, and the improved code. Model text is untrusted: inline text is escaped so it cannot become
 * HTML or links, and code goes into fences longer than any backtick run inside it.
 */


/** Escapes text for a Markdown paragraph or table cell: no HTML, no emphasis, no links, one line. */
export function escapeInline(text: string): string {
  return text
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`)
    .replace(/^(\s*)([#+-])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])(?=\s|$)/, '$1\\$2');
}

/** A fenced code block whose fence cannot be closed by the content. */
export function fence(code: string, language = ''): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  const lang = /^[A-Za-z0-9_+-]{1,40}$/.test(language) ? language : '';
  return `${marks}${lang}\n${code.replace(/\n$/, '')}\n${marks}`;
}

export function reviewToMarkdown(view: ReviewView, strings: PanelStrings, exportedAt: Date): string {
  const t = (key: PanelStringKey, ...args: (string | number)[]) => formatString(strings[key], args);
  const out: string[] = [];
  const target = `${view.target.file} (${t('lines', view.target.startLine, view.target.endLine)})`;
  out.push(`# ${escapeInline(t('exportHeading', target))}`, '');
  const cost = view.totals ? actualCostLabel(t, formatUsd, view.totals.costUsd, view.totals.estimatedUsd ?? 0)
    : view.estimateUsd !== undefined ? estimateLabel(t, formatUsd, view.estimateUsd, view.likelyUsd) : '';
  out.push([
    `**${escapeInline(t('exportStatus'))}:** ${escapeInline(t(REVIEW_STATE_LABEL[view.status]))}`,
    view.elapsedMs !== undefined ? escapeInline(t('elapsed', formatMs(view.elapsedMs))) : '',
    escapeInline(cost),
    escapeInline(view.target.language),
  ].filter(Boolean).join(' · '), '');
  out.push(`_${escapeInline(t('exportGenerated', exportedAt.toISOString()))}_`, '');

  out.push(`## ${escapeInline(t('agents'))}`, '');
  out.push(`| ${[t('exportAgent'), t('exportModel'), t('exportStatus'), t('latency'), t('tokens'), t('cost')].map(escapeInline).join(' | ')} |`);
  out.push('| --- | --- | --- | ---: | ---: | ---: |');
  for (const a of view.agents) {
    const o = a.outcome;
    const state = o?.cached ? `${t(AGENT_STATE_LABEL[a.state])} (${t('stateCached')})` : t(AGENT_STATE_LABEL[a.state]);
    const tokens = o ? t('tokensValue', formatCount(o.usage.promptTokens), formatCount(o.usage.completionTokens)) : '';
    const costCell = o ? `${formatUsd(o.costUsd)} (${t(costSourceKey(o))})` : '';
    out.push(`| ${[a.title, o?.model ?? a.model, state, o ? formatMs(o.latencyMs) : '', tokens, costCell].map(escapeInline).join(' | ')} |`);
  }
  if (view.totals) {
    const tt = view.totals;
    out.push(`| **${escapeInline(t('exportTotal'))}** |  |  |  | ${escapeInline(t('tokensValue', formatCount(tt.promptTokens), formatCount(tt.completionTokens)))} | **${escapeInline(formatUsd(tt.costUsd))}** |`);
  }
  out.push('');
  for (const a of view.agents) {
    const err = a.outcome?.error;
    if (err) out.push(`- ${escapeInline(a.title)}: ${escapeInline(`${err.code}${err.message ? ` — ${err.message}` : ''}`)}`);
  }
  if (view.agents.some((a) => a.outcome?.error)) out.push('');

  const dismissed = new Set(view.dismissed);
  const findings = sortFindings(view.findings).filter((f) => !dismissed.has(f.id));
  out.push(`## ${escapeInline(t('findings'))} (${findings.length})`, '');
  if (findings.length === 0) out.push(escapeInline(t('noFindings')), '');
  for (const f of findings) {
    const lines = f.startLine === f.endLine ? t('lineSingle', f.startLine) : t('lineRange', f.startLine, f.endLine);
    const sev = t(SEVERITY_LABEL[f.severity]);
    out.push(`### ${escapeInline(`[${sev}] ${f.title}`)}`, '');
    const meta = [lines, f.agents.join(', '), f.cwe ?? '', t('confidence', Math.round(f.confidence * 100))].filter(Boolean);
    out.push(`_${meta.map(escapeInline).join(' · ')}_`, '');
    if (f.explanation) out.push(escapeInline(f.explanation), '');
    if (f.suggestion !== undefined) out.push(`${escapeInline(t('exportSuggestion'))}:`, '', fence(f.suggestion, view.target.language), '');
  }

  const coder = view.agents.find((a) => a.outcome?.improvedCode);
  if (coder?.outcome?.improvedCode) {
    out.push(`## ${escapeInline(t('improvedCode'))} (${escapeInline(coder.title)})`, '');
    if (coder.outcome.rationale) out.push(`**${escapeInline(t('exportRationale'))}:** ${escapeInline(coder.outcome.rationale)}`, '');
    out.push(fence(coder.outcome.improvedCode, view.target.language), '');
  }
  return out.join('\n');
}
