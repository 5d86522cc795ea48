import { strict as assert } from 'node:assert';
import { CostLedger } from '../../../src/core/cost/ledger';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { ReviewCache } from '../../../src/core/pipeline/cache';
import { ReviewConfigError } from '../../../src/core/pipeline/errors';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import { type ReviewTarget, singleTarget } from '../../../src/core/domain/target';
import { likelyOutputTokens, TYPICAL_FINDINGS_TOKENS } from '../../../src/core/pipeline/likelyOutput';
import { countTokens } from '../../../src/core/tokens/count';
import type { ReviewEvent } from '../../../src/core/domain/events';
import type { ReviewOptions } from '../../../src/core/pipeline/options';
import { parseSettings } from '../../../src/core/settings/parse';
import type { QuorumSettings } from '../../../src/core/settings/schema';
import { startTestGateway, type RecordedRequest, type Reply, type TestGateway } from '../../fixtures/gateway/server';
import { reviewThrough } from '../../fixtures/review';

const KEY = 'sk-test-pipeline-0123456789';

const target: ReviewTarget = singleTarget({
  file: 'src/users.ts',
  language: 'typescript',
  text: [
    'export async function findUser(db: Db, name: string) {',
    '  const rows = await db.query(`SELECT * FROM users WHERE name = \'${name}\'`);',
    '  return rows[0];',
    '}',
  ].join('\n'),
  startLine: 20,
  endLine: 23,
});

const findings = (...list: object[]) => JSON.stringify({ findings: list });
const sqli = { severity: 'critical', title: 'SQL injection in user lookup', explanation: 'name is interpolated.', startLine: 21, endLine: 21, cwe: 'CWE-89', confidence: 0.6, suggestion: "  const rows = await db.query('SELECT * FROM users WHERE name = ?', [name]);" };
const improved = JSON.stringify({ rationale: 'Parameterised the query.', improvedCode: 'export async function findUser(db: Db, name: string) {\n  const rows = await db.query(\'SELECT * FROM users WHERE name = ?\', [name]);\n  return rows[0];\n}' });

/** Replies by model, the way the built-in agents are mapped to models by default. */
const REPLIES: Record<string, Reply> = {
  'gpt-4.1': { text: findings({ ...sqli, title: 'SQL injection in the user lookup query', severity: 'high', confidence: 0.5 }, { severity: 'low', title: 'Returns undefined for no match', explanation: 'rows[0] may be undefined.', startLine: 22, endLine: 22 }) },
  'claude-sonnet-4.5': { text: findings({ severity: 'medium', title: 'Data access mixed with lookup logic', explanation: 'Hard to test.', startLine: 20, endLine: 23, confidence: 0.5 }) },
  'gemini-2.5-flash': { text: findings(sqli) },
  'deepseek-v3.2': { text: improved },
};

function userPrompt(r: RecordedRequest | undefined): string {
  const messages = (r?.body?.messages ?? []) as { role: string; content: string }[];
  return messages.find((m) => m.role === 'user')?.content ?? '';
}
function systemPrompt(r: RecordedRequest | undefined): string {
  const messages = (r?.body?.messages ?? []) as { role: string; content: string }[];
  return messages.find((m) => m.role === 'system')?.content ?? '';
}

/** Reviews `t` with `options` through the use case (runReview), which plans and runs it with `pipeline`: what every face does. */
const review = (pipeline: ReviewPipeline, t: ReviewTarget, options: Omit<ReviewOptions, 'prompt'>, onEvent: (e: ReviewEvent) => void) => reviewThrough(pipeline, t, options, onEvent);

