import { strict as assert } from 'node:assert';
import { CostLedger } from '../../../src/core/cost/ledger';
import type { Corpus } from '../../../src/core/eval/corpus';
import { runEval } from '../../../src/core/eval/runner';
import type { ChatRequest, Gateway, StreamOptions, StreamResult } from '../../../src/core/gateway/types';
import { parseSettings } from '../../../src/core/settings/parse';

const corpus: Corpus = {
  dir: '/virtual',
  cases: [
    { id: 'a', language: 'python', file: 'a.py', text: 'x = 1\n'.repeat(12), lines: 12, expected: [{ startLine: 3, endLine: 3, kind: 'security', cwe: 'CWE-89' }] },
    { id: 'a-fixed', language: 'python', file: 'a.py', text: 'y = 2\n'.repeat(12), lines: 12, expected: [] },
  ],
};

/**
 * A gateway on a fake clock: each request queues 1000 ms before its first send, then fails once after 30 ms
 * (billed), waits 200 ms, and is answered 50 ms after its second send. Latency must be 30 + 200 + 50 = 280 ms:
 * retries included, queueing not.
 */
function fakeGateway(clock: { t: number }, ledger: CostLedger, requests: ChatRequest[]): Gateway {
  return {
    async *stream(request: ChatRequest, options: StreamOptions = {}): AsyncGenerator<string, StreamResult, void> {
      requests.push(request);
      await Promise.resolve(); // the first send waits its turn
      clock.t += 1000;
      options.onSent?.();
      clock.t += 30;
      ledger.record({ model: request.model, tag: request.tag, attempt: 1, usage: { promptTokens: 10, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 }, reportedCostUsd: 0.25, outcome: 'failed' });
      clock.t += 200;
      options.onSent?.();
      clock.t += 50;
      const isCase = (request.messages[1]?.content ?? '').includes('File: a/');
      const text = JSON.stringify({ findings: isCase ? [{ title: 'SQL injection', explanation: 'e', startLine: 3, endLine: 3, cwe: 'CWE-89', confidence: 0.9, severity: 'high' }] : [] });
      yield text;
      ledger.record({ model: request.model, tag: request.tag, attempt: 2, usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 }, reportedCostUsd: 0.5, outcome: 'ok' });
      return { text, usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 }, usageSource: 'reported', costUsd: 0.5, costSource: 'reported', finishReason: 'stop', model: request.model, attempts: 2, latencyMs: 1280 };
    },
    listModels: () => Promise.resolve([]),
  };
}

describe('eval runner', () => {
  it('latency runs from the first send to the last byte (retries in, queueing out); cost counts every billed attempt from the ledger', async () => {
    const clock = { t: 0 };
    const ledger = new CostLedger();
    const requests: ChatRequest[] = [];
    const settings = parseSettings({ limits: { maxConcurrent: 1 }, agents: { security: { fallbackModel: 'gpt-4.1-mini' } } }).settings;
    const report = await runEval(corpus, { gateway: fakeGateway(clock, ledger, requests), settings: () => settings, ledger, now: () => clock.t }, { runs: [{ agent: 'security', model: 'm-1' }], language: 'en' });
    const run = report.runs[0];
    assert.equal(run?.p50Ms, 280);
    assert.equal(run.p95Ms, 280);
    assert.equal(run.costUsd, 1.5);
    assert.equal(run.costPerTruePositiveUsd, 1.5);
    assert.deepEqual([run.precision, run.recall, run.falsePositivesPerCleanCase], [1, 1, 0]);
    assert.equal(requests.length, 2);
    assert.ok(requests.every((r) => r.model === 'm-1' && r.fallbackModel === undefined), 'no fallback model in an eval');
  });
});

describe('eval through the review use case', () => {
  it('sends a case as a review sends it: its secret redacted before anything goes out', async () => {
    const clock = { t: 0 };
    const ledger = new CostLedger();
    const requests: ChatRequest[] = [];
    const secret = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const withSecret: Corpus = { dir: '/virtual', cases: [{ id: 'a', language: 'python', file: 'a.py', text: `token = "${secret}"\n` + 'x = 1\n'.repeat(11), lines: 12, expected: [] }] };
    const settings = parseSettings({ limits: { maxConcurrent: 1 } }).settings;
    const report = await runEval(withSecret, { gateway: fakeGateway(clock, ledger, requests), settings: () => settings, ledger, now: () => clock.t }, { runs: [{ agent: 'security', model: 'm-1' }], language: 'en' });
    assert.equal(report.finished[0], 1);
    const sent = JSON.stringify(requests.map((r) => r.messages));
    assert.ok(!sent.includes(secret), 'the secret never left the machine');
    assert.match(sent, /\[REDACTED:github-token\]/);
  });
});

describe('gateway client: onSent', () => {
  it('is told once per attempt that went out, retries included', async () => {
    const { rig } = await import('../gateway/helpers');
    const r = await rig({ tuning: { backoffBaseMs: 1, backoffMaxMs: 2 } });
    try {
      r.gw.enqueue({ kind: 'error', status: 500, message: 'boom' }, { text: 'ok' });
      let sent = 0;
      const stream = r.client.stream({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] }, { onSent: () => sent++ });
      let step = await stream.next();
      while (!step.done) step = await stream.next();
      assert.equal(step.value.attempts, 2);
      assert.equal(sent, 2);
    } finally {
      await r.close();
    }
  });
});
