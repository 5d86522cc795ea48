import { strict as assert } from 'node:assert';
import type { FindingView, ReviewViewEvent } from '../../../src/shared/protocol';
import { applyViewEvent, emptyReview, filterFindings, hiddenFindings, noChanges, sortFindings, spentUsd } from '../../../src/shared/reviewReducer';

const view = () => emptyReview({ sessionId: 's', targetKey: 'k', target: { file: 'a.ts', language: 'typescript', startLine: 1, endLine: 9 }, startedAt: 0 });
const finding = (id: string, severity: FindingView['severity'], startLine: number, agents = ['analyst']): FindingView =>
  ({ id, agents, severity, title: id, explanation: '', startLine, endLine: startLine, confidence: 0.5 });
const usage = { promptTokens: 1, completionTokens: 2, cachedTokens: 0, reasoningTokens: 0 };
const ended = (agent: string, state: 'done' | 'failed' | 'cancelled', text: string, costUsd = 0.01): ReviewViewEvent => ({
  kind: 'ended', agent, title: agent.toUpperCase(),
  outcome: { state, model: 'm2', text, cached: false, usage, costUsd, costSource: 'reported', latencyMs: 5, attempts: 1, findingCount: 0 },
});

describe('panel: the shared view reducer', () => {
  it('builds agents from queued/started/delta and reports only what changed', () => {
    const v = view();
    let c = applyViewEvent(v, { kind: 'queued', agent: 'analyst', title: 'Analyst', model: 'm', estimateUsd: 0.02 });
    assert.equal(c.layout, true);
    assert.deepEqual([...c.agents], ['analyst']);
    applyViewEvent(v, { kind: 'started', agent: 'analyst', model: 'm' });
    c = applyViewEvent(v, { kind: 'delta', agent: 'analyst', text: 'ab' });
    applyViewEvent(v, { kind: 'delta', agent: 'analyst', text: 'c' }, c);
    assert.equal(c.layout, false);
    assert.equal(c.header, false, 'a delta does not touch the header');
    assert.equal(c.findings, false);
    assert.deepEqual(v.agents[0], { agent: 'analyst', title: 'Analyst', model: 'm', state: 'running', text: 'abc', chunks: 2, estimateUsd: 0.02 });
  });

  it('a delta for an agent never queued creates its card as running', () => {
    const v = view();
    const c = applyViewEvent(v, { kind: 'delta', agent: 'x', text: 'hi' });
    assert.equal(c.layout, true);
    assert.equal(v.agents[0]?.state, 'running');
  });

  it('ended takes the final text, but keeps streamed text when a failure carries none', () => {
    const v = view();
    applyViewEvent(v, { kind: 'delta', agent: 'a', text: 'partial' });
    applyViewEvent(v, { kind: 'delta', agent: 'b', text: 'draft' });
    applyViewEvent(v, ended('a', 'failed', ''));
    applyViewEvent(v, ended('b', 'done', 'final'));
    assert.deepEqual(v.agents.map((a) => [a.state, a.text, a.title, a.model]), [['failed', 'partial', 'A', 'm2'], ['done', 'final', 'B', 'm2']]);
    assert.equal(spentUsd(v), 0.02);
  });

  it('review-done sets totals, replaces findings with the merged list and closes unfinished agents', () => {
    const v = view();
    applyViewEvent(v, { kind: 'queued', agent: 'a', title: 'A', model: 'm' });
    applyViewEvent(v, { kind: 'finding', agent: 'a', finding: finding('a-0', 'low', 3) });
    const dup = applyViewEvent(v, { kind: 'finding', agent: 'a', finding: finding('a-0', 'low', 3) });
    assert.equal(dup.findings, false, 'a repeated finding is ignored');
    applyViewEvent(v, {
      kind: 'review-done', status: 'cancelled', elapsedMs: 10,
      totals: { costUsd: 0.5, promptTokens: 1, completionTokens: 1, cachedTokens: 0, requests: 1, retries: 0 },
      findings: [finding('m-0', 'high', 1, ['a', 'b'])],
    });
    assert.equal(v.status, 'cancelled');
    assert.equal(v.agents[0]?.state, 'cancelled');
    assert.deepEqual(v.findings.map((f) => f.id), ['m-0']);
    assert.equal(spentUsd(v), 0.5);
  });

  it('a re-queued agent starts from scratch', () => {
    const v = view();
    applyViewEvent(v, { kind: 'delta', agent: 'a', text: 'old' });
    applyViewEvent(v, ended('a', 'done', 'old'));
    applyViewEvent(v, { kind: 'queued', agent: 'a', title: 'A', model: 'm' });
    assert.deepEqual([v.agents[0]?.state, v.agents[0]?.text, v.agents[0]?.chunks, v.agents[0]?.outcome], ['queued', '', 0, undefined]);
  });

  it('sorts most severe first, then by line; filters by agent, severity and dismissal', () => {
    const v = view();
    v.findings = [finding('i', 'info', 1), finding('h2', 'high', 9, ['security']), finding('c', 'critical', 5), finding('h1', 'high', 2)];
    assert.deepEqual(sortFindings(v.findings).map((f) => f.id), ['c', 'h1', 'h2', 'i']);
    assert.deepEqual(v.findings.map((f) => f.id), ['i', 'h2', 'c', 'h1'], 'input untouched');
    assert.deepEqual(filterFindings(v, { agent: 'security', severities: [] }).map((f) => f.id), ['h2']);
    assert.deepEqual(filterFindings(v, { agent: '', severities: ['high', 'info'] }).map((f) => f.id), ['h1', 'h2', 'i']);
    const c = applyViewEvent(v, { kind: 'dismissed', findingId: 'h1' }, noChanges());
    assert.equal(c.findings, true);
    assert.deepEqual(filterFindings(v, { agent: '', severities: ['high'] }).map((f) => f.id), ['h2']);
  });

  it('records an applied fix once; the finding stays listed', () => {
    const v = view();
    v.findings = [finding('c', 'critical', 5)];
    assert.equal(applyViewEvent(v, { kind: 'applied', findingId: 'c' }, noChanges()).findings, true);
    assert.equal(applyViewEvent(v, { kind: 'applied', findingId: 'c' }, noChanges()).findings, false, 'a second time changes nothing');
    assert.deepEqual(v.applied, ['c']);
    assert.deepEqual(filterFindings(v, { agent: '', severities: [] }).map((f) => f.id), ['c']);
  });

  it('hides the findings the noise controls hide (the list replaced as a whole), lists them on request, and a dismissal wins', () => {
    const v = view();
    v.findings = [finding('a', 'high', 1), finding('b', 'low', 2), finding('c', 'medium', 3)];
    const c = applyViewEvent(v, { kind: 'hidden', findings: [{ id: 'b', reason: 'severity' }, { id: 'c', reason: 'dismissed' }, { id: 'gone', reason: 'confidence' }] }, noChanges());
    assert.equal(c.findings, true);
    assert.deepEqual([...hiddenFindings(v)], [['b', 'severity'], ['c', 'dismissed']], 'ids no longer in the list are not counted');
    assert.deepEqual(filterFindings(v, { agent: '', severities: [] }).map((f) => f.id), ['a']);
    assert.deepEqual(filterFindings(v, { agent: '', severities: [], showHidden: true }).map((f) => f.id), ['a', 'c', 'b']);
    applyViewEvent(v, { kind: 'dismissed', findingId: 'b' });
    assert.deepEqual([...hiddenFindings(v).keys()], ['c'], 'a dismissed finding is gone, not hidden');
    applyViewEvent(v, { kind: 'hidden', findings: [] });
    assert.deepEqual(filterFindings(v, { agent: '', severities: [] }).map((f) => f.id), ['a', 'c']);
  });
});
