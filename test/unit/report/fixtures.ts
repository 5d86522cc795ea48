import type { AgentResult, ReviewSummary } from '../../../src/core/domain/result';
import type { Finding } from '../../../src/core/domain/finding';

/** Review summaries for the renderer tests, built by hand so every field is known. */

const usage = { promptTokens: 100, completionTokens: 50, cachedTokens: 0, reasoningTokens: 0 };

export function agent(id: string, over: Partial<AgentResult> = {}): AgentResult {
  return { agent: id, title: id, role: 'reviewer', model: `${id}-model`, status: 'ok', text: '', findings: [], usage, costUsd: 0.001, costSource: 'reported', latencyMs: 900, attempts: 1, cached: false, ...over };
}

export function finding(over: Partial<Finding> & Pick<Finding, 'severity' | 'title'>): Finding {
  return { id: `f-${over.title}`, file: '/repo/src/db/users.py', agents: ['analyst'], explanation: 'Because.', startLine: 2, endLine: 2, confidence: 0.6, ...over };
}

/** The target of a review of lines 1..lines of one file. */
export function fileTarget(file: string, lines: number): ReviewSummary['target'] {
  return { kind: 'file', label: `${file}:1-${lines}`, regions: [{ file, language: 'python', startLine: 1, endLine: lines }] };
}

export function summary(findings: Finding[], over: Partial<ReviewSummary> = {}): ReviewSummary {
  return {
    reviewId: 'r1',
    target: fileTarget('/repo/src/db/users.py', 12),
    agents: [agent('analyst'), agent('architecture'), agent('security'), agent('coding')],
    findings,
    totals: { costUsd: 0.004, estimatedUsd: 0, promptTokens: 400, completionTokens: 200, cachedTokens: 0, requests: 4, retries: 0 },
    cancelled: false,
    elapsedMs: 2000,
    ...over,
  };
}
