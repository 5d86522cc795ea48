import { strict as assert } from 'node:assert';
import { CostLedger } from '../../../src/core/cost/ledger';
import { catalogPrice } from '../../../src/core/cost/catalog';
import { estimateCost, priceFor } from '../../../src/core/cost/prices';
import { countChatTokens, countTokens } from '../../../src/core/tokens/count';

const usage = (promptTokens: number, completionTokens: number, cachedTokens = 0) => ({ promptTokens, completionTokens, cachedTokens, reasoningTokens: 0 });

describe('price table', () => {
  it('has defaults for the seeds’ models and the common ones', () => {
    for (const m of ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'gemini-2.5-pro', 'deepseek-v3.2']) {
      assert.ok(catalogPrice(m), m);
    }
  });

  it('finds dated, prefixed and differently cased variants, the most specific key first', () => {
    assert.equal(priceFor('openai/GPT-4.1-2025-04-14')?.matched, 'gpt-4.1');
    assert.equal(priceFor('gpt-4.1-mini-2025-04-14')?.matched, 'gpt-4.1-mini');
    assert.equal(priceFor('totally-unknown'), undefined);
  });

  it('prefers a settings override and ignores an invalid one', () => {
    assert.deepEqual(priceFor('gpt-4.1', { 'gpt-4.1': { input: 8, output: 8 } })?.price, { input: 8, cachedInput: 8, output: 8 });
    assert.equal(priceFor('gpt-4.1', { 'gpt-4.1': { input: -1, output: 8 } })?.source, 'default');
  });

  it('prices cached prompt tokens at the cached rate', () => {
    // gpt-4.1: 2.00 input, 0.50 cached, 8.00 output per million
    const { costUsd } = estimateCost('gpt-4.1', { promptTokens: 1_000_000, cachedTokens: 400_000, completionTokens: 100_000 });
    assert.equal(Number(costUsd.toFixed(6)), Number((0.6 * 2 + 0.4 * 0.5 + 0.1 * 8).toFixed(6)));
  });
});

describe('token counting', () => {
  it('counts with a real tokenizer, not characters', () => {
    assert.equal(countTokens(''), 0);
    assert.equal(countTokens('hello world'), 2);
    const code = 'function add(a: number, b: number): number {\n  return a + b;\n}\n';
    const n = countTokens(code);
    assert.ok(n > 10 && n < code.length / 2, `got ${n}`);
  });

  it('counts a long text the same when it is counted again, and another text of the same length apart', () => {
    const line = (i: number) => `const value${i} = compute(${i}, "label ${i}");\n`;
    const text = Array.from({ length: 60 }, (_, i) => line(i)).join('');
    const first = countTokens(text);
    // An equal text built apart, and one of the same length with other words.
    assert.equal(countTokens(Array.from({ length: 60 }, (_, i) => line(i)).join('')), first);
    assert.equal(countTokens(text), first);
    const other = text.replace(/value/g, 'x_y_z');
    assert.equal(other.length, text.length);
    assert.notEqual(countTokens(other), first);
    assert.equal(countTokens(text.slice(0, 100)) + countTokens(text.slice(100)) >= first, true);
  });

  it('adds the chat framing per message', () => {
    const one = countChatTokens([{ role: 'user', content: 'hello world' }]);
    const two = countChatTokens([{ role: 'user', content: 'hello world' }, { role: 'user', content: 'hello world' }]);
    assert.equal(two - one, one - 3);
  });
});

