import { strict as assert } from 'node:assert';
import { buildModelChoices, priceLabel } from '../../../src/core/cost/modelChoices';

describe('model choices', () => {
  it('lists the gateway models with prices from the table and marks the current one', () => {
    const choices = buildModelChoices({ gatewayModels: ['gpt-4.1', 'mystery-1', 'deepseek-v3.2'], overrides: {}, current: ['deepseek-v3.2'] });
    assert.deepEqual(choices.map((c) => c.id), ['deepseek-v3.2', 'gpt-4.1', 'mystery-1']);
    assert.equal(choices[0]?.current, true);
    assert.deepEqual(choices.find((c) => c.id === 'gpt-4.1')?.price, { input: 2, cachedInput: 0.5, output: 8 });
    assert.equal(choices.find((c) => c.id === 'mystery-1')?.price, undefined);
    assert.ok(choices.every((c) => c.listed));
  });

  it('keeps the current model even when the gateway does not list it', () => {
    const choices = buildModelChoices({ gatewayModels: ['gpt-4.1'], overrides: {}, current: ['my-own-model'] });
    const mine = choices.find((c) => c.id === 'my-own-model');
    assert.equal(mine?.listed, false);
    assert.equal(mine?.current, true);
  });

  it('falls back to the price table and the overrides when /models failed', () => {
    const choices = buildModelChoices({ gatewayModels: undefined, overrides: { 'team-model': { input: 1, output: 2 } }, current: ['gpt-4.1'] });
    const ids = choices.map((c) => c.id);
    for (const id of ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2', 'team-model']) assert.ok(ids.includes(id), id);
    assert.deepEqual(choices.find((c) => c.id === 'team-model')?.price, { input: 1, cachedInput: 1, output: 2 });
  });

  it('puts suggestions for an unknown model first', () => {
    const choices = buildModelChoices({ gatewayModels: ['gpt-4.1', 'gpt-4o'], overrides: {}, current: ['gpt-4.2'], suggestions: ['gpt-4.1'] });
    assert.equal(choices[0]?.id, 'gpt-4.1');
    assert.equal(choices[0]?.suggested, true);
  });

  it('formats prices per million tokens', () => {
    assert.equal(priceLabel({ input: 2, cachedInput: 0.5, output: 8 }), '$2.00 in · $8.00 out / MTok');
    assert.equal(priceLabel({ input: 0.028, cachedInput: 0.028, output: 0.42 }), '$0.028 in · $0.42 out / MTok');
    assert.equal(priceLabel(undefined), undefined);
  });
});
