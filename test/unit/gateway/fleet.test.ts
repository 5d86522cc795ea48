import { strict as assert } from 'node:assert';
import { mock } from 'node:test';
import { createGateway } from '../../../src/core/gateway/client';
import type { StreamResult } from '../../../src/core/gateway/types';
import { settingsSchema } from '../../../src/core/settings/schema';
import { fakeClockGateway, onFakeClock, seeded, type FakeLimits } from '../../fixtures/gateway/fakeClockGateway';
import { ask, KEY } from './helpers';

/**
 * `bench:fleet` on a fake clock: 8 gateway clients (8 CI processes: nothing shared but the key) × 4 agents —
 * three reviewers at once, then coding — against a gateway that allows 8 requests a second and 10 in flight,
 * with production tuning and seeded jitter. The figures depend on the retry and pacing policy alone, not on how
 * busy the machine is: every agent completes and the makespan stays within 1.5× what the limits allow.
 */

const REVIEW = { text: JSON.stringify({ findings: [{ severity: 'medium', title: 'Query built from input', explanation: 'Use parameters.', startLine: 6, endLine: 6 }] }), serviceMs: 480 };
const CODING = { text: JSON.stringify({ rationale: 'Parameterised.', improvedCode: 'import sqlite3' }), serviceMs: 300 };
const PROCESSES = 8;
const RATE = 8;
const CAP = 10;
/** The larger of the rate bound (the first RATE requests go at once, the rest at RATE a second, then the last
 *  coding answer), the in-flight bound and one process's reviewers→coding chain, as bench/fleet.ts computes it. */
const IDEAL_MS = Math.max(((PROCESSES * 4 - RATE) / RATE) * 1000 + CODING.serviceMs, (PROCESSES * (3 * REVIEW.serviceMs + CODING.serviceMs)) / CAP, REVIEW.serviceMs + CODING.serviceMs);

async function drain(gen: AsyncGenerator<string, StreamResult, void>): Promise<void> {
  for (;;) if ((await gen.next()).done) return;
}

async function fleet(style: FakeLimits['style'], seed: number): Promise<{ completed: number; makespanMs: number; http429: number; maxInFlight: number }> {
  const gw = fakeClockGateway({ requests: RATE, perMs: 1000, maxConcurrent: CAP, style }, (model) => (model === 'deepseek-v3.2' ? CODING : REVIEW));
  const settings = settingsSchema.parse({ gateway: { baseUrl: 'http://127.0.0.1:9/v1' } });
  let completed = 0;
  const one = async (client: ReturnType<typeof createGateway>, model: string) => {
    await drain(client.stream(ask(model)));
    completed++;
  };
  const { endedAfterMs } = await onFakeClock(
    () =>
      Promise.all(
        Array.from({ length: PROCESSES }, async (_, i) => {
          const client = createGateway({ settings: () => settings, apiKey: () => KEY, tuning: { fetch: gw.fetch, random: seeded(seed * 100 + i) } });
          try {
            await Promise.all(['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash'].map((m) => one(client, m)));
            await one(client, 'deepseek-v3.2');
          } finally {
            client.dispose();
          }
        }),
      ),
    10 * 60_000,
    { stepMs: 2 },
  );
  return { completed, makespanMs: endedAfterMs, http429: gw.requests.filter((r) => r.status === 429).length, maxInFlight: gw.maxInFlight };
}

describe('a fleet sharing one key, on a fake clock (bench:fleet without the machine)', function () {
  this.timeout(60_000);
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  for (const style of ['stated', 'none'] as const) {
    it(`429s that state ${style === 'stated' ? 'their wait' : 'no wait'}: every agent completes, within 1.5× the ideal makespan`, async () => {
      for (const seed of [1, 2, 3]) {
        const r = await fleet(style, seed);
        assert.equal(r.completed, PROCESSES * 4, `seed ${seed}`);
        assert.ok(r.http429 > 0, 'the limits were met');
        assert.ok(r.maxInFlight <= CAP);
        assert.ok(r.makespanMs <= 1.5 * IDEAL_MS, `seed ${seed}: makespan ${r.makespanMs} ms, ideal ${IDEAL_MS} ms`);
      }
    });
  }
});
