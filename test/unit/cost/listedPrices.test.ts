import { strict as assert } from 'node:assert';
import { CostLedger } from '../../../src/core/cost/ledger';
import { ListedPrices, parseListedPrice } from '../../../src/core/cost/listedPrices';
import { buildModelChoices } from '../../../src/core/cost/modelChoices';
import { costOf, priceFor } from '../../../src/core/cost/prices';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { parseModels } from '../../../src/core/gateway/models';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import { singleTarget } from '../../../src/core/domain/target';
import { parseSettings } from '../../../src/core/settings/parse';
import type { QuorumSettings } from '../../../src/core/settings/schema';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

const openRouter = (prompt: unknown, completion: unknown, extra: object = {}) => ({ id: 'x', pricing: { prompt, completion, request: '0', image: '0', ...extra } });

describe('prices listed by the gateway (/models)', () => {
  describe('reading a listed price', () => {
    it("reads OpenRouter's per-token strings as $ per million tokens, with the cache-read price", () => {
      assert.deepEqual(parseListedPrice(openRouter('0.000003', '0.000015', { input_cache_read: '0.0000003' })), { input: 3, cachedInput: 0.3, output: 15 });
      assert.deepEqual(parseListedPrice(openRouter('0.0000004', '0.0000016')), { input: 0.4, cachedInput: 0.4, output: 1.6 });
      assert.deepEqual(parseListedPrice(openRouter('0', '0')), { input: 0, cachedInput: 0, output: 0 }, 'a free model is free');
    });

    it('reads per-token fields (LiteLLM) and per-million pricing (Together)', () => {
      assert.deepEqual(parseListedPrice({ id: 'x', input_cost_per_token: 2e-6, output_cost_per_token: 8e-6, cache_read_input_token_cost: 5e-7 }), { input: 2, cachedInput: 0.5, output: 8 });
      assert.deepEqual(parseListedPrice({ id: 'x', pricing: { input: 0.88, output: 1.2 } }), { input: 0.88, cachedInput: 0.88, output: 1.2 });
    });

    it('refuses nonsense: negatives (OpenRouter "-1" for routers), NaN, Infinity, hex, huge prices, half a price', () => {
      for (const [p, c] of [['-1', '-1'], ['0.000003', '-0.000001'], ['NaN', '0.000001'], ['Infinity', '0'], ['0x10', '0'], ['', '0'], ['1', '1'], ['0.02', '0.000001'], [null, '0.000001'], [{}, '0']]) {
        assert.equal(parseListedPrice(openRouter(p, c)), undefined, `${JSON.stringify(p)} / ${JSON.stringify(c)}`);
      }
      assert.equal(parseListedPrice({ id: 'x', pricing: { prompt: '0.000001' } }), undefined);
      assert.equal(parseListedPrice({ id: 'x', pricing: { input: 20_000, output: 1 } }), undefined);
      assert.equal(parseListedPrice({ id: 'x', input_cost_per_token: Number.NaN, output_cost_per_token: 1e-6 }), undefined);
      assert.equal(parseListedPrice({ id: 'x' }), undefined);
      assert.equal(parseListedPrice('x'), undefined);
      // A cache price above the input price is not believed: the input price is used for cached tokens.
      assert.deepEqual(parseListedPrice(openRouter('0.000001', '0.000002', { input_cache_read: '0.5' })), { input: 1, cachedInput: 1, output: 2 });
    });

    it('keeps a model whose price is nonsense in the list, without a price', () => {
      const models = parseModels({ data: [openRouter('-1', '-1'), { id: 'y', pricing: { prompt: '0.000001', completion: '0.000002' } }] });
      assert.deepEqual(models, [{ id: 'x' }, { id: 'y', price: { input: 1, cachedInput: 1, output: 2 } }]);
    });
  });

  describe('which price wins', () => {
    const listed = { 'acme/coder-7': { input: 1, cachedInput: 0.5, output: 2 }, 'gpt-4.1': { input: 9, cachedInput: 9, output: 9 }, 'gpt-4.1-2025-04-14': { input: 4, cachedInput: 4, output: 4 } };

    it('prices a model missing from the table at its listed price, labelled as the list', () => {
      assert.deepEqual(priceFor('acme/coder-7', {}, listed), { matched: 'acme/coder-7', price: listed['acme/coder-7'], source: 'listed' });
      assert.equal(priceFor('acme/coder-8', {}, listed), undefined);
    });

    // Issue 30: the gateway's own figures come first, the user's `quorum.prices` on top (before, the table's exact id
    // won over the list: these two tests said `default` for gpt-4.1).
    it("the user's override wins over all; the gateway's listed price wins over the catalogue's, even for a model the catalogue knows", () => {
      assert.deepEqual(priceFor('gpt-4.1', {}, listed), { matched: 'gpt-4.1', price: listed['gpt-4.1'], source: 'listed' });
      assert.equal(priceFor('acme/coder-7', { 'acme/coder-7': { input: 7, output: 7 } }, listed)?.source, 'settings');
      assert.equal(priceFor('gpt-4.1-2025-04-14', { 'gpt-4.1': { input: 3, output: 3 } }, listed)?.source, 'settings');
      assert.equal(priceFor('gpt-4.1', { 'gpt-4.1': { input: 3, output: 3 } }, listed)?.source, 'settings');
      assert.deepEqual(priceFor('gpt-4.1-2025-04-14', {}, listed), { matched: 'gpt-4.1-2025-04-14', price: listed['gpt-4.1-2025-04-14'], source: 'listed' });
      assert.equal(priceFor('gpt-4.1-2025-04-14', {}, {})?.source, 'default');
      // Not listed by this gateway: the catalogue's.
      assert.equal(priceFor('gpt-4.1-mini', {}, listed)?.source, 'default');
    });

    it('Switch Model shows the listed price and says where it comes from', () => {
      const choices = buildModelChoices({ gatewayModels: ['acme/coder-7', 'gpt-4.1', 'gpt-4o'], listedPrices: listed, overrides: {}, current: [] });
      assert.deepEqual(choices.map((c) => [c.id, c.priceSource, c.price?.output]), [['acme/coder-7', 'listed', 2], ['gpt-4.1', 'listed', 9], ['gpt-4o', 'default', 10]]);
    });

    it('the ledger prices an attempt of such a model at the listed price and counts that part', () => {
      const ledger = new CostLedger(() => ({}), () => listed);
      const usage = { promptTokens: 1000, completionTokens: 500, cachedTokens: 200, reasoningTokens: 0 };
      const entry = ledger.record({ model: 'acme/coder-7', attempt: 1, usage, usageSource: 'reported', outcome: 'ok' });
      assert.equal(entry?.pricedBy, 'list');
      assert.equal(entry.costSource, 'usage');
      assert.equal(entry.costUsd, costOf(listed['acme/coder-7'], usage));
      ledger.record({ model: 'gpt-4o', attempt: 1, usage, usageSource: 'reported', outcome: 'ok' });
      const t = ledger.totals().session;
      assert.equal(t.listedUsd, entry.costUsd);
      assert.equal(t.unpriced, 0);
    });
  });

  describe('a review on a model only the gateway prices (loopback gateway)', () => {
    const KEY = 'sk-test-listed-0123456789';
    let tg: TestGateway;
    let gateway: GatewayClient;
    let settings: QuorumSettings;
    before(async () => {
      tg = await startTestGateway({
        apiKey: KEY,
        ttftMs: 1,
        tokensPerSecond: 0,
        models: ['gpt-4.1', 'acme/coder-7', 'acme/router'],
        modelFields: {
          'acme/coder-7': { pricing: { prompt: '0.000001', completion: '0.000002', request: '0' } },
          'acme/router': { pricing: { prompt: '-1', completion: '-1' } },
        },
      });
    });
    after(() => tg.close());
    afterEach(() => gateway.dispose());

    async function review(model: string) {
      settings = parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0 }, review: { verify: 'off' } }).settings;
      const listedPrices = new ListedPrices();
      const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
      gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger, listedPrices });
      const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ledger, listedPrices });
      const target = singleTarget({ file: 'a.ts', language: 'typescript', text: 'const a = 1;\n', startLine: 1, endLine: 1 });
      const options = { language: 'en', agents: ['analyst'], modelOverrides: { analyst: model } };
      tg.requests.length = 0;
      let plan = pipeline.estimate(target, options);
      const unpricedBefore = plan.estimate.costUsd === 0;
      if (await pipeline.learnPrices(plan)) plan = pipeline.estimate(target, options);
      const summary = await pipeline.run(plan, () => undefined);
      return { estimate: plan.estimate, unpricedBefore, summary, ledger, listedPrices };
    }

    it('reads /models once, then estimates and prices the answer at the listed price instead of "price unknown" and $0', async () => {
      const { estimate, unpricedBefore, summary, ledger, listedPrices } = await review('acme/coder-7');
      assert.equal(unpricedBefore, true);
      assert.equal(tg.requests.filter((r) => r.path.endsWith('/models')).length, 1);
      assert.ok(estimate.costUsd > 0, 'the estimate has a price');
      const [entry] = ledger.entries();
      assert.equal(entry?.pricedBy, 'list');
      assert.ok(summary.totals.costUsd > 0);
      assert.equal(summary.totals.costUsd, costOf({ input: 1, cachedInput: 1, output: 2 }, entry.usage));
      assert.deepEqual(listedPrices.for(tg.url)['acme/coder-7'], { input: 1, cachedInput: 1, output: 2 });
    });

    it('does not read /models for models the table prices, and a listed "-1" stays unpriced', async () => {
      await review('gpt-4.1');
      assert.equal(tg.requests.filter((r) => r.path.endsWith('/models')).length, 0);
      const { ledger } = await review('acme/router');
      assert.equal(ledger.entries()[0]?.pricedBy, 'none');
      assert.equal(ledger.totals().session.unpriced, 1);
    });

    it('reviews that start together (eval\'s cases) share one read of /models', async () => {
      settings = parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0 }, review: { verify: 'off' } }).settings;
      const listedPrices = new ListedPrices();
      gateway = createGateway({ settings: () => settings, apiKey: () => KEY, listedPrices });
      const pipeline = new ReviewPipeline({ gateway, settings: () => settings, listedPrices });
      const target = singleTarget({ file: 'a.ts', language: 'typescript', text: 'const a = 1;\n', startLine: 1, endLine: 1 });
      const plan = pipeline.estimate(target, { language: 'en', agents: ['analyst'], modelOverrides: { analyst: 'acme/coder-7' } });
      tg.requests.length = 0;
      assert.deepEqual(await Promise.all([1, 2, 3].map(() => pipeline.learnPrices(plan))), [true, true, true]);
      assert.equal(tg.requests.filter((r) => r.path.endsWith('/models')).length, 1);
      assert.equal(await pipeline.learnPrices(plan), false, 'read a moment ago: not again');
      assert.deepEqual(listedPrices.for(tg.url)['acme/coder-7'], { input: 1, cachedInput: 1, output: 2 });
    });
  });
});
