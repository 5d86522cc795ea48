import { strict as assert } from 'node:assert';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from '../../../src/core/cost/contextWindows';
import { catalogEntry, catalogPrice } from '../../../src/core/cost/catalog';
import { CostLedger } from '../../../src/core/cost/ledger';
import { ListedPrices } from '../../../src/core/cost/listedPrices';
import { costOf, priceFor } from '../../../src/core/cost/prices';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { parseModels } from '../../../src/core/gateway/models';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import { singleTarget } from '../../../src/core/domain/target';
import { parseSettings } from '../../../src/core/settings/parse';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

/**
 * Issue 30, item 6: prices and context windows from the bundled catalogue (@pydantic/genai-prices), the gateway's
 * own figures first, `quorum.prices` on top.
 */
describe('the price and context-window catalogue', () => {
  it('prices the OpenAI reasoning models the old table did not know: gpt-5, o3, o4-mini', () => {
    // OpenAI's list prices (https://openai.com/api/pricing), as the catalogue has them.
    assert.deepEqual(catalogPrice('gpt-5'), { input: 1.25, cachedInput: 0.125, output: 10 });
    assert.deepEqual(catalogPrice('o3'), { input: 2, cachedInput: 0.5, output: 8 });
    assert.deepEqual(catalogPrice('o4-mini'), { input: 1.1, cachedInput: 0.275, output: 4.4 });
    for (const m of ['gpt-5', 'o3', 'o4-mini']) assert.equal(priceFor(m)?.source, 'default', m);
  });

  it('reads the spellings gateways use: provider prefixes, dates, -latest, other cases', () => {
    const gpt5 = catalogPrice('gpt-5');
    assert.deepEqual(catalogPrice('openai/gpt-5'), gpt5);
    assert.deepEqual(catalogPrice('OpenAI/GPT-5'), gpt5);
    assert.deepEqual(catalogPrice('gpt-5-2025-08-07'), gpt5);
    const sonnet = catalogEntry('claude-sonnet-4.5');
    assert.equal(sonnet?.matched, 'claude-sonnet-4-5');
    assert.deepEqual(sonnet.price, { input: 3, cachedInput: 0.3, output: 15 }, 'the base tier of a tiered price');
    for (const spelling of ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5@20250929']) {
      assert.equal(catalogEntry(spelling)?.matched, 'claude-sonnet-4-5', spelling);
    }
    assert.equal(catalogEntry('gpt-4o-latest')?.matched, 'gpt-4o');
    assert.equal(catalogEntry('google/gemini-2.5-flash')?.matched, 'gemini-2.5-flash');
    assert.equal(priceFor('openai/o4-mini-2025-04-16')?.matched, 'o4-mini');
    // The longest, most specific model: -mini is not priced as gpt-4.1.
    assert.equal(catalogEntry('openai/gpt-4.1-mini-2025-04-14')?.matched, 'gpt-4.1-mini');
  });

  it('knows nothing of an unknown model, an empty id or a huge one', () => {
    assert.equal(catalogEntry('acme-local-7b'), undefined);
    assert.equal(priceFor('acme/acme-local-7b'), undefined);
    assert.equal(catalogEntry(''), undefined);
    assert.equal(catalogEntry('x'.repeat(301)), undefined);
    assert.equal(contextWindowFor('acme-local-7b'), DEFAULT_CONTEXT_WINDOW);
  });

  it('gives context windows from the catalogue, the gateway\'s own figure first', () => {
    assert.equal(contextWindowFor('gpt-5'), 400_000);
    assert.equal(contextWindowFor('openai/gpt-5'), 400_000);
    assert.equal(contextWindowFor('o3'), 200_000);
    assert.equal(contextWindowFor('gpt-5', { 'gpt-5': 64_000 }), 64_000);
    assert.equal(contextWindowFor('qwen2.5-coder:7b', { 'qwen2.5-coder:7b': 32_768 }), 32_768);
    assert.equal(contextWindowFor('gpt-5', { 'gpt-5': 0 }), 400_000, 'a nonsense listed window is ignored');
  });

  it('the gateway\'s price first, the user\'s on top of everything, an OpenRouter "-1" no price at all', () => {
    const [listedGpt5, router] = parseModels({
      data: [
        // OpenRouter's /models: US dollars per token as strings (https://openrouter.ai/docs/api-reference/list-available-models).
        { id: 'openai/gpt-5', context_length: 400000, pricing: { prompt: '0.0000015', completion: '0.000012', input_cache_read: '0.00000015' } },
        { id: 'openrouter/auto', context_length: 2000000, pricing: { prompt: '-1', completion: '-1' } },
      ],
    }) ?? [];
    assert.deepEqual(listedGpt5?.price, { input: 1.5, cachedInput: 0.15, output: 12 });
    assert.equal(router?.price, undefined);
    assert.ok(router);
    const listed = new ListedPrices();
    listed.learn('https://openrouter.ai/api/v1', [listedGpt5, router]);
    const table = listed.for('https://openrouter.ai/api/v1');
    assert.deepEqual(priceFor('openai/gpt-5', {}, table), { matched: 'openai/gpt-5', price: { input: 1.5, cachedInput: 0.15, output: 12 }, source: 'listed' });
    assert.equal(priceFor('openai/gpt-5', { 'openai/gpt-5': { input: 1, output: 2 } }, table)?.source, 'settings');
    assert.equal(priceFor('openai/gpt-5', { 'gpt-5': { input: 1, output: 2 } }, table)?.source, 'settings', 'the user\'s price of the bare id covers the prefixed one');
    assert.equal(priceFor('openrouter/auto', {}, table), undefined, '"-1": unknown, not free');
    assert.equal(listed.windowsFor('https://openrouter.ai/api/v1')['openrouter/auto'], 2_000_000);
  });

  it('reads vLLM\'s max_model_len and llama.cpp\'s meta.n_ctx (then n_ctx_train) from /models', () => {
    const models = parseModels({
      object: 'list',
      data: [
        // vLLM: ModelCard with max_model_len (vllm/entrypoints/openai/protocol.py).
        { id: 'Qwen/Qwen2.5-Coder-7B-Instruct', object: 'model', owned_by: 'vllm', max_model_len: 32768 },
        // llama.cpp server: `meta` from model_meta() (ggml-org/llama.cpp tools/server).
        { id: 'qwen2.5-coder-7b-q4_k_m.gguf', object: 'model', owned_by: 'llamacpp', meta: { vocab_type: 2, n_vocab: 152064, n_ctx: 8192, n_ctx_train: 32768 } },
        { id: 'other.gguf', object: 'model', owned_by: 'llamacpp', meta: { n_ctx_train: 16384 } },
      ],
    });
    assert.deepEqual(models?.map((m) => m.contextWindow), [32768, 8192, 16384]);
  });

  it('prices reasoning tokens as output: they are part of the completion tokens', () => {
    const price = catalogPrice('o3');
    assert.ok(price);
    const usage = { promptTokens: 1000, completionTokens: 3000, cachedTokens: 0, reasoningTokens: 2500 };
    const ledger = new CostLedger();
    const entry = ledger.record({ model: 'o3', attempt: 1, usage, usageSource: 'reported', outcome: 'ok' });
    assert.equal(entry?.costUsd, costOf(price, usage));
    assert.equal(entry.costUsd, (1000 * 2 + 3000 * 8) / 1e6);
  });

  describe('LiteLLM: prices and context windows from /model/info (loopback gateway)', () => {
    const KEY = 'sk-test-litellm-0123456789';
    let tg: TestGateway;
    let gateway: GatewayClient | undefined;
    before(async () => {
      // LiteLLM's /v1/models lists bare ids; /model/info has the figures (docs.litellm.ai/docs/proxy/model_management,
      // the answer's shape as in BerriAI/litellm#16878).
      tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, models: ['team-gpt', 'team-claude', 'gpt-4.1'], modelFields: { 'gpt-4.1': { pricing: { prompt: '0.000004', completion: '0.000004' } } } });
      const info = {
        data: [
          { model_name: 'team-gpt', litellm_params: { model: 'azure/gpt-4o-eu' }, model_info: { id: 'a1', max_input_tokens: 128000, max_output_tokens: 16384, input_cost_per_token: 2.5e-6, output_cost_per_token: 1e-5, cache_read_input_token_cost: 1.25e-6 } },
          { model_name: 'team-claude', litellm_params: { model: 'anthropic/claude-sonnet-4-5' }, model_info: { id: 'b2', max_input_tokens: 200000, input_cost_per_token: null, output_cost_per_token: null } },
          { model_name: 'gpt-4.1', litellm_params: { model: 'openai/gpt-4.1' }, model_info: { id: 'c3', max_input_tokens: 1047576, input_cost_per_token: 2e-6, output_cost_per_token: 8e-6 } },
          { litellm_params: { model: 'no-name' } },
        ],
      };
      tg.script((rec) => (rec.path.endsWith('/model/info') ? { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(info) } : undefined));
    });
    after(() => tg.close());
    afterEach(() => gateway?.dispose());

    it('adds what /models lacks, keeps what /models says, and prices at it', async () => {
      const settings = parseSettings({ gateway: { baseUrl: tg.url } }).settings;
      const listedPrices = new ListedPrices();
      gateway = createGateway({ settings: () => settings, apiKey: () => KEY, listedPrices });
      const models = await gateway.listModels();
      assert.deepEqual(models.map((m) => [m.id, m.price, m.contextWindow]), [
        ['team-gpt', { input: 2.5, cachedInput: 1.25, output: 10 }, 128000],
        ['team-claude', undefined, 200000],
        ['gpt-4.1', { input: 4, cachedInput: 4, output: 4 }, 1047576],
      ]);
      assert.equal(tg.requests.filter((r) => r.path.endsWith('/model/info')).length, 1);
      const table = listedPrices.for(tg.url);
      assert.deepEqual(priceFor('team-gpt', {}, table), { matched: 'team-gpt', price: { input: 2.5, cachedInput: 1.25, output: 10 }, source: 'listed' });
      assert.equal(priceFor('team-claude', {}, table), undefined, 'a null price is no price');
      assert.equal(contextWindowFor('team-claude', listedPrices.windowsFor(tg.url)), 200000);
    });
  });

  describe('a review against a local server that lists its own context window (loopback gateway)', () => {
    const KEY = 'sk-test-catalog-0123456789';
    let tg: TestGateway;
    let gateway: GatewayClient;
    before(async () => {
      tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, models: ['local-coder'], modelFields: { 'local-coder': { max_model_len: 4096 } } });
    });
    after(() => tg.close());
    afterEach(() => gateway.dispose());

    it('reads /models once for the unpriced model and refuses a prompt over the window the server listed, before sending it', async () => {
      const settings = parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0 }, review: { verify: 'off', maxOutputTokens: 4000 } }).settings;
      const listedPrices = new ListedPrices();
      gateway = createGateway({ settings: () => settings, apiKey: () => KEY, listedPrices });
      const pipeline = new ReviewPipeline({ gateway, settings: () => settings, listedPrices });
      const target = singleTarget({ file: 'a.ts', language: 'typescript', text: 'const a = 1;\n'.repeat(40), startLine: 1, endLine: 40 });
      const options = { language: 'en', agents: ['analyst'], modelOverrides: { analyst: 'local-coder' } };
      let plan = pipeline.estimate(target, options);
      assert.equal(plan.estimate.perAgent.analyst?.contextWindow, DEFAULT_CONTEXT_WINDOW);
      assert.equal(await pipeline.learnPrices(plan), true);
      plan = pipeline.estimate(target, options);
      assert.equal(plan.estimate.perAgent.analyst?.contextWindow, 4096);
      assert.ok(plan.estimate.perAgent.analyst.tooLarge);
      const summary = await pipeline.run(plan, () => undefined);
      assert.equal(summary.agents[0]?.error?.code, 'too-large');
      assert.match(summary.agents[0].error.message, /4096-token context window of local-coder/);
      assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0);
    });
  });
});
