import { strict as assert } from 'node:assert';
import { applyReviewEvent, emptyReviewState, reduceReviewEvents } from '../../../src/core/review/reviewState';
import type { AgentResult, Finding, ReviewEvent } from '../../../src/core/review/types';

const usage = { promptTokens: 100, completionTokens: 20, cachedTokens: 0, reasoningTokens: 0 };
const f = (agent: string, title: string): Finding => ({ id: `${agent}-1`, agents: [agent], severity: 'high', title, explanation: '', startLine: 3, endLine: 3, confidence: 0.5 });
const result = (agent: string, over: Partial<AgentResult> = {}): AgentResult => ({ agent, title: agent, model: 'm', status: 'ok', text: 'full', findings: [], usage, costUsd: 0.01, costSource: 'reported', latencyMs: 5, attempts: 2, cached: false, ...over });

describe('review state from events', () => {
  const events: ReviewEvent[] = [
    { type: 'queued', reviewId: 'r1', agent: 'analyst', title: 'Analyst', model: 'gpt-4.1' },
    { type: 'queued', reviewId: 'r1', agent: 'security', title: 'Security', model: 'gemini-2.5-flash' },
    { type: 'started', reviewId: 'r1', agent: 'analyst', model: 'gpt-4.1' },
    { type: 'delta', reviewId: 'r1', agent: 'analyst', text: 'ab' },
    { type: 'delta', reviewId: 'r1', agent: 'analyst', text: 'c' },
  ];

  it('follows agents through their states, streaming text as it comes', () => {
    const s = reduceReviewEvents(events);
    assert.deepEqual(s.order, ['analyst', 'security']);
    assert.equal(s.agents.analyst?.status, 'running');
    assert.equal(s.agents.analyst?.text, 'abc');
    assert.equal(s.agents.security?.status, 'queued');
    assert.equal(s.done, false);
  });

  it('merges findings and totals finished agents as they finish', () => {
    const s = reduceReviewEvents([
      ...events,
      { type: 'finding', reviewId: 'r1', agent: 'analyst', finding: f('analyst', 'SQL injection in query') },
      { type: 'done', reviewId: 'r1', agent: 'analyst', result: result('analyst', { findings: [f('analyst', 'SQL injection in query')] }) },
      { type: 'started', reviewId: 'r1', agent: 'security', model: 'gemini-2.5-flash' },
      { type: 'finding', reviewId: 'r1', agent: 'security', finding: f('security', 'SQL injection in the query') },
    ]);
    assert.equal(s.agents.security?.findings.length, 1, 'listed with its agent at once');
    assert.equal(s.findings.length, 1);
    assert.deepEqual(s.findings[0]?.agents, ['analyst'], 'merged when the agent finishes');
    applyReviewEvent(s, { type: 'done', reviewId: 'r1', agent: 'security', result: result('security', { findings: [f('security', 'SQL injection in the query')] }) });
    assert.equal(s.findings.length, 1);
    assert.deepEqual(new Set(s.findings[0]?.agents), new Set(['analyst', 'security']));
    assert.equal(s.totals.costUsd, 0.02);
    assert.equal(s.totals.requests, 2);
    assert.equal(s.totals.retries, 2);
    assert.equal(s.agents.analyst?.text, 'full');
  });

  it('records cancellation and takes the final summary as the truth', () => {
    const s = emptyReviewState();
    for (const e of events) applyReviewEvent(s, e);
    applyReviewEvent(s, { type: 'cancelled', reviewId: 'r1', agent: 'analyst', result: result('analyst', { status: 'cancelled', text: 'ab' }) });
    assert.equal(s.cancelled, true);
    assert.equal(s.agents.analyst?.status, 'cancelled');
    applyReviewEvent(s, { type: 'delta', reviewId: 'other', agent: 'analyst', text: 'zzz' });
    assert.equal(s.agents.analyst?.text, 'ab', 'events of another review are ignored');
    const summary = { reviewId: 'r1', target: { file: 'a', language: 'x', startLine: 1, endLine: 2 }, agents: [result('analyst', { status: 'cancelled' }), result('security', { status: 'cancelled' })], findings: [], totals: { costUsd: 0.02, promptTokens: 200, completionTokens: 40, cachedTokens: 0, requests: 2, retries: 2 }, cancelled: true, elapsedMs: 9 };
    applyReviewEvent(s, { type: 'review-done', reviewId: 'r1', summary });
    assert.equal(s.done, true);
    assert.equal(s.agents.security?.status, 'cancelled');
    assert.deepEqual(s.totals, summary.totals);
  });
});
