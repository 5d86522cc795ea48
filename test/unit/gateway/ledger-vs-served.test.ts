import { strict as assert } from 'node:assert';
import { costOf, priceFor } from '../../../src/core/cost/prices';
import type { Reply } from '../../fixtures/gateway/server';
import { ask, drain, rig, type Rig } from './helpers';

describe('gateway client + ledger: what was served is what is billed', () => {
  let r: Rig;
  afterEach(async () => r?.close());

  it('bills every attempt once: cached tokens at the cached price, reported cost believed, 429s and 5xx free', async () => {
    r = await rig({ settings: { limits: { maxConcurrent: 3 } } });
    const replies: Reply[] = [
      { text: 'plain answer' },
      { text: 'with cache', cachedTokens: 12 },
      { text: 'priced by the gateway', cost: 0.0123 },
      { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '10' } },
      { text: 'usage on every chunk', usage: 'every-chunk', cachedTokens: 3 },
      { kind: 'error', status: 503, message: 'busy' },
      { reasoning: 'thinking hard', text: 'reasoned answer' },
      { text: 'length cut', finishReason: 'length' },
    ];
    r.gw.enqueue(...replies);
    const models = ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'];
    const agents = ['analyst', 'architecture', 'security', 'coding'];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => drain(r.client.stream(ask(models[i % 4] as string, `request ${i}`, { tag: { agent: agents[i % 4], reviewId: 'rv' } })))),
    );
    assert.ok(results.every((x) => x.result), 'all complete');

    let served = 0;
    for (const s of r.gw.served) {
      if (!s.usage) continue;
      const u = s.usage;
      served +=
        u.cost ??
        costOf(priceFor(s.model)!.price, { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, cachedTokens: u.prompt_tokens_details.cached_tokens });
    }
    const totals = r.ledger.totals();
    assert.equal(Math.round(totals.session.costUsd * 100), Math.round(served * 100), 'to the cent');
    assert.ok(Math.abs(totals.session.costUsd - served) < 1e-12, `ledger ${totals.session.costUsd} vs served ${served}`);
    assert.equal(totals.session.estimatedUsd, 0);
    const t = r.gw.servedTotals();
    assert.equal(totals.session.promptTokens, t.promptTokens);
    assert.equal(totals.session.completionTokens, t.completionTokens);
    assert.equal(totals.session.cachedTokens, t.cachedTokens);
    assert.equal(totals.session.requests, 10);
    assert.equal(totals.session.retries, 2);
    const byAgentSum = Object.values(totals.byAgent).reduce((n, a) => n + a.costUsd, 0);
    const byModelSum = Object.values(totals.byModel).reduce((n, a) => n + a.costUsd, 0);
    assert.ok(Math.abs(byAgentSum - served) < 1e-12 && Math.abs(byModelSum - served) < 1e-12);
    const reported = r.ledger.entries().find((e) => e.pricedBy === 'gateway');
    assert.equal(reported?.costUsd, 0.0123);
    // What each caller was told matches its ledger entry.
    for (const x of results) {
      const entry = r.ledger.entries().find((e) => e.requestId === x.result?.requestId);
      assert.equal(entry?.costUsd, x.result?.costUsd);
    }
  });
});