describe('review pipeline, and the review use case on it (against the loopback test gateway)', () => {
  let tg: TestGateway;
  let gateway: GatewayClient;
  let ledger: CostLedger;
  let raw: Record<string, unknown>;
  let settings: QuorumSettings;

  const make = (extra: { cache?: ReviewCache; now?: () => number } = {}) =>
    new ReviewPipeline({ gateway, settings: () => settings, ledger, ...extra });

  async function run(pipeline: ReviewPipeline, options: Partial<ReviewOptions> = {}) {
    const events: ReviewEvent[] = [];
    const summary = await review(pipeline, target, { language: 'en', ...options }, (e) => events.push(e));
    return { events, summary };
  }

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 5, tokensPerSecond: 0 });
  });
  after(async () => {
    await tg.close();
  });
  beforeEach(() => {
    tg.requests.length = 0;
    tg.script((req) => (req.model ? REPLIES[req.model] : undefined));
    // The DAG of reviewers; the verification step has its own tests (test/unit/cli/verify.test.ts).
    raw = { gateway: { baseUrl: tg.url }, limits: { maxRetries: 0, maxConcurrent: 8 }, review: { verify: 'off' } };
    settings = parseSettings(raw).settings;
    ledger = new CostLedger(() => settings.prices);
    gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger, tuning: { backoffBaseMs: 1, backoffMaxMs: 5, rateLimitDefaultWaitMs: 5, coolDownJitterMs: 0 } });
  });
  afterEach(() => gateway.dispose());

  it('starts the three reviewers together and the coding agent after them, with their findings', async () => {
    const { events, summary } = await run(make());
    const idx = (type: string, agent: string) => events.findIndex((e) => e.type === type && 'agent' in e && e.agent === agent);
    const firstDone = events.findIndex((e) => e.type === 'done');
    for (const a of ['analyst', 'architecture', 'security']) assert.ok(idx('started', a) < firstDone, `${a} started before any agent finished`);
    for (const a of ['analyst', 'architecture', 'security']) assert.ok(idx('done', a) < idx('started', 'coding'), `coding waited for ${a}`);
    assert.deepEqual(events.slice(0, 4).map((e) => e.type), ['queued', 'queued', 'queued', 'queued']);
    assert.equal(events.at(-1)?.type, 'review-done');

    assert.deepEqual(summary.agents.map((a) => [a.agent, a.status]), [['analyst', 'ok'], ['architecture', 'ok'], ['security', 'ok'], ['coding', 'ok']]);
    const coding = tg.requests.find((r) => r.model === 'deepseek-v3.2');
    assert.match(userPrompt(coding), /### Security \(security\)[\s\S]*"cwe": "CWE-89"/);
    assert.match(userPrompt(coding), /Returns undefined for no match/);
    assert.match(userPrompt(coding), /21 \| {3}const rows = await db\.query/);
    const codingResult = summary.agents.find((a) => a.agent === 'coding');
    assert.match(codingResult?.improvedCode ?? '', /^export async function findUser[\s\S]*\[name\]\);\n {2}return rows\[0\];\n\}$/);
    assert.equal(codingResult?.rationale, 'Parameterised the query.');
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 4);
  });

  it('merges the same issue from two agents and totals usage and cost from the gateway', async () => {
    const before = tg.servedTotals();
    const { summary, events } = await run(make());
    const merged = summary.findings.filter((f) => /SQL injection/.test(f.title));
    assert.equal(merged.length, 1);
    assert.deepEqual(new Set(merged[0]?.agents), new Set(['analyst', 'security']));
    assert.equal(merged[0]?.severity, 'critical');
    assert.equal(merged[0].confidence, 0.8);
    assert.equal(summary.findings.length, 3);
    assert.equal(events.filter((e) => e.type === 'finding').length, 4, 'every agent finding is announced');
    const served = tg.servedTotals();
    assert.equal(summary.totals.promptTokens, served.promptTokens - before.promptTokens);
    assert.equal(summary.totals.completionTokens, served.completionTokens - before.completionTokens);
    assert.equal(summary.totals.requests, 4);
    assert.equal(summary.totals.retries, 0);
    assert.ok(summary.totals.costUsd > 0);
    const sum = summary.agents.reduce((n, a) => n + a.costUsd, 0);
    assert.ok(Math.abs(summary.totals.costUsd - sum) < 1e-9);
    assert.ok(Math.abs(ledger.totals().session.costUsd - summary.totals.costUsd) < 1e-9, 'the ledger saw the same spend');
  });

  it('says when an agent is being retried, before its text streams', async () => {
    settings = parseSettings({ ...raw, limits: { maxRetries: 1, maxConcurrent: 8 } }).settings;
    let failedOnce = false;
    tg.script((req) => {
      if (req.model === 'gpt-4.1' && !failedOnce) {
        failedOnce = true;
        return { kind: 'error', status: 503, message: 'overloaded' };
      }
      return req.model ? REPLIES[req.model] : undefined;
    });
    const { events, summary } = await run(make());
    const analyst = events.filter((e) => 'agent' in e && e.agent === 'analyst').map((e) => e.type);
    assert.ok(analyst.indexOf('retrying') > analyst.indexOf('started') && analyst.indexOf('retrying') < analyst.indexOf('delta'), analyst.join(' '));
    const retry = events.find((e) => e.type === 'retrying');
    assert.deepEqual(retry && { ...retry, reviewId: undefined, waitMs: undefined }, { type: 'retrying', reviewId: undefined, agent: 'analyst', attempt: 2, model: 'gpt-4.1', code: 'server', reason: 'retry', waitMs: undefined });
    // It also says how long the client waits first (the backoff: 1–2 ms with this test's tuning).
    assert.ok(retry?.type === 'retrying' && retry.waitMs !== undefined && retry.waitMs >= 1 && retry.waitMs <= 5, JSON.stringify(retry));
    assert.equal(summary.agents.find((a) => a.agent === 'analyst')?.status, 'ok');
    assert.equal(events.filter((e) => e.type === 'retrying').length, 1, 'only the retried agent says so');
  });

  it('runs the coding agent with what it has when one input fails', async () => {
    tg.script((req) => (req.model === 'gemini-2.5-flash' ? { kind: 'error', status: 500, message: 'upstream exploded' } : req.model ? REPLIES[req.model] : undefined));
    const { events, summary } = await run(make());
    const security = summary.agents.find((a) => a.agent === 'security');
    assert.equal(security?.status, 'error');
    assert.equal(security.error?.code, 'server');
    assert.ok(events.some((e) => e.type === 'failed' && e.agent === 'security'));
    const coding = summary.agents.find((a) => a.agent === 'coding');
    assert.equal(coding?.status, 'ok');
    assert.match(userPrompt(tg.requests.find((r) => r.model === 'deepseek-v3.2')), /### Security \(security\)\nThis review did not finish \(error\)/);
    assert.equal(summary.cancelled, false);
  });

  it('does not run the coding agent when every input failed, and treats an empty answer as an error', async () => {
    tg.script((req) => {
      if (req.model === 'gpt-4.1') return { text: '' , finishReason: 'content_filter' };
      if (req.model === 'deepseek-v3.2') return REPLIES['deepseek-v3.2'];
      return { kind: 'error', status: 403, message: 'no' };
    });
    const { summary } = await run(make());
    const byId = Object.fromEntries(summary.agents.map((a) => [a.agent, a]));
    assert.equal(byId.analyst?.status, 'error');
    assert.equal(byId.analyst.error?.code, 'empty-answer');
    assert.match(byId.analyst.error.message, /content_filter/);
    assert.ok(byId.analyst.usage.promptTokens > 0, 'what the empty answer cost is kept');
    assert.equal(byId.coding?.status, 'error');
    assert.equal(byId.coding.error?.code, 'inputs-failed');
    assert.match(byId.coding.error.message, /analyst: empty-answer, architecture: forbidden, security: forbidden/);
    assert.equal(tg.requests.filter((r) => r.model === 'deepseek-v3.2').length, 0);
  });

  it('names the configured model that answered: the fallback when used, never a gateway\'s snapshot name', async () => {
    raw.agents = { analyst: { fallbackModel: 'gpt-4o' } };
    settings = parseSettings(raw).settings;
    tg.script((req) => {
      if (req.model === 'gpt-4.1') return { kind: 'error', status: 403, message: 'not for you' };
      if (req.model === 'gpt-4o') return { text: findings(sqli), model: 'gpt-4o-2024-08-06' };
      if (req.model === 'gemini-2.5-flash') return { text: findings(sqli), model: 'models/gemini-2.5-flash-001' };
      return undefined;
    });
    const { summary } = await run(make(), { agents: ['analyst', 'security'] });
    assert.deepEqual(summary.agents.map((a) => [a.agent, a.status, a.model, a.attempts]), [['analyst', 'ok', 'gpt-4o', 2], ['security', 'ok', 'gemini-2.5-flash', 1]]);
    assert.equal(summary.totals.retries, 1);
  });

  it('cancels everything with one signal, mid-stream, and still resolves with what finished', async () => {
    tg.script((req) => {
      if (req.model === 'gemini-2.5-flash') return REPLIES['gemini-2.5-flash'];
      if (req.model === 'gpt-4.1') return { text: findings(sqli), stallAfterTokens: 3 };
      if (req.model === 'claude-sonnet-4.5') return { kind: 'hang' };
      return req.model ? REPLIES[req.model] : undefined;
    });
    const controller = new AbortController();
    const events: ReviewEvent[] = [];
    let securityDone = false;
    let analystStreamed = false;
    const summary = await review(make(), target, { language: 'en', signal: controller.signal }, (e) => {
      events.push(e);
      if (e.type === 'done' && e.agent === 'security') securityDone = true;
      if (e.type === 'delta' && e.agent === 'analyst') analystStreamed = true;
      if (securityDone && analystStreamed && !controller.signal.aborted) controller.abort();
    });
    assert.equal(summary.cancelled, true);
    const status = Object.fromEntries(summary.agents.map((a) => [a.agent, a.status]));
    assert.deepEqual(status, { analyst: 'cancelled', architecture: 'cancelled', security: 'ok', coding: 'cancelled' });
    assert.ok(!events.some((e) => e.type === 'started' && e.agent === 'coding'), 'coding never started');
    assert.ok((summary.agents.find((a) => a.agent === 'analyst')?.text.length ?? 0) > 0, 'the partial text is kept');
    assert.equal(events.filter((e) => e.type === 'cancelled').length, 3);
    assert.equal(tg.requests.filter((r) => r.model === 'deepseek-v3.2').length, 0);
  });

  it('prices a cancelled review once: its results, its totals and the ledger (status bar, Show Cost) say the same, the estimate labelled', async () => {
    tg.script((req) => {
      if (req.model === 'gemini-2.5-flash') return REPLIES['gemini-2.5-flash'];
      if (req.model === 'gpt-4.1') return { text: findings(sqli), stallAfterTokens: 3 };
      if (req.model === 'claude-sonnet-4.5') return { text: findings(sqli), stallAfterTokens: 5 };
      return req.model ? REPLIES[req.model] : undefined;
    });
    const controller = new AbortController();
    const streamed = new Set<string>();
    let securityDone = false;
    const summary = await review(make(), target, { language: 'en', signal: controller.signal }, (e) => {
      if (e.type === 'done' && e.agent === 'security') securityDone = true;
      if (e.type === 'delta') streamed.add(e.agent);
      if (securityDone && streamed.has('analyst') && streamed.has('architecture') && !controller.signal.aborted) controller.abort();
    });
    assert.equal(summary.cancelled, true);
    const ledgerNow = ledger.totals({ reviewId: summary.reviewId });
    // The closed streams reported no usage: their tokens were counted locally, and that part is labelled.
    const analyst = summary.agents.find((a) => a.agent === 'analyst');
    assert.equal(analyst?.status, 'cancelled');
    assert.equal(analyst.costSource, 'estimated');
    assert.ok(analyst.costUsd > 0, 'a stream that produced tokens is not "nothing billed"');
    for (const a of summary.agents) {
      assert.ok(Math.abs(a.costUsd - (ledgerNow.byAgent[a.agent]?.costUsd ?? 0)) < 1e-12, `${a.agent}: result ${a.costUsd} vs ledger ${ledgerNow.byAgent[a.agent]?.costUsd}`);
    }
    assert.ok(Math.abs(summary.totals.costUsd - ledgerNow.session.costUsd) < 1e-9);
    assert.ok(summary.totals.estimatedUsd > 0);
    assert.ok(Math.abs(summary.totals.estimatedUsd - ledgerNow.session.estimatedUsd) < 1e-9);
    // Nothing is added to the ledger for this review after the summary (the status bar does not move on).
    gateway.dispose();
    await new Promise((r) => setImmediate(r));
    assert.equal(ledger.totals({ reviewId: summary.reviewId }).session.costUsd, ledgerNow.session.costUsd);
  });

  it('rejects a dependency cycle with a ReviewConfigError before sending anything', async () => {
    raw.customAgents = [
      { id: 'one', title: 'One', systemPrompt: 'x', model: 'gpt-4.1', dependsOn: ['two'] },
      { id: 'two', title: 'Two', systemPrompt: 'x', model: 'gpt-4.1', dependsOn: ['one'] },
    ];
    settings = parseSettings(raw).settings;
    await assert.rejects(run(make()), (e: unknown) => e instanceof ReviewConfigError && e.code === 'invalid-agents' && /cycle: (one -> two -> one|two -> one -> two)/.test(e.message));
    assert.throws(() => make().estimate(target, { language: 'en' }), ReviewConfigError);
    assert.equal(tg.requests.length, 0);
  });

  it('rejects unknown agents and bad model overrides', async () => {
    await assert.rejects(run(make(), { agents: ['analyst', 'nobody'] }), (e: unknown) => e instanceof ReviewConfigError && e.code === 'unknown-agent' && /"nobody"/.test(e.message));
    await assert.rejects(run(make(), { modelOverrides: { analyst: 'bad model' } }), (e: unknown) => e instanceof ReviewConfigError && e.code === 'invalid-model');
    await assert.rejects(review(make(), { ...target, regions: target.regions.map((r) => ({ ...r, text: '  \n' })) }, { language: 'en' }, () => undefined), (e: unknown) => e instanceof ReviewConfigError && e.code === 'empty-target');
  });

  it('runs a chosen subset with model overrides and custom agents', async () => {
    raw.customAgents = [{ id: 'docs', title: 'Docs', systemPrompt: 'Review the comments.', model: 'gpt-4.1', dependsOn: ['security'] }];
    settings = parseSettings(raw).settings;
    const { summary } = await run(make(), { agents: ['security', 'docs'], modelOverrides: { security: 'gpt-4.1' } });
    assert.deepEqual(summary.agents.map((a) => [a.agent, a.model]), [['security', 'gpt-4.1'], ['docs', 'gpt-4.1']]);
    assert.deepEqual(tg.requests.map((r) => r.model), ['gpt-4.1', 'gpt-4.1']);
    assert.match(systemPrompt(tg.requests[1]), /^Review the comments\./);
    assert.match(userPrompt(tg.requests[1]), /### Security \(security\)/);
  });

  it('in sequential mode runs one agent at a time, each seeing the ones before', async () => {
    raw.review = { mode: 'sequential', verify: 'off' };
    settings = parseSettings(raw).settings;
    const { summary } = await run(make());
    const chat = tg.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.deepEqual(chat.map((r) => r.model), ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2']);
    assert.doesNotMatch(userPrompt(chat[0]), /Reviews of this code/);
    assert.match(userPrompt(chat[1]), /### Analyst \(analyst\)/);
    assert.match(userPrompt(chat[2]), /### Analyst[\s\S]*### Architecture/);
    assert.equal(summary.agents.every((a) => a.status === 'ok'), true);
  });

  it('serves an identical review from the cache at $0 until the TTL passes; no-cache bypasses it', async () => {
    let now = 1_000_000;
    const cache = new ReviewCache({ now: () => now });
    const pipeline = make({ cache });
    const first = await run(pipeline);
    assert.equal(tg.requests.length, 4);
    const second = await run(pipeline);
    assert.equal(tg.requests.length, 4, 'nothing was sent');
    assert.ok(second.summary.agents.every((a) => a.cached && a.costSource === 'cached' && a.costUsd === 0));
    assert.equal(second.summary.totals.costUsd, 0);
    assert.equal(second.summary.totals.requests, 0);
    assert.deepEqual(second.summary.findings, first.summary.findings);
    assert.equal(second.summary.agents.find((a) => a.agent === 'coding')?.improvedCode, first.summary.agents.find((a) => a.agent === 'coding')?.improvedCode);
    assert.ok(second.events.some((e) => e.type === 'delta'), 'a cached answer is still shown as text');

    await run(pipeline, { noCache: true });
    assert.equal(tg.requests.length, 8);
    await run(pipeline, { language: 'ko' });
    assert.equal(tg.requests.length, 12, 'another language is another review');

    now += 10 * 60_000;
    await run(pipeline);
    assert.equal(tg.requests.length, 16, 'expired after the 10-minute TTL');
  });

  it('does not cache failures', async () => {
    const cache = new ReviewCache();
    tg.script((req) => (req.model === 'gpt-4.1' ? { kind: 'error', status: 503 } : req.model ? REPLIES[req.model] : undefined));
    await run(make({ cache }), { agents: ['analyst'] });
    tg.script((req) => (req.model ? REPLIES[req.model] : undefined));
    const { summary } = await run(make({ cache }), { agents: ['analyst'] });
    assert.equal(summary.agents[0]?.status, 'ok');
    assert.equal(summary.agents[0].cached, false);
  });

  it('keeps an unparsable answer as text, clamps lines outside the range, and asks for JSON', async () => {
    tg.script((req) => {
      if (req.model === 'gpt-4.1') return { text: 'Looks fine to me, nothing to report.' };
      if (req.model === 'gemini-2.5-flash') return { text: findings({ ...sqli, startLine: 2, endLine: 40 }) };
      return req.model ? REPLIES[req.model] : undefined;
    });
    const { summary } = await run(make(), { agents: ['analyst', 'security'] });
    const analyst = summary.agents.find((a) => a.agent === 'analyst');
    assert.equal(analyst?.status, 'ok');
    assert.equal(analyst.unparsed, true);
    assert.equal(analyst.text, 'Looks fine to me, nothing to report.');
    const f = summary.findings[0];
    assert.deepEqual([f?.startLine, f?.endLine, f?.clamped, f?.suggestion], [20, 23, true, undefined]);
    assert.deepEqual(tg.requests[0]?.body?.response_format, { type: 'json_object' });
  });

  it('writes the review in the chosen language', async () => {
    await run(make(), { agents: ['analyst'], language: 'ko' });
    assert.match(systemPrompt(tg.requests[0]), /in Korean\./);
  });

  it('refuses a prompt over the model\'s context window, naming the limit and the size, without sending it', async () => {
    const big: ReviewTarget = singleTarget({ file: 'src/users.ts', language: 'typescript', text: Array.from({ length: 800 }, (_, i) => `const value${i} = compute(${i}, "some text to make the line longer");`).join('\n'), startLine: 1, endLine: 800 });
    const { estimate } = make().estimate(big, { language: 'en', modelOverrides: { analyst: 'gpt-4' } });
    assert.equal(estimate.perAgent.analyst?.contextWindow, 8192);
    assert.ok((estimate.perAgent.analyst.tooLarge?.size ?? 0) > 8192);
    assert.equal(estimate.perAgent.security?.tooLarge, undefined);
    const events: ReviewEvent[] = [];
    const summary = await review(make(), big, { language: 'en', agents: ['analyst'], modelOverrides: { analyst: 'gpt-4' } }, (e) => events.push(e));
    const analyst = summary.agents[0];
    assert.equal(analyst?.status, 'error');
    assert.equal(analyst.error?.code, 'too-large');
    assert.match(analyst.error.message, /8192-token context window of gpt-4/);
    assert.match(analyst.error.message, new RegExp(`\\(${estimate.perAgent.analyst.tooLarge?.size} in all\\)`));
    assert.equal(tg.requests.length, 0);
  });

  it('estimates the cost per agent and for the review before anything is spent', () => {
    const { estimate } = make().estimate(target, { language: 'en' });
    assert.deepEqual(estimate.order, ['analyst', 'architecture', 'security', 'coding']);
    for (const id of estimate.order) {
      const a = estimate.perAgent[id];
      assert.ok(a && a.promptTokens > 100 && a.costUsd > 0, id);
      assert.equal(a.maxCompletionTokens, 4096);
    }
    assert.ok((estimate.perAgent.coding?.promptTokens ?? 0) > (estimate.perAgent.analyst?.promptTokens ?? 0), 'coding reads the others');
    const sum = Object.values(estimate.perAgent).reduce((n, a) => n + a.costUsd, 0);
    assert.ok(Math.abs(sum - estimate.costUsd) < 1e-12);
    assert.equal(tg.requests.length, 0);
  });

  it('runs the plan its estimate made: the planned messages are sent, settings changed after planning apply to the next review', async () => {
    const pipeline = make();
    const plan = pipeline.estimate(target, { language: 'en', agents: ['analyst'] });
    settings = parseSettings({ ...raw, agents: { analyst: { model: 'gpt-4.1-mini' } } }).settings;
    const summary = await pipeline.run(plan, () => undefined);
    assert.equal(summary.agents[0]?.model, 'gpt-4.1');
    assert.equal(tg.requests[0]?.model, 'gpt-4.1');
    assert.deepEqual(tg.requests[0].body?.messages, plan.agents[0]?.messages);
    await pipeline.run(pipeline.estimate(target, { language: 'en', agents: ['analyst'] }), () => undefined);
    assert.equal(tg.requests[1]?.model, 'gpt-4.1-mini');
  });

  it('runs the agents and nothing after: each agent\'s findings as it reported them, no merge, no verifier, no review-done', async () => {
    settings = parseSettings({ ...raw, review: { verify: 'cross-model' } }).settings;
    const pipeline = make();
    const events: ReviewEvent[] = [];
    const run = await pipeline.run(pipeline.estimate(target, { language: 'en' }), (e) => events.push(e));
    assert.equal('findings' in run, false, 'merging is the use case\'s step after the run');
    assert.deepEqual(run.agents.map((a) => [a.agent, a.findings.length]), [['analyst', 2], ['architecture', 1], ['security', 1], ['coding', 0]]);
    assert.deepEqual(run.agents.map((a) => a.agent), ['analyst', 'architecture', 'security', 'coding'], 'no verifier among them');
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 4);
    assert.ok(!events.some((e) => e.type === 'review-done' || ('agent' in e && e.agent === 'verifier')));
    assert.equal(run.totals.requests, 4);
  });

  it('estimates a likely cost from typical answer lengths, under the ceiling that assumes maxOutputTokens', () => {
    const { estimate } = make().estimate(target, { language: 'en' });
    assert.ok(estimate.likelyUsd > 0 && estimate.likelyUsd < estimate.costUsd / 3, `${estimate.likelyUsd} vs ${estimate.costUsd}`);
    for (const id of estimate.order) {
      const a = estimate.perAgent[id];
      assert.ok(a && a.likelyUsd > 0 && a.likelyUsd < a.costUsd, id);
    }
    assert.equal(estimate.perAgent.analyst?.likelyCompletionTokens, TYPICAL_FINDINGS_TOKENS);
    // The coding agent rewrites the reviewed lines: its likely answer grows with them.
    const codeTokens = estimate.perAgent.coding?.likelyCompletionTokens ?? 0;
    assert.equal(codeTokens, Math.ceil((countTokens(target.regions[0]?.text ?? '') * 110) / 100) + 200);
    const sum = Object.values(estimate.perAgent).reduce((n, a) => n + a.likelyUsd, 0);
    assert.ok(Math.abs(sum - estimate.likelyUsd) < 1e-12);
  });

  it('caps the likely answer at maxOutputTokens', () => {
    assert.equal(likelyOutputTokens('findings', 10, 300), 300);
    assert.equal(likelyOutputTokens('code', 10_000, 4096), 4096);
    assert.equal(likelyOutputTokens('code', 100, 4096), 310);
  });

  it('never leaks the API key into events or results', async () => {
    tg.script((req) => (req.model === 'gpt-4.1' ? { kind: 'error', status: 401, message: `bad key ${KEY}` } : req.model ? REPLIES[req.model] : undefined));
    const { events, summary } = await run(make());
    assert.ok(!JSON.stringify(events).includes(KEY));
    assert.ok(!JSON.stringify(summary).includes(KEY));
    assert.equal(summary.agents[0]?.error?.code, 'auth');
  });
});

describe('review pipeline on changes across files (against the loopback test gateway)', () => {
  let tg: TestGateway;
  let gateway: GatewayClient;
  let settings: QuorumSettings;
  const changes: ReviewTarget = {
    kind: 'changes',
    label: 'Uncommitted changes',
    regions: [
      { file: 'src/a.ts', language: 'typescript', startLine: 1, endLine: 4, text: 'a\nb\nc\nd', changedLines: [{ start: 2, end: 2 }] },
      { file: 'src/b.ts', language: 'typescript', startLine: 5, endLine: 6, text: 'e\nf', changedLines: [{ start: 5, end: 6 }] },
    ],
  };

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY });
    settings = parseSettings({ gateway: { baseUrl: tg.url }, review: { verify: 'off' } }).settings;
    gateway = createGateway({ settings: () => settings, apiKey: () => KEY });
  });
  after(async () => {
    gateway.dispose();
    await tg.close();
  });

  it('drops findings that touch no changed line, or keeps them marked; merges per file; proposes code per region', async () => {
    tg.script((req) => {
      if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'r', replacements: [{ file: 'src/b.ts', startLine: 5, endLine: 6, code: 'E\nF' }] }) };
      return { text: findings(
        { file: 'src/a.ts', severity: 'high', title: 'Null check removed', startLine: 2, endLine: 2 },
        { file: 'src/a.ts', severity: 'low', title: 'Old naming', startLine: 4, endLine: 4 },
        { file: 'src/b.ts', severity: 'high', title: 'Null check removed', startLine: 5, endLine: 5 },
      ) };
    });
    const pipeline = new ReviewPipeline({ gateway, settings: () => settings });
    const summary = await review(pipeline, changes, { language: 'en', noCache: true }, () => undefined);
    assert.deepEqual(summary.findings.map((f) => [f.file, f.startLine, f.agents.length]), [['src/a.ts', 2, 3], ['src/b.ts', 5, 3]]);
    assert.deepEqual(summary.agents.find((a) => a.agent === 'coding')?.replacements, [{ file: 'src/b.ts', startLine: 5, endLine: 6, code: 'E\nF' }]);
    assert.match(userPrompt(tg.requests.find((r) => r.body?.model === 'gpt-4.1')), /File: src\/b\.ts/);
    const all = await review(pipeline, changes, { language: 'en', noCache: true, keepOutsideChanges: true }, () => undefined);
    const outside = all.findings.filter((f) => f.outsideChanges);
    assert.deepEqual(outside.map((f) => [f.file, f.startLine]), [['src/a.ts', 4]]);
  });
});
