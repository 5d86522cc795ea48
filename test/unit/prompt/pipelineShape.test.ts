import { strict as assert } from 'node:assert';
import { CostLedger } from '../../../src/core/cost/ledger';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import type { PromptShape } from '../../../src/core/prompt/shape';
import { ReviewCache } from '../../../src/core/pipeline/cache';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import { type ReviewTarget, singleTarget } from '../../../src/core/domain/target';
import { parseSettings } from '../../../src/core/settings/parse';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { reviewThrough } from '../../fixtures/review';

const KEY = 'sk-test-shape-0123456789';
const target: ReviewTarget = singleTarget({ file: 'src/a.ts', language: 'typescript', text: 'const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";\nexport {};', startLine: 1, endLine: 2 });
const shape = (body: string, extra: Partial<PromptShape> = {}): PromptShape => ({
  rules: [{ path: '.quorum/instructions.md', scope: { kind: 'all' }, body, tokens: 5, specificity: 1 }],
  files: ['src/a.ts'],
  maxRuleTokens: 4000,
  redacted: false,
  projectAgents: [],
  ...extra,
});

describe('the pipeline with the prompt-shaping step', () => {
  let tg: TestGateway;
  let gateway: GatewayClient;
  const settings = () => parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0 } }).settings;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
  });
  after(async () => {
    await tg.close();
  });
  beforeEach(() => {
    tg.requests.length = 0;
    tg.script(() => ({ text: '{"findings":[]}' }));
    const s = settings();
    gateway = createGateway({ settings: () => s, apiKey: () => KEY, ledger: new CostLedger(() => s.prices) });
  });
  afterEach(() => gateway.dispose());

  it('never sends a secret: a review goes through the use case, whose shaping step redacts it', async () => {
    const pipeline = new ReviewPipeline({ gateway, settings });
    await reviewThrough(pipeline, target, { language: 'en', agents: ['analyst'] });
    const sent = tg.requests.map((r) => r.raw).join('');
    assert.ok(!sent.includes('ghp_0123456789abcdefghijABCDEFGHIJ012345'));
    assert.match(sent, /\[REDACTED:github-token\]/);
  });

  it('changed rules change the cache key: the same code is asked again, unchanged rules hit the cache', async () => {
    const pipeline = new ReviewPipeline({ gateway, settings, cache: new ReviewCache() });
    const run = (p: PromptShape) => pipeline.run(pipeline.estimate(target, { language: 'en', agents: ['analyst'], prompt: p }), () => undefined);
    await run(shape('Rule one.'));
    await run(shape('Rule one.'));
    assert.equal(tg.requests.length, 1, 'the second review with the same rules came from the cache');
    await run(shape('Rule two.'));
    assert.equal(tg.requests.length, 2, 'new rules, new request');
  });

  it('runs a project agent from the shape and counts its rules in the estimate', () => {
    const pipeline = new ReviewPipeline({ gateway, settings });
    const agent = { id: 'docs', title: 'Docs', systemPrompt: 'Review docs.', model: 'gpt-4.1-mini', fallbackModel: '', dependsOn: [], output: 'findings' as const };
    const without = pipeline.estimate(target, { language: 'en', agents: ['analyst'] }).estimate;
    const withRules = pipeline.estimate(target, { language: 'en', agents: ['analyst', 'docs'], prompt: shape('Long rule. '.repeat(200), { projectAgents: [agent] }) }).estimate;
    assert.ok((withRules.perAgent.analyst?.promptTokens ?? 0) > (without.perAgent.analyst?.promptTokens ?? 0) + 300);
    assert.equal(withRules.perAgent.docs?.model, 'gpt-4.1-mini');
    const preview = pipeline.estimate(target, { language: 'en', agents: ['docs'], prompt: shape('R.', { projectAgents: [agent] }) }).agents;
    assert.match(preview[0]?.messages[0]?.content ?? '', /^Review docs\.\n\nThe repository's maintainers/);
  });
});
