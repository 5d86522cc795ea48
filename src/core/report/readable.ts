import { contextLine } from './contextLine';
import { toolsLine } from './toolsLine';
import { repeatsCount } from '../toolResults/repeats';
import type { AgentResult, NoiseSplit, ReviewSummary } from '../domain/result';
import { filesOf } from '../domain/target';
import type { Finding } from '../domain/finding';
import { formatUsd } from '../../shared/format';
import { summaryView } from './viewEvents';
import { REPORT_STRINGS, reportWords } from './reportStrings';
import { statusWords } from './agentStatus';
import { findingMarks, hiddenWhy, verifierNotice } from '../../shared/labels';
import { lineLabel, lineSpan } from '../../shared/lineLabel';
import { reviewMarkdown } from '../../shared/reviewMarkdown';
import { codeSpan, escapeInline, terminalText } from '../../shared/untrustedText';

/** Human-readable results: plain text for terminals and logs, Markdown for PR comments and job summaries. */

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** The panel's words as the command line says them. */
const t = reportWords;

function agentLine(r: AgentResult, s: ReviewSummary): string {
  const n = r.role === 'verifier' ? s.findings.filter((f) => f.verification).length : r.findings.length;
  const found = r.role === 'verifier' ? `, ${n} verdict${n === 1 ? '' : 's'}` : `, ${n} finding${n === 1 ? '' : 's'}`;
  const what = r.status !== 'ok' ? (r.error?.message ? ` - ${r.error.message}` : '') : r.unparsed ? ', answer kept as text' : r.improvedCode !== undefined ? ', improved code' : found;
  const notice = r.notice ? ` - ${tt(verifierNotice(t, r.notice))}` : '';
  return `${r.agent} (${tt(r.model)}): ${statusWords(r)}${tt(what)}${notice}; ${seconds(r.latencyMs)}, ${r.usage.promptTokens}+${r.usage.completionTokens} tokens${r.usage.reasoningTokens > 0 ? ` (${r.usage.reasoningTokens} reasoning)` : ''}, ${formatUsd(r.costUsd)}${r.costSource === 'estimated' && r.costUsd > 0 ? ' (estimated)' : ''}`;
}

/** Model output, gateway messages and file names in a terminal: no escape sequences, bidi controls shown. */
const tt = terminalText;

function indent(text: string, by = '    '): string {
  return text.split('\n').map((l) => (l ? by + l : l)).join('\n');
}

/** `file:10-40` for one region; otherwise the target's label with its file and skipped counts. */
function soleRegionOf(s: ReviewSummary): ReviewSummary['target']['regions'][number] | undefined {
  return s.target.regions.length === 1 && s.target.kind !== 'changes' ? s.target.regions[0] : undefined;
}

