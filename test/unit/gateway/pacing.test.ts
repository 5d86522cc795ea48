import { strict as assert } from 'node:assert';
import { mock } from 'node:test';
import { createGateway } from '../../../src/core/gateway/client';
import type { StreamResult } from '../../../src/core/gateway/types';
import { settingsSchema } from '../../../src/core/settings/schema';
import { fakeClockGateway, onFakeClock, seeded } from '../../fixtures/gateway/fakeClockGateway';
import { ask, KEY } from './helpers';

/**
 * `bench:changes` on a fake clock: one client, three batches of a changes review (three reviewers each, then
 * coding with their findings) against a gateway that allows 4 requests a second (a token bucket that refills
 * continuously) and 8 in flight, with production tuning and seeded jitter. Once the first answers have told the
 * client the limit, its sends are paced so that none arrives early: no 429 after the first burst, and the
 * makespan within 1.15× what the limits allow.
 */

const REVIEW = { text: JSON.stringify({ findings: [{ severity: 'medium', title: 'Unchecked arithmetic', explanation: 'The result may overflow.', startLine: 5, endLine: 5 }] }), serviceMs: 490 };
const CODING = { text: JSON.stringify({ rationale: 'Checked the arithmetic.', replacements: [] }), serviceMs: 385 };
const BATCHES = 3;
const RATE = 4;
const CAP = 8;
/** The rate bound (the first RATE requests at once, then RATE a second, the last one a coding answer), as bench/changes.ts counts it. */
const IDEAL_MS = Math.max(((BATCHES * 4 - RATE) / RATE) * 1000 + CODING.serviceMs, (BATCHES * (3 * REVIEW.serviceMs + CODING.serviceMs)) / CAP, REVIEW.serviceMs + CODING.serviceMs);

async function drain(gen: AsyncGenerator<string, StreamResult, void>): Promise<void> {
  for (;;) if ((await gen.next()).done) return;
}

async function changesReview(seed: number, staggerMs: number): Promise<{ makespanMs: number; late429: number; completed: number }> {
  const gw = fakeClockGateway({ requests: RATE, perMs: 1000, maxConcurrent: CAP, style: 'stated' }, (model) => (model === 'deepseek-v3.2' ? CODING : REVIEW));
  const settings = settingsSchema.parse({ gateway: { baseUrl: 'http://127.0.0.1:9/v1' }, limits: { maxConcurrent: CAP } });
  const client = createGateway({ settings: () => settings, apiKey: () => KEY, tuning: { fetch: gw.fetch, random: seeded(seed) } });
  let completed = 0;
  const one = async (model: string, batch: number) => {
    await drain(client.stream(ask(model, `batch ${batch}`)));
    completed++;
  };
  try {
    const { endedAfterMs } = await onFakeClock(
      () =>
        Promise.all(
          Array.from({ length: BATCHES }, async (_, b) => {
            // The batches start a little apart, as a real run's do: the bucket is left with part of a request.
            if (staggerMs > 0) await new Promise((r) => setTimeout(r, b * staggerMs));
            await Promise.all(['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash'].map((m) => one(m, b)));
            await one('deepseek-v3.2', b);
          }),
        ),
      60_000,
      { stepMs: 1 },
    );
    const start = gw.requests[0]?.at ?? 0;
    // The first burst meets the limit before anything says what it is; after the first answers, nothing should.
    const late429 = gw.requests.filter((r) => r.status === 429 && r.at - start > 100).length;
    return { makespanMs: endedAfterMs, late429, completed };
  } finally {
    client.dispose();
  }
}

describe('pacing against a continuously refilling request budget, on a fake clock (bench:changes without the machine)', function () {
  this.timeout(60_000);
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  for (const staggerMs of [0, 7, 20]) {
    it(`sends no request early once the limit is known, and finishes within 1.15× the ideal makespan (batches ${staggerMs} ms apart)`, async () => {
      for (const seed of [1, 2, 3]) {
        const r = await changesReview(seed, staggerMs);
        assert.equal(r.completed, BATCHES * 4, `seed ${seed}`);
        assert.equal(r.late429, 0, `seed ${seed}: ${r.late429} requests after the first burst were sent early`);
        assert.ok(r.makespanMs <= 1.15 * IDEAL_MS, `seed ${seed}: makespan ${r.makespanMs} ms, ideal ${IDEAL_MS} ms`);
      }
    });
  }
});
