import { strict as assert } from 'node:assert';
import { planChanges } from '../../../src/core/changes/plan';
import { planBatches, runBatches } from '../../../src/core/pipeline/batches';
import type { ChangedFileText, ChangeSet } from '../../../src/core/changes/types';
import { CostLedger } from '../../../src/core/cost/ledger';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import type { ReviewEvent } from '../../../src/core/domain/events';
import { parseSettings } from '../../../src/core/settings/parse';
import type { QuorumSettings } from '../../../src/core/settings/schema';
import { costSourceKey } from '../../../src/shared/reviewReducer';
import { toViewEvent } from '../../../src/core/report/viewEvents';
import { startTestGateway, type Reply, type TestGateway } from '../../fixtures/gateway/server';

const KEY = 'sk-test-changes-review-0123456789';

function added(path: string, n: number): ChangedFileText {
  const lines = Array.from({ length: n }, (_, i) => `export const value${i + 1} = ${i + 1};`);
  return { change: { path, status: 'added', added: [{ start: 1, end: n }], removed: [], additions: n, deletions: 0 }, language: 'typescript', lines };
}

/**
 * How each agent's attempts are priced: the gateway sends a cost (analyst), only token usage that Quorum prices
 * (architecture, coding), or refuses with no usage at all (security).
 */
const REPLIES: Record<string, Reply> = {
  'gpt-4.1': { text: '{"findings":[]}', cost: 0.002 },
  'claude-sonnet-4.5': { text: '{"findings":[]}' },
  'gemini-2.5-flash': { kind: 'error', status: 400, message: 'bad request' },
  'deepseek-v3.2': { text: '{"rationale":"r","replacements":[]}' },
};

