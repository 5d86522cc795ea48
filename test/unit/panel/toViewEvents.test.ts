import { strict as assert } from 'node:assert';
import type { AgentResult } from '../../../src/core/domain/result';
import type { ReviewEvent } from '../../../src/core/domain/events';
import { reviewViewEventSchema } from '../../../src/shared/protocol';
import { toViewEvent } from '../../../src/core/report/viewEvents';

const base: AgentResult = {
  agent: 'security', title: 'Security', role: 'reviewer', model: 'gemini-2.5-flash', status: 'ok', text: 'answer', findings: [],
  usage: { promptTokens: 100, completionTokens: 50, cachedTokens: 10, reasoningTokens: 5 },
  costUsd: 0.001, costSource: 'estimated', latencyMs: 1234, attempts: 2, cached: false,
};

describe('panel: pipeline events to view events', () => {
  it('every converted event passes the protocol schema', () => {
    const events: ReviewEvent[] = [
      { type: 'queued', reviewId: 'r', agent: 'security', title: 'Security', model: 'm', output: 'findings' },
      { type: 'started', reviewId: 'r', agent: 'security', model: 'm' },
      { type: 'delta', reviewId: 'r', agent: 'security', text: 'x' },
      { type: 'finding', reviewId: 'r', agent: 'security', finding: { id: 'f', file: 'a.ts', agents: ['security'], severity: 'high', title: 't', explanation: 'e', startLine: 1, endLine: 2, confidence: 1.7, cwe: 'CWE-79', clamped: true } },
      { type: 'done', reviewId: 'r', agent: 'security', result: { ...base, improvedCode: 'code', rationale: 'why', unparsed: true } },
      { type: 'failed', reviewId: 'r', agent: 'security', result: { ...base, status: 'error', error: { code: 'model-not-found', message: 'no such model', model: 'gpt-5', suggestions: ['gpt-4.1'], partialText: 'secret-ish partial', requestId: 'req-1' } } },
      { type: 'cancelled', reviewId: 'r', agent: 'security', result: { ...base, status: 'cancelled', error: { code: 'cancelled', message: 'stopped' } } },
      { type: 'review-done', reviewId: 'r', summary: { reviewId: 'r', target: { kind: 'selection', label: 'a:1-2', regions: [{ file: 'a', language: 'ts', startLine: 1, endLine: 2 }] }, agents: [base], findings: [], totals: { costUsd: 0.1, estimatedUsd: 0, promptTokens: 1, completionTokens: 1, cachedTokens: 0, requests: 1, retries: 0 }, cancelled: false, elapsedMs: 5 } },
    ];
    for (const e of events) {
      const v = toViewEvent(e, { security: { costUsd: 0.003, likelyUsd: 0.001 } });
      const parsed = reviewViewEventSchema.safeParse(v);
      assert.ok(parsed.success, `${e.type}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`);
    }
  });

  it('a review of changes shows the coding agent\'s proposal for each region, headed by file and lines (so it can be previewed and applied)', () => {
    const replacements = [{ file: 'src/a.ts', startLine: 3, endLine: 4, code: 'fixed();' }, { file: 'lib/b.py', startLine: 10, endLine: 10, code: 'pass' }];
    const v = toViewEvent({ type: 'done', reviewId: 'r', agent: 'coding', result: { ...base, agent: 'coding', replacements } });
    assert.ok(v.kind === 'ended');
    assert.equal(v.outcome.improvedCode, '@@ src/a.ts:3–4 @@\nfixed();\n\n@@ lib/b.py:10 @@\npass');
    const single = toViewEvent({ type: 'done', reviewId: 'r', agent: 'coding', result: { ...base, agent: 'coding', improvedCode: 'only', replacements: [replacements[0]!] } });
    assert.ok(single.kind === 'ended');
    assert.equal(single.outcome.improvedCode, 'only');
  });

  it('keeps what the panel needs and drops what it must not show', () => {
    const failed = toViewEvent({ type: 'failed', reviewId: 'r', agent: 'security', result: { ...base, status: 'error', error: { code: 'rate-limited', message: 'HTTP 429', retryAfterMs: 2000, partialText: 'p', requestId: 'req-9', status: 429 } } });
    assert.equal(failed.kind, 'ended');
    if (failed.kind !== 'ended') return;
    assert.equal(failed.outcome.state, 'failed');
    assert.deepEqual(failed.outcome.error, { code: 'rate-limited', message: 'HTTP 429', retryAfterMs: 2000, status: 429 });
    assert.equal(failed.outcome.attempts, 2);
    assert.equal(failed.outcome.costSource, 'estimated');
  });

  it('clamps numbers a misbehaving gateway may report', () => {
    const v = toViewEvent({ type: 'done', reviewId: 'r', agent: 'a', result: { ...base, costUsd: Number.NaN, latencyMs: -5, usage: { promptTokens: -1, completionTokens: 2.6, cachedTokens: Number.POSITIVE_INFINITY, reasoningTokens: 0 } } });
    if (v.kind !== 'ended') throw new Error('expected ended');
    assert.deepEqual([v.outcome.costUsd, v.outcome.latencyMs, v.outcome.usage.promptTokens, v.outcome.usage.completionTokens, v.outcome.usage.cachedTokens], [0, 0, 0, 3, 0]);
    assert.ok(reviewViewEventSchema.safeParse(v).success);
  });

  it('adds the per-agent estimate to queued, and derives the review status from the summary', () => {
    const q = toViewEvent({ type: 'queued', reviewId: 'r', agent: 'a', title: 'A', model: 'm', output: 'findings' }, { a: { costUsd: 0.25, likelyUsd: 0.05 } });
    assert.deepEqual(q, { kind: 'queued', agent: 'a', title: 'A', model: 'm', output: 'findings', estimateUsd: 0.25, likelyUsd: 0.05 });
    const summary = { reviewId: 'r', target: { kind: 'selection' as const, label: 'a:1-2', regions: [{ file: 'a', language: 'ts', startLine: 1, endLine: 2 }] }, findings: [], totals: { costUsd: 0, estimatedUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0, retries: 0 }, elapsedMs: 1 };
    const status = (agents: AgentResult[], cancelled: boolean) => {
      const e = toViewEvent({ type: 'review-done', reviewId: 'r', summary: { ...summary, agents, cancelled } });
      return e.kind === 'review-done' ? e.status : undefined;
    };
    assert.equal(status([{ ...base, status: 'error' }, { ...base, status: 'error' }], false), 'failed');
    assert.equal(status([{ ...base, status: 'error' }, base], false), 'done');
    assert.equal(status([base], true), 'cancelled');
  });
});