describe('cost ledger', () => {
  it('totals by session, agent and model, with the estimated portion and retries', () => {
    const ledger = new CostLedger();
    ledger.record({ model: 'gpt-4.1', tag: { agent: 'analyst', reviewId: 'r1' }, attempt: 1, usage: usage(1000, 500), usageSource: 'reported', outcome: 'ok' });
    ledger.record({ model: 'deepseek-v3.2', tag: { agent: 'coding', reviewId: 'r1' }, attempt: 1, usage: usage(0, 0), outcome: 'failed' });
    ledger.record({ model: 'deepseek-v3.2', tag: { agent: 'coding', reviewId: 'r1' }, attempt: 2, usage: usage(2000, 1000), usageSource: 'estimated', outcome: 'ok' });
    ledger.record({ model: 'gemini-2.5-flash', tag: { agent: 'security', reviewId: 'r2' }, attempt: 1, usage: usage(100, 100), reportedCostUsd: 0.5, outcome: 'ok' });
    const t = ledger.totals();
    const gpt = (1000 * 2 + 500 * 8) / 1e6;
    // deepseek-v3.2 at the catalogue's price (@pydantic/genai-prices: 0.2288 in / 0.3432 out; the old table said 0.28 / 0.42).
    const ds = (2000 * 0.2288 + 1000 * 0.3432) / 1e6;
    assert.equal(t.session.costUsd.toFixed(9), (gpt + ds + 0.5).toFixed(9));
    assert.equal(t.session.estimatedUsd.toFixed(9), ds.toFixed(9));
    assert.equal(t.session.requests, 3);
    assert.equal(t.session.retries, 1);
    assert.equal(t.byAgent.coding?.retries, 1);
    assert.equal(t.byModel['gemini-2.5-flash']?.costUsd, 0.5);
    assert.equal(ledger.entries().find((e) => e.model === 'gemini-2.5-flash')?.costSource, 'reported');
    assert.equal(ledger.entries().find((e) => e.attempt === 2)?.costSource, 'estimated');
    assert.equal(ledger.totals({ reviewId: 'r2' }).session.requests, 1);
  });

  it('prices a repeated attempt key once, labels cache hits, notifies and unsubscribes', () => {
    const ledger = new CostLedger();
    const seen: number[] = [];
    const off = ledger.onChange((t) => seen.push(t.session.requests));
    ledger.record({ model: 'gpt-4o', attempt: 1, usage: usage(10, 10), outcome: 'ok', key: 'a' });
    assert.equal(ledger.record({ model: 'gpt-4o', attempt: 1, usage: usage(10, 10), outcome: 'ok', key: 'a' }), undefined);
    const hit = ledger.record({ model: 'gpt-4o', attempt: 1, usage: usage(10, 10), outcome: 'ok', cached: true });
    assert.equal(hit?.costSource, 'cached');
    assert.equal(hit?.costUsd, 0);
    off();
    ledger.reset();
    assert.deepEqual(seen, [1, 1]);
    assert.equal(ledger.entries().length, 0);
  });

  it('counts unknown models as unpriced rather than inventing a price', () => {
    const ledger = new CostLedger();
    ledger.record({ model: 'mystery-1', attempt: 1, usage: usage(10, 10), outcome: 'ok' });
    assert.equal(ledger.totals().session.unpriced, 1);
    assert.equal(ledger.totals().session.costUsd, 0);
  });
});

describe('price lookup: exact ids first', () => {
  it('an override of gpt-4.1 does not reprice gpt-4.1-mini or gpt-4o-mini (exact ids in either table win)', () => {
    const overrides = { 'gpt-4.1': { input: 9, output: 9 }, 'gpt-4o': { input: 7, output: 7 } };
    assert.equal(priceFor('gpt-4.1-mini', overrides)?.matched, 'gpt-4.1-mini');
    assert.equal(priceFor('gpt-4.1-mini', overrides)?.source, 'default');
    assert.equal(priceFor('gpt-4o-mini', overrides)?.price.input, catalogPrice('gpt-4o-mini')?.input);
    assert.equal(priceFor('gpt-4.1', overrides)?.price.input, 9);
    // A dated variant takes the longest prefix of either table: the override for gpt-4.1 itself, the default for -mini.
    assert.equal(priceFor('gpt-4.1-2025-04-14', overrides)?.source, 'settings');
    assert.equal(priceFor('gpt-4.1-mini-2025-04-14', overrides)?.matched, 'gpt-4.1-mini');
  });
});
