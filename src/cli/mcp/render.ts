import { formatUsd } from '../../shared/format';
import { lineLabel } from '../../shared/lineLabel';
import { codeSpan, escapeInline, fence } from '../../shared/untrustedText';
import type { McpOutcome } from './reviewBridge';

/**
 * A tool result as Markdown, for the agent that called it: the same facts as `structuredContent`. Everything a
 * model, a repository or a gateway wrote (titles, explanations, code, file names, error messages) is untrusted:
 * inline text is escaped to one line, file names are code spans and code is fenced longer than any backtick run
 * in it, so no answer can add a heading, a link, a finding or an instruction that looks like the server's own.
 */

export function renderOutcome(o: McpOutcome): string {
  const r = o.result;
  const out: string[] = [];
  if (o.mode === 'estimate') {
    out.push(`## Quorum estimate: ${escapeInline(o.label)}`);
    out.push('');
    out.push(`Nothing was sent. A review would send ${r.regions.length} region${r.regions.length === 1 ? '' : 's'} in ${r.requests} request${r.requests === 1 ? '' : 's'} to ${codeSpan(o.host)} and cost about ${formatUsd(r.estimatedUsd)} (at most ${formatUsd(r.maxUsd)}).`);
    if (r.agents.length > 0) out.push('', `Agents: ${r.agents.map((a) => `${codeSpan(a.id)} on ${codeSpan(a.model)}`).join(', ')}.`);
    if (r.regions.length > 0) out.push('', 'Code sent:', ...r.regions.map((g) => `- ${codeSpan(g.file)} ${lineLabel(g.startLine, g.endLine)}`));
  } else {
    const n = r.findings.length;
    out.push(`## Quorum review: ${escapeInline(o.label)}`);
    out.push('');
    out.push(`${o.cancelled ? 'Cancelled; what finished: ' : ''}${n} finding${n === 1 ? '' : 's'}${r.hiddenFindings > 0 ? ` (${r.hiddenFindings} hidden: below minSeverity or dismissed)` : ''}; spent ${formatUsd(r.costUsd)} (estimated ${formatUsd(r.estimatedUsd)}) in ${r.requests} request${r.requests === 1 ? '' : 's'} to ${codeSpan(o.host)}.`);
    const failed = r.agents.filter((a) => a.status !== 'ok');
    if (failed.length > 0) out.push('', ...failed.map((a) => `- Agent ${codeSpan(a.id)} (${codeSpan(a.model)}) ${a.status === 'cancelled' ? 'was cancelled' : `failed: ${escapeInline(a.error ?? 'error')}`}`));
    r.findings.forEach((f, i) => {
      out.push('', `### ${i + 1}. [${f.severity}] ${escapeInline(f.title)}`);
      out.push('', `${codeSpan(f.file)} ${lineLabel(f.startLine, f.endLine)} · ${f.agents.map(codeSpan).join(', ')}${f.cwe ? ` · ${codeSpan(f.cwe)}` : ''}`);
      if (f.explanation.trim() !== '') out.push('', escapeInline(f.explanation));
      if (f.replacement !== undefined) out.push('', `Replacement for ${lineLabel(f.startLine, f.endLine)}:`, '', fence(f.replacement));
    });
  }
  if (r.skipped.length > 0) out.push('', 'Skipped:', ...r.skipped.map((k) => `- ${codeSpan(k.file)}: ${k.reason}`));
  if (o.notes.length > 0) out.push('', ...o.notes.map((n) => `- ${escapeInline(n)}`));
  return out.join('\n') + '\n';
}