function what(s: ReviewSummary): string {
  const only = soleRegionOf(s);
  if (only) return `${only.file}:${lineSpan(only.startLine, only.endLine)}`;
  const files = filesOf(s.target).length;
  const skipped = s.target.skipped?.length ?? 0;
  return `${s.target.label}: ${files} file${files === 1 ? '' : 's'}${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

/** The code each proposed replacement is for. */
function replacementsOf(s: ReviewSummary, a: AgentResult): { where: string; code: string; file: string }[] {
  const single = s.target.regions.length === 1 && s.target.kind !== 'changes';
  return (a.replacements ?? []).map((r) => ({ where: single ? lineLabel(r.startLine, r.endLine) : `${r.file}:${lineSpan(r.startLine, r.endLine)}`, code: r.code, file: r.file }));
}

function languageOf(s: ReviewSummary, file: string): string {
  return (s.target.regions.find((r) => r.file === file)?.language ?? '').replace(/[^\w+-]/g, '');
}

function totalsLine(s: ReviewSummary): string {
  const t = s.totals;
  const estimated = t.estimatedUsd > 0 ? ` (incl. ${formatUsd(t.estimatedUsd)} estimated)` : '';
  return `Total: ${formatUsd(t.costUsd)}${estimated}, ${t.promptTokens} prompt + ${t.completionTokens} completion tokens, ${t.requests} request${t.requests === 1 ? '' : 's'}, ${t.retries} retr${t.retries === 1 ? 'y' : 'ies'}, ${seconds(s.elapsedMs)}${s.cancelled ? ' (cancelled)' : ''}`;
}

/** `a.py:3–5 [high] Title (CWE-89) - analyst, security, confidence 80%, refuted by gpt-4.1: why`: a finding's line. */
function findingLine(f: Finding): string {
  const notes = [f.agents.join(', '), t('confidence', Math.round(f.confidence * 100)), ...findingMarks(t, f), f.reportedBy ? hiddenWhy(t, f, 'reported-by-tool') : ''];
  return `  ${tt(f.file)}:${lineSpan(f.startLine, f.endLine)} [${f.severity}] ${tt(f.title)}${f.cwe ? ` (${f.cwe})` : ''} - ${notes.filter(Boolean).map(tt).join(', ')}`;
}

/** `toolResultsHidden`: the findings that repeat a tool result (counted before hidden ones were left out of `s`). */
export function formatText(s: ReviewSummary, toolResultsHidden = repeatsCount(s.findings)): string {
  const out: string[] = [`Quorum review of ${what(s)}`, ''];
  for (const k of s.target.skipped ?? []) out.push(`  skipped ${k.file}: ${k.reason}`);
  if ((s.target.skipped?.length ?? 0) > 0) out.push('');
  const context = contextLine(s.target);
  if (context) out.push(tt(context.charAt(0).toUpperCase() + context.slice(1)), '');
  const tools = toolsLine(s.target, toolResultsHidden);
  if (tools) out.push(tt(tools.charAt(0).toUpperCase() + tools.slice(1)), '');
  out.push('Agents:', ...s.agents.map((a) => `  ${agentLine(a, s)}`), '');
  if (s.findings.length === 0) out.push('No findings.', '');
  else {
    out.push(`Findings (${s.findings.length}):`);
    for (const f of s.findings) {
      out.push(findingLine(f));
      if (f.explanation) out.push(indent(tt(f.explanation)));
      if (f.advice) out.push('    Advice:', indent(tt(f.advice), '      '));
      if (f.suggestion !== undefined) out.push('    Suggested replacement:', indent(tt(f.suggestion), '      | '));
    }
    out.push('');
  }
  for (const a of s.agents) {
    if (a.status === 'ok' && a.unparsed && a.text.trim()) out.push(`${a.title} (answer kept as text):`, indent(tt(a.text.trim()), '  '), '');
    const replacements = replacementsOf(s, a);
    for (const r of replacements) out.push(`Improved code from ${a.agent} (${tt(r.where)}):`, indent(tt(r.code), '  | '), '');
    if (replacements.length > 0 && a.rationale) out.push('Rationale:', indent(tt(a.rationale), '  '), '');
  }
  out.push(totalsLine(s));
  return out.join('\n') + '\n';
}


/**
 * The review in Markdown: the panel's Export renderer, in English, titled and fenced for the CLI. `noise` is what
 * the noise controls hid: left out and counted, or with `showHidden` listed in a section of their own.
 */
export function formatMarkdown(s: ReviewSummary, noise?: { split: NoiseSplit; showHidden: boolean }): string {
  const only = soleRegionOf(s);
  const title = `## Quorum review of ${only ? `${codeSpan(only.file)} ${lineLabel(only.startLine, only.endLine)}` : escapeInline(what(s))}`;
  const view = { ...summaryView(s), hidden: (noise?.split.hidden ?? []).map((h) => ({ id: h.finding.id, reason: h.reason })) };
  const markdown = reviewMarkdown(view, REPORT_STRINGS, { title, languageOf: (file) => (file ? languageOf(s, file) : ''), showHidden: noise?.showHidden === true });
  const redundant = noise ? noise.split.hidden.filter((h) => h.reason === 'reported-by-tool').length : repeatsCount(s.findings);
  const said = [contextLine(s.target), toolsLine(s.target, redundant)].filter(Boolean);
  if (said.length === 0) return markdown + '\n';
  const end = markdown.indexOf('\n');
  const line = said.map((l) => `_${escapeInline(l.charAt(0).toUpperCase() + l.slice(1))}_`).join('\n\n');
  return end < 0 ? `${markdown}\n\n${line}\n` : `${markdown.slice(0, end)}\n\n${line}\n${markdown.slice(end)}\n`;
}
