import { strict as assert } from 'node:assert';
import { planChanges } from '../../../src/core/changes/plan';
import type { ChangedFileText, ChangeSet } from '../../../src/core/changes/types';
import { CostLedger } from '../../../src/core/cost/ledger';
import { ListedPrices } from '../../../src/core/cost/listedPrices';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { loadPromptContext, type PromptContext } from '../../../src/core/prompt/shape';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import type { PlannedReview, ReviewConfirm, ReviewRequest, ShapedWork } from '../../../src/core/review/reviewRequest';
import { runReview } from '../../../src/core/review/runReview';
import { singleTarget } from '../../../src/core/domain/target';
import type { ReviewEvent } from '../../../src/core/domain/events';
import { parseSettings } from '../../../src/core/settings/parse';
import type { QuorumSettings } from '../../../src/core/settings/schema';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

const KEY = 'sk-test-run-review-0123456789';
const SECRET = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';

function added(path: string, n: number): ChangedFileText {
  const lines = Array.from({ length: n }, (_, i) => `export const value${i + 1} = ${i + 1};`);
  return { change: { path, status: 'added', added: [{ start: 1, end: n }], removed: [], additions: n, deletions: 0 }, language: 'typescript', lines };
}

/** Two findings per answer: one sure and high, one unsure and low (the noise controls hide it). */
const answer = (file: string) =>
  JSON.stringify({
    findings: [
      { file, severity: 'high', title: 'Injection', explanation: 'x', startLine: 1, endLine: 1, confidence: 0.9 },
      { file, severity: 'low', title: 'Naming', explanation: 'y', startLine: 2, endLine: 2, confidence: 0.2 },
    ],
  });

/** A confirm that records what it was shown and answers `decision`. */
function recording(decision: 'proceed' | 'cancel' = 'proceed'): ReviewConfirm & { seen: { shaped?: ShapedWork; planned?: PlannedReview; order: string[] } } {
  const seen: { shaped?: ShapedWork; planned?: PlannedReview; order: string[] } = { order: [] };
  return {
    seen,
    shaped: (work) => {
      seen.shaped = work;
      seen.order.push('shaped');
      return 'proceed';
    },
    planned: (plan) => {
      seen.planned = plan;
      seen.order.push('planned');
      return decision;
    },
  };
}

