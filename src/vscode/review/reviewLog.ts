import { type ReviewTarget, soleRegion } from '../../core/domain/target';
import type { Redaction } from '../../core/redaction/redactor';
import type { AgentResult, ReviewSummary } from '../../core/domain/result';
import type { ReviewEstimate } from '../../core/domain/estimate';
import { formatUsd } from '../../shared/format';
import { lineLabel } from '../../shared/lineLabel';
import type { QuorumLog } from '../log';

/** The log's lines about a review (English, for the output channel; the log redacts them). */

export function startLogLine(id: string, t: ReviewTarget, estimate: ReviewEstimate, language: string, noCache: boolean): string {
  const only = t.kind !== 'changes' ? soleRegion(t) : undefined;
  const chars = t.regions.reduce((n, r) => n + r.text.length, 0);
  return `Review ${id} of ${only ? `${only.file} ${lineLabel(only.startLine, only.endLine)}` : t.label} (${only ? only.language : `${t.regions.length} regions`}, ${chars} chars): ${estimate.order.join(', ')}; estimate up to ${formatUsd(estimate.costUsd)}; language ${language}${noCache ? '; cache bypassed' : ''}`;
}

/** Logs an agent that has ended (done, failed or cancelled): a warning when it failed. */
export function logAgentEnd(log: QuorumLog, id: string, r: AgentResult): void {
  if (r.status === 'error') log.warn(agentLogLine(id, r));
  else log.info(agentLogLine(id, r));
}

function agentLogLine(id: string, r: AgentResult): string {
  const how = r.cached ? 'from the cache' : `${r.attempts} attempt(s), ${formatUsd(r.costUsd)} (${r.costSource})`;
  const error = r.error ? `; ${r.error.code}: ${r.error.message}` : '';
  return `Review ${id}: ${r.agent} on ${r.model} ${r.status} in ${Math.round(r.latencyMs)} ms, ${how}, ${r.usage.promptTokens}/${r.usage.completionTokens} tokens, ${r.findings.length} finding(s)${error}`;
}

export function summaryLogLine(id: string, summary: ReviewSummary): string {
  const t = summary.totals;
  return `Review ${id} ${summary.cancelled ? 'cancelled' : 'done'} in ${Math.round(summary.elapsedMs)} ms: ${summary.findings.length} finding(s), ${formatUsd(t.costUsd)}, ${t.promptTokens}/${t.completionTokens} tokens (${t.cachedTokens} cached), ${t.requests} request(s), ${t.retries} retries`;
}

/** The repository rules a review's prompts carry, and the secrets redacted before sending (kinds and lines). */
export function privacyLogLines(id: string, rules: readonly string[], redactions: readonly Redaction[]): string[] {
  const out: string[] = [];
  if (rules.length > 0) out.push(`Review ${id}: repository rules ${rules.join(', ')}`);
  if (redactions.length > 0) out.push(`Review ${id}: redacted before sending: ${redactions.map((r) => `${r.file ? `${r.file} ` : ''}${r.kind} (${lineLabel(r.line, r.endLine)})`).join(', ')}`);
  return out;
}
