import { strict as assert } from 'node:assert';
import { priceAttempt } from '../../../src/core/cost/pricing';
import { addUsage, cleanUsage, sumUsage, ZERO_USAGE } from '../../../src/core/domain/usage';

describe('usage and the one price of an attempt', () => {
  it('cleans what a gateway reported: whole, non-negative, cached within prompt, reasoning within completion', () => {
    assert.deepEqual(cleanUsage({ promptTokens: 10.7, completionTokens: -3, cachedTokens: 40, reasoningTokens: 5 }), {
      promptTokens: 10,
      completionTokens: 0,
      cachedTokens: 10,
      reasoningTokens: 0,
    });
    assert.deepEqual(cleanUsage(undefined), ZERO_USAGE);
    assert.ok(Object.isFrozen(ZERO_USAGE));
  });

  it('sums usages, and adds reasoning tokens only into totals that count them', () => {
    const a = { promptTokens: 1, completionTokens: 2, cachedTokens: 0, reasoningTokens: 1 };
    const b = { promptTokens: 10, completionTokens: 20, cachedTokens: 5, reasoningTokens: 3 };
    assert.deepEqual(sumUsage([a, b]), { promptTokens: 11, completionTokens: 22, cachedTokens: 5, reasoningTokens: 4 });
    const totals = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0 };
    addUsage(totals, b);
    assert.deepEqual(totals, { promptTokens: 10, completionTokens: 20, cachedTokens: 5, requests: 0 });
  });

  it('prices one attempt: cache hit free, gateway cost believed, else the table, else nothing known', () => {
    const usage = { promptTokens: 1_000_000, completionTokens: 1_000_000, cachedTokens: 0, reasoningTokens: 0 };
    assert.deepEqual(priceAttempt({ model: 'gpt-4.1', usage, cached: true }, {}), { costUsd: 0, costSource: 'cached', pricedBy: 'table' });
    assert.deepEqual(priceAttempt({ model: 'gpt-4.1', usage, reportedCostUsd: 0.5 }, {}), { costUsd: 0.5, costSource: 'reported', pricedBy: 'gateway' });
    assert.equal(priceAttempt({ model: 'gpt-4.1', usage, usageSource: 'estimated' }, {}).costUsd, 10);
    assert.equal(priceAttempt({ model: 'gpt-4.1', usage }, { 'gpt-4.1': { input: 1, output: 1 } }).costUsd, 2);
    assert.deepEqual(priceAttempt({ model: 'no-such-model', usage }, {}), { costUsd: 0, costSource: 'usage', pricedBy: 'none' });
  });

  it('labels what happened: gateway cost "reported", table × reported tokens "usage", nothing used "none"', () => {
    const usage = { promptTokens: 100, completionTokens: 10, cachedTokens: 0, reasoningTokens: 0 };
    const zero = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
    assert.equal(priceAttempt({ model: 'gpt-4.1', usage, usageSource: 'reported' }, {}).costSource, 'usage');
    assert.equal(priceAttempt({ model: 'gpt-4.1', usage, usageSource: 'reported', reportedCostUsd: 0.001 }, {}).costSource, 'reported');
    assert.equal(priceAttempt({ model: 'gpt-4.1', usage: zero, usageSource: 'reported' }, {}).costSource, 'none');
  });
});