describe('runReview: the one review use case', function () {
  this.timeout(30_000);
  let tg: TestGateway;
  let gateway: GatewayClient;
  let settings: QuorumSettings;
  let listedPrices: ListedPrices;
  let pipeline: ReviewPipeline;
  let context: PromptContext;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0, models: ['gpt-4.1', 'acme/coder-7'], modelFields: { 'acme/coder-7': { pricing: { prompt: '0.000001', completion: '0.000002', request: '0' } } } });
  });
  after(() => tg.close());
  beforeEach(async () => {
    tg.requests.length = 0;
    tg.script((req) => {
      const user = JSON.stringify(req.body?.messages ?? []);
      const file = ['a.ts', 'b.ts', 'src/a.ts'].find((f) => user.includes(`File: ${f}`)) ?? 'src/a.ts';
      return { text: answer(file) };
    });
    settings = parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0, maxConcurrent: 8 }, privacy: { exclude: ['**/*.pem'] }, review: { verify: 'off' } }).settings; // the verify step has its own tests (cli/verify.test.ts)
    listedPrices = new ListedPrices();
    const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
    gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger, listedPrices });
    pipeline = new ReviewPipeline({ gateway, settings: () => settings, ledger, listedPrices });
    context = await loadPromptContext({ settings, fs: undefined, trusted: true, useRules: true });
  });
  afterEach(() => gateway.dispose());

  const selection = singleTarget({ file: 'src/a.ts', language: 'typescript', text: `const token = "${SECRET}";\nexport const naming = 1;`, startLine: 1, endLine: 2 });
  const chats = () => tg.requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('a selection: shaped (its secret redacted), planned, confirmed, run, merged, noise-filtered; one review-done, last, with the result\'s summary', async () => {
    const confirm = recording();
    const events: ReviewEvent[] = [];
    const outcome = await runReview(pipeline, {
      work: { target: selection, relativeFile: 'src/a.ts' },
      context,
      options: { language: 'en', agents: ['analyst', 'security'] },
      noise: { minConfidence: 0.5, minSeverity: 'info' },
      confirm,
      onEvent: (e) => events.push(e),
    });
    assert.equal(outcome.status, 'reviewed');
    assert.deepEqual(confirm.seen.order, ['shaped', 'planned']);
    // Nothing secret left the machine, and the plan says what was redacted.
    assert.ok(!tg.requests.some((r) => r.raw.includes(SECRET)));
    assert.deepEqual(outcome.plan.shaped.redactions.map((r) => r.kind), ['github-token']);
    assert.equal(outcome.plan.batches.length, 1);
    assert.equal(outcome.plan.estimate.requests, 2);
    assert.deepEqual(outcome.plan.estimate.order, ['analyst', 'security']);
    assert.equal(chats().length, 2);
    // The two agents' same findings merged; the unsure one hidden by the noise controls, counted apart.
    assert.deepEqual(outcome.summary.findings.map((f) => [f.title, [...f.agents].sort()]), [['Injection', ['analyst', 'security']], ['Naming', ['analyst', 'security']]]);
    assert.deepEqual(outcome.noise.shown.map((f) => f.title), ['Injection']);
    assert.deepEqual(outcome.noise.hidden.map((h) => [h.finding.title, h.reason]), [['Naming', 'confidence']]);
    const done = events.filter((e) => e.type === 'review-done');
    assert.equal(done.length, 1);
    assert.equal(events.at(-1)?.type, 'review-done');
    assert.deepEqual(done[0]?.type === 'review-done' ? done[0].summary : undefined, outcome.summary);
    // The face is told the noise step's split with it (the editor hides what it hides; nothing judges the list again).
    assert.deepEqual(done[0]?.type === 'review-done' ? done[0].noise : undefined, outcome.noise);
    assert.ok(events.every((e) => e.reviewId === outcome.summary.reviewId), 'every event carries the review\'s id');
  });

  it('the face\'s confirm says cancel: nothing is sent, the plan is returned', async () => {
    const confirm = recording('cancel');
    const outcome = await runReview(pipeline, { work: { target: selection }, context, options: { language: 'en' }, confirm });
    assert.equal(outcome.status, 'declined');
    assert.equal(chats().length, 0);
    assert.equal(outcome.plan?.estimate.order.length, 4);
  });

  it('a file never sent is refused before the face is asked anything', async () => {
    const confirm = recording();
    const target = singleTarget({ file: 'keys/server.pem', language: 'plaintext', text: 'x', startLine: 1, endLine: 1 });
    const outcome = await runReview(pipeline, { work: { target, relativeFile: 'keys/server.pem' }, context, options: { language: 'en' }, confirm });
    assert.deepEqual(outcome.status === 'excluded' ? [outcome.file, outcome.rule.pattern] : outcome.status, ['keys/server.pem', '**/*.pem']);
    assert.deepEqual(confirm.seen.order, []);
    assert.equal(tg.requests.length, 0);
  });

  it('changes in batches: one plan of every batch, one summary; dismissed findings read by the noise step, before review-done', async () => {
    const set: ChangeSet = { request: { kind: 'uncommitted' }, files: [added('a.ts', 30), added('b.ts', 30)], skipped: [], added: 60, removed: 0 };
    const changes = planChanges(set, { contextLines: 3, batchTokens: 400 });
    assert.equal(changes.batches.length, 2);
    const confirm = recording();
    const order: string[] = [];
    const request: ReviewRequest = {
      work: { target: changes.target, changes },
      context,
      options: { language: 'en', agents: ['analyst'] },
      noise: {
        minConfidence: 0,
        minSeverity: 'high',
        dismissed: () => {
          order.push('dismissed');
          return Promise.resolve([]);
        },
      },
      confirm,
      onEvent: (e) => {
        if (e.type === 'review-done') order.push('review-done');
      },
    };
    const outcome = await runReview(pipeline, request);
    assert.equal(outcome.status, 'reviewed');
    assert.equal(confirm.seen.planned?.changes?.batches.length, 2);
    assert.equal(confirm.seen.planned.estimate.requests, 2);
    assert.equal(chats().length, 2);
    assert.equal(outcome.summary.target.kind, 'changes');
    assert.equal(outcome.summary.agents.length, 1);
    assert.equal(outcome.summary.agents[0]?.requests, 2);
    assert.deepEqual(outcome.summary.findings.map((f) => f.file).sort(), ['a.ts', 'a.ts', 'b.ts', 'b.ts']);
    assert.deepEqual(outcome.noise.shown.map((f) => f.title), ['Injection', 'Injection']);
    assert.deepEqual(outcome.noise.hidden.map((h) => h.reason), ['severity', 'severity']);
    assert.deepEqual(order, ['dismissed', 'review-done']);
  });

  it('changes whose every file is never sent: nothing to review, an empty summary with the files skipped, no question asked', async () => {
    const set: ChangeSet = { request: { kind: 'uncommitted' }, files: [added('keys/a.pem', 3)], skipped: [], added: 3, removed: 0 };
    const changes = planChanges(set, { contextLines: 3, batchTokens: 400 });
    const confirm = recording();
    const outcome = await runReview(pipeline, { work: { target: changes.target, changes }, context, options: { language: 'en' }, confirm });
    assert.equal(outcome.status, 'nothing');
    assert.deepEqual(outcome.summary.target.skipped, [{ file: 'keys/a.pem', reason: 'excluded' }]);
    assert.deepEqual(outcome.summary.findings, []);
    assert.deepEqual(confirm.seen.order, []);
    assert.equal(tg.requests.length, 0);
  });

  it('a dry run asks the gateway nothing (not even /models) and shows each batch\'s requests', async () => {
    const set: ChangeSet = { request: { kind: 'uncommitted' }, files: [added('a.ts', 30), added('b.ts', 30)], skipped: [], added: 60, removed: 0 };
    const changes = planChanges(set, { contextLines: 3, batchTokens: 400 });
    let shown: ReturnType<PlannedReview['whatWillBeSent']> | undefined;
    const outcome = await runReview(pipeline, {
      work: { target: changes.target, changes },
      context,
      options: { language: 'en', modelOverrides: { analyst: 'acme/coder-7' } },
      dryRun: true,
      confirm: {
        planned: (plan) => {
          shown = plan.whatWillBeSent();
          return 'proceed';
        },
      },
    });
    assert.equal(outcome.status, 'declined');
    assert.equal(tg.requests.length, 0);
    assert.equal(shown?.requests?.length, 2);
    assert.deepEqual(shown.requests.map((r) => r.regions.map((g) => g.file)), [['a.ts'], ['b.ts']]);
  });

  it('plans with the gateway\'s listed price when a model has none: estimated, prices learnt, estimated again, once', async () => {
    let planned: PlannedReview | undefined;
    const outcome = await runReview(pipeline, {
      work: { target: selection },
      context,
      options: { language: 'en', agents: ['analyst'], modelOverrides: { analyst: 'acme/coder-7' } },
      confirm: {
        planned: (plan) => {
          planned = plan;
          return 'cancel';
        },
      },
    });
    assert.equal(outcome.status, 'declined');
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/models')).length, 1);
    assert.ok((planned?.estimate.costUsd ?? 0) > 0, 'the estimate has the listed price');
  });
});
