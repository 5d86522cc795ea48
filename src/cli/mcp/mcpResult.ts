import type { PlannedReview, ReviewOutcome } from '../../core/review/reviewRequest';
import { reportStatus } from '../../core/report/agentStatus';
import { findingHead, nonNegative } from '../../core/report/json';
import type { AgentResult, ReviewSummary } from '../../core/domain/result';
import type { McpFinding, McpResult } from './schemas';
import type { McpSession } from './session';
import { ToolRefusal } from './toolRefusal';

/** What the call knows besides the outcome: its notes (added to here), the files it skipped, its signal. */
interface McpReport {
  notes: string[];
  skipped: McpResult['skipped'];
  signal: AbortSignal;
}

/** The review use case's outcome as the tool's result; an excluded file is refused. */
export function mcpOutcome(s: McpSession, outcome: ReviewOutcome, report: McpReport): { result: McpResult; cancelled: boolean } {
  const { notes } = report;
  const base: McpResult = { skipped: report.skipped, findings: [], costUsd: 0, hiddenFindings: 0, regions: [], estimatedUsd: 0, maxUsd: 0, requests: 0, agents: [] };
  switch (outcome.status) {
    case 'excluded':
      throw new ToolRefusal(`${outcome.file} is never sent to a gateway: it matches "${outcome.rule.pattern}" in ${outcome.rule.source}`);
    case 'nothing':
      notes.unshift('nothing to review');
      return { cancelled: false, result: base };
    case 'declined': {
      const plan = outcome.plan;
      if (!plan) return { cancelled: false, result: base };
      const agents = plan.estimate.order.map((id) => ({ id, model: plan.estimate.perAgent[id]?.model ?? '', status: 'planned' as const }));
      return { cancelled: false, result: { ...base, ...planned(plan, notes), agents } };
    }
    case 'reviewed': {
      if (s.cache && s.cache.stats.writeErrors > 0) s.log(`could not write ${s.cache.stats.writeErrors} answer(s) to the cache in ${s.cache.folder}`);
      const { summary, noise } = outcome;
      return {
        cancelled: report.signal.aborted,
        result: {
          ...base,
          ...planned(outcome.plan, notes),
          findings: noise.shown.map(finding),
          hiddenFindings: noise.hidden.length,
          costUsd: nonNegative(summary.totals.costUsd),
          requests: summary.totals.requests,
          agents: summary.agents.map(agentLine),
        },
      };
    }
  }
}

function finding(f: ReviewSummary['findings'][number]): McpFinding {
  return { ...findingHead(f), explanation: f.explanation, ...(f.suggestion !== undefined ? { replacement: f.suggestion } : {}) };
}

function agentLine(r: AgentResult): McpResult['agents'][number] {
  const status = reportStatus(r);
  return { id: r.agent, model: r.model, status, ...(status === 'error' ? { error: `${r.error?.code ?? 'error'}${r.error?.message ? `: ${r.error.message}` : ''}` } : {}) };
}

/** What the plan says: the code sent, the estimate, the rules, the redactions, what does not fit. */
function planned(plan: PlannedReview, notes: string[]): Pick<McpResult, 'regions' | 'estimatedUsd' | 'maxUsd' | 'requests'> {
  const { estimate, shaped, rules } = plan;
  if (shaped.redactions.length > 0) notes.push(`${shaped.redactions.length} secret${shaped.redactions.length === 1 ? '' : 's'} redacted before sending`);
  if (rules.used.length > 0) notes.push(`repository rules: ${rules.used.join(', ')}`);
  for (const [agent, e] of Object.entries(estimate.perAgent)) {
    if (e.tooLarge) notes.push(`${agent}: a request (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window`);
  }
  return {
    regions: shaped.target.regions.map((r) => ({ file: r.file, startLine: r.startLine, endLine: r.endLine })),
    estimatedUsd: nonNegative(estimate.likelyUsd),
    maxUsd: nonNegative(estimate.costUsd),
    requests: estimate.requests,
  };
}
