import type { AgentResult, Finding, ReviewSummary } from '../core/review/types';

/** Human-readable results: plain text for terminals and logs, Markdown for PR comments and job summaries. */

export function formatUsd(n: number): string {
  if (n === 0) return '$0';
  return n < 0.01 ? `$${n.toFixed(6).replace(/0+$/, '')}` : `$${n.toFixed(4)}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function lines(f: Pick<Finding, 'startLine' | 'endLine'>): string {
  return f.startLine === f.endLine ? `${f.startLine}` : `${f.startLine}-${f.endLine}`;
}

function agentLine(r: AgentResult): string {
  const state = r.status === 'ok' ? (r.cached ? 'ok (cached)' : 'ok') : r.status === 'cancelled' ? 'cancelled' : `failed: ${r.error?.code ?? 'error'}`;
  const n = r.findings.length;
  const what = r.status !== 'ok' ? (r.error?.message ? ` - ${r.error.message}` : '') : r.unparsed ? ', answer kept as text' : r.improvedCode !== undefined ? ', improved code' : `, ${n} finding${n === 1 ? '' : 's'}`;
  return `${r.agent} (${r.model}): ${state}${what}; ${seconds(r.latencyMs)}, ${r.usage.promptTokens}+${r.usage.completionTokens} tokens, ${formatUsd(r.costUsd)}${r.costSource === 'estimated' && r.costUsd > 0 ? ' (estimated)' : ''}`;
}

function indent(text: string, by = '    '): string {
  return text.split('\n').map((l) => (l ? by + l : l)).join('\n');
}

function totalsLine(s: ReviewSummary): string {
  const t = s.totals;
  return `Total: ${formatUsd(t.costUsd)}, ${t.promptTokens} prompt + ${t.completionTokens} completion tokens, ${t.requests} request${t.requests === 1 ? '' : 's'}, ${t.retries} retr${t.retries === 1 ? 'y' : 'ies'}, ${seconds(s.elapsedMs)}${s.cancelled ? ' (cancelled)' : ''}`;
}

export function formatText(s: ReviewSummary): string {
  const out: string[] = [`Quorum review of ${s.target.file}:${s.target.startLine}-${s.target.endLine}`, ''];
  out.push('Agents:', ...s.agents.map((a) => `  ${agentLine(a)}`), '');
  if (s.findings.length === 0) out.push('No findings.', '');
  else {
    out.push(`Findings (${s.findings.length}):`);
    for (const f of s.findings) {
      out.push(`  ${s.target.file}:${lines(f)} [${f.severity}] ${f.title}${f.cwe ? ` (${f.cwe})` : ''} - ${f.agents.join(', ')}, confidence ${Math.round(f.confidence * 100)}%${f.clamped ? ', lines clamped' : ''}`);
      if (f.explanation) out.push(indent(f.explanation));
      if (f.suggestion !== undefined) out.push('    Suggested replacement:', indent(f.suggestion, '      | '));
    }
    out.push('');
  }
  for (const a of s.agents) {
    if (a.status === 'ok' && a.unparsed && a.text.trim()) out.push(`${a.title} (answer kept as text):`, indent(a.text.trim(), '  '), '');
    if (a.improvedCode !== undefined) {
      out.push(`Improved code from ${a.agent} (lines ${s.target.startLine}-${s.target.endLine}):`, indent(a.improvedCode, '  | '));
      if (a.rationale) out.push('', 'Rationale:', indent(a.rationale, '  '));
      out.push('');
    }
  }
  out.push(totalsLine(s));
  return out.join('\n') + '\n';
}

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function escapeMd(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, '\\$1');
}

export function formatMarkdown(s: ReviewSummary): string {
  const lang = s.target.language.replace(/[^\w+-]/g, '');
  const out: string[] = [`## Quorum review of \`${s.target.file}\` lines ${s.target.startLine}-${s.target.endLine}`, ''];
  out.push('| Agent | Model | Status | Findings | Tokens | Cost | Time |', '|---|---|---|---|---|---|---|');
  for (const a of s.agents) {
    const status = a.status === 'ok' ? (a.cached ? 'ok (cached)' : 'ok') : a.status === 'cancelled' ? 'cancelled' : `failed: ${escapeMd(a.error?.code ?? 'error')}`;
    out.push(`| ${escapeMd(a.agent)} | ${escapeMd(a.model)} | ${status} | ${a.findings.length} | ${a.usage.promptTokens}+${a.usage.completionTokens} | ${formatUsd(a.costUsd)} | ${seconds(a.latencyMs)} |`);
  }
  out.push('');
  if (s.findings.length === 0) out.push('No findings.', '');
  for (const f of s.findings) {
    out.push(`### ${f.severity.toUpperCase()}: ${escapeMd(f.title)}`, '');
    out.push(`Lines ${lines(f)} · ${f.agents.map(escapeMd).join(', ')} · confidence ${Math.round(f.confidence * 100)}%${f.cwe ? ` · ${f.cwe}` : ''}${f.clamped ? ' · lines clamped to the reviewed range' : ''}`, '');
    if (f.explanation) out.push(escapeMd(f.explanation), '');
    if (f.suggestion !== undefined) out.push('Suggested replacement:', '', fence(f.suggestion, lang), '');
  }
  for (const a of s.agents) {
    if (a.status === 'ok' && a.unparsed && a.text.trim()) out.push(`### ${escapeMd(a.title)} (answer kept as text)`, '', fence(a.text.trim()), '');
    if (a.improvedCode !== undefined) {
      out.push(`### Improved code (${escapeMd(a.agent)})`, '', fence(a.improvedCode, lang), '');
      if (a.rationale) out.push(escapeMd(a.rationale), '');
    }
    if (a.status === 'error' && a.error) out.push(`> ${escapeMd(a.agent)} failed (${escapeMd(a.error.code)}): ${escapeMd(a.error.message)}`, '');
  }
  out.push(`_${totalsLine(s)}_`);
  return out.join('\n') + '\n';
}