describe('changes review: batches told as one review', function () {
  this.timeout(30_000);
  let tg: TestGateway;
  let gateway: GatewayClient;
  let settings: QuorumSettings;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    tg.script((req) => (req.model ? REPLIES[req.model] : undefined));
    settings = parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0, maxConcurrent: 8 } }).settings;
  });
  after(() => tg.close());
  beforeEach(() => {
    gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger: new CostLedger(() => settings.prices) });
  });
  afterEach(() => gateway.dispose());

  for (const files of [1, 2]) {
    it(`${files} batch(es): each agent's cost is labelled by what happened (reported, priced from usage, none), one end per agent, the same as the summary`, async () => {
      const set: ChangeSet = { request: { kind: 'uncommitted' }, files: [added('a.ts', 30), added('b.ts', 30)].slice(0, files), skipped: [], added: 30 * files, removed: 0 };
      const plan = planChanges(set, { contextLines: 3, batchTokens: 400 });
      assert.equal(plan.batches.length, files);
      const pipeline = new ReviewPipeline({ gateway, settings: () => settings });
      const events: ReviewEvent[] = [];
      const summary = await runBatches(pipeline, planBatches(pipeline, plan.target, plan.batches, { language: 'en' }), (e) => events.push(e));
      const source = Object.fromEntries(summary.agents.map((a) => [a.agent, a.costSource]));
      assert.deepEqual(source, { analyst: 'reported', architecture: 'usage', security: 'none', coding: 'usage' });
      const analyst = summary.agents.find((a) => a.agent === 'analyst');
      assert.equal(Math.round((analyst?.costUsd ?? 0) * 1e6), 2000 * files);
      // One request per batch: the card says so, and counts attempts only beyond them.
      assert.equal(analyst?.requests, files > 1 ? files : undefined);
      assert.equal(analyst?.attempts, files);
      // What the panel's cards and the CLI's progress get: one end per agent, its whole result.
      const ends = events.filter((e): e is Extract<ReviewEvent, { type: 'done' | 'failed' | 'cancelled' }> => e.type === 'done' || e.type === 'failed' || e.type === 'cancelled');
      assert.deepEqual(ends.map((e) => e.agent).sort(), ['analyst', 'architecture', 'coding', 'security']);
      for (const e of ends) {
        const inSummary = summary.agents.find((a) => a.agent === e.agent);
        assert.deepEqual([e.result.costUsd, e.result.costSource, e.result.usage, e.result.status], [inSummary?.costUsd, inSummary?.costSource, inSummary?.usage, inSummary?.status], e.agent);
        const view = toViewEvent(e);
        if (view.kind !== 'ended') continue;
        const expected = { analyst: 'costSourceReported', architecture: 'costSourceUsage', security: 'costSourceNone', coding: 'costSourceUsage' }[e.agent];
        assert.equal(costSourceKey(view.outcome), expected, e.agent);
      }
    });
  }

  it('several batches stream as one agent: queued and started once, one batch\'s text at a time (the first to answer first, a slow one after), never interleaved', async () => {
    const set: ChangeSet = { request: { kind: 'uncommitted' }, files: [added('a.ts', 30), added('b.ts', 30), added('c.ts', 30)], skipped: [], added: 90, removed: 0 };
    const plan = planChanges(set, { contextLines: 3, batchTokens: 400 });
    assert.equal(plan.batches.length, 3);
    const finding = (file: string) => JSON.stringify({ findings: [{ file, severity: 'low', title: `in ${file}`, explanation: 'x', startLine: 1, endLine: 1 }] });
    tg.script((req) => {
      const user = JSON.stringify(req.body?.messages ?? []);
      const file = ['a.ts', 'b.ts', 'c.ts'].find((f) => user.includes(`File: ${f}`)) ?? '?';
      if (req.model === 'deepseek-v3.2') return { text: '{"rationale":"r","replacements":[]}' };
      // The first batch answers last, slowly; the others at once.
      return file === 'a.ts' ? { text: finding(file), ttftMs: 800, tokensPerSecond: 200 } : { text: finding(file), ttftMs: 1, tokensPerSecond: 0 };
    });
    try {
      const pipeline = new ReviewPipeline({ gateway, settings: () => settings });
      const events: ReviewEvent[] = [];
      await runBatches(pipeline, planBatches(pipeline, plan.target, plan.batches, { language: 'en' }), (e) => events.push(e));
      for (const agent of ['analyst', 'architecture', 'security', 'coding']) {
        const mine = events.filter((e) => 'agent' in e && e.agent === agent);
        assert.equal(mine.filter((e) => e.type === 'queued').length, 1, `${agent} queued once`);
        assert.equal(mine.filter((e) => e.type === 'started').length, 1, `${agent} started once`);
        const streamed = mine.map((e) => (e.type === 'delta' ? e.text : '')).join('');
        const end = mine.find((e) => e.type === 'done');
        assert.ok(end?.type === 'done', agent);
        // Each batch's answer whole and apart (none interleaved with another); the ended text has them in batch order.
        assert.deepEqual(streamed.split('\n\n').sort(), end.result.text.split('\n\n').sort(), `${agent}: the same answers`);
        if (agent === 'coding') continue;
        for (const part of streamed.split('\n\n')) assert.doesNotThrow(() => JSON.parse(part), `${agent}: ${part}`);
        const [a = -1, b = -1, c = -1] = ['a.ts', 'b.ts', 'c.ts'].map((f) => streamed.indexOf(`in ${f}`));
        assert.ok(b !== -1 && c !== -1 && a > b && a > c, `${agent}: the slow first batch shows after the others: ${a}, ${b}, ${c}`);
        const [ea = -1, eb = -1, ec = -1] = ['a.ts', 'b.ts', 'c.ts'].map((f) => end.result.text.indexOf(`in ${f}`));
        assert.ok(ea !== -1 && ea < eb && eb < ec, `${agent}: the ended text in batch order`);
      }
    } finally {
      tg.script((req) => (req.model ? REPLIES[req.model] : undefined));
    }
  });
});
