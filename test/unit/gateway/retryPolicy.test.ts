import { strict as assert } from 'node:assert';
import { classifyHttp, type Failure } from '../../../src/core/gateway/errors';
import { nextStep, type RetryClock, type RetryState } from '../../../src/core/gateway/retryPolicy';

/** The retry policy on a fake clock with injected randomness: no timers, no gateway. */
const tuning = (random = 0.5) => ({ backoffBaseMs: 500, backoffMaxMs: 8_000, rateLimitDefaultWaitMs: 500, rateLimitMaxWaitMs: 4_000, random: () => random });
const fresh = (): RetryState => ({ consumed: 0, unstated429: 0, formatDropped: false });
const clock = (now: number, extra: Partial<RetryClock> = {}): RetryClock => ({ now, deadlineAt: 180_000, coolDownUntil: 0, maxRetries: 2, ...extra });
const http = (status: number, message: string, waitMs?: number): Failure => classifyHttp({ status, message, model: 'gpt-4.1', ...(waitMs !== undefined ? { waitMs } : {}) });

describe('retry policy (fake clock)', () => {
  it('retries a 429 with a stated wait until the deadline, never using up maxRetries', () => {
    const state = fresh();
    let now = 0;
    for (let i = 0; i < 100; i++) {
      const step = nextStep(http(429, 'Rate limit reached', 1_000), state, clock(now, { coolDownUntil: now + 1_000 }), tuning());
      assert.equal(step.kind, 'retry', `429 number ${i + 1}`);
      if (step.kind === 'retry') assert.equal(step.waitMs, 1_000);
      now += 1_000;
    }
    assert.equal(state.consumed, 0);
    const last = nextStep(http(429, 'Rate limit reached', 1_000), state, clock(179_500), tuning());
    assert.equal(last.kind, 'stop');
    assert.ok(last.kind === 'stop' && last.error && /past the request's deadline/.test(last.error.message));
  });

  it('waits for the shared cool-down when it ends later than the stated wait', () => {
    const step = nextStep(http(429, 'Rate limit reached', 200), fresh(), clock(10_000, { coolDownUntil: 12_000 }), tuning());
    assert.deepEqual(step, { kind: 'retry', delayMs: 0, why: 'rate-limited', waitMs: 2_000 });
  });

  it('backs off a 429 without a stated wait exponentially with full jitter, until the deadline', () => {
    const state = fresh();
    const ceilings: number[] = [];
    for (let i = 0; i < 7; i++) {
      const step = nextStep(http(429, 'Max parallel request limit reached'), state, clock(0), tuning(0.9999));
      assert.equal(step.kind, 'retry');
      if (step.kind === 'retry') ceilings.push(Math.round(step.delayMs / 0.9999));
    }
    assert.deepEqual(ceilings, [500, 1_000, 2_000, 4_000, 4_000, 4_000, 4_000]);
    const low = nextStep(http(429, 'Max parallel request limit reached'), fresh(), clock(0), tuning(0));
    assert.ok(low.kind === 'retry' && low.delayMs === 0, 'full jitter reaches down to no wait');
    assert.equal(state.consumed, 0);
    assert.equal(nextStep(http(429, 'Max parallel request limit reached'), fresh(), clock(179_900), tuning(0.5)).kind, 'stop');
  });

  it('counts 5xx, resets and time-outs against maxRetries, with a growing jittered backoff', () => {
    const state = fresh();
    const a = nextStep(http(503, 'overloaded'), state, clock(0), tuning(0));
    const b = nextStep(http(502, 'bad gateway'), state, clock(0), tuning(0));
    assert.deepEqual([a.kind === 'retry' && a.delayMs, b.kind === 'retry' && b.delayMs], [500, 1_000]);
    assert.equal(nextStep(http(500, 'boom'), state, clock(0), tuning(0)).kind, 'stop');
  });

  it('never retries quota, too large, or a wait over 120 s', () => {
    for (const f of [
      http(429, 'You exceeded your current quota, please check your plan and billing details.'),
      http(429, 'Request too large for gpt-4.1 on tokens per min (TPM): Limit 30000, Requested 45000.'),
      http(429, 'Rate limit reached', 121_000),
    ]) {
      assert.equal(nextStep(f, fresh(), clock(0), tuning()).kind, 'stop', f.error.message);
    }
  });

  it('retries a response_format refusal once, at once', () => {
    const state = fresh();
    const f = http(400, "Invalid parameter: 'response_format' is not supported");
    assert.deepEqual(nextStep(f, state, clock(0), tuning()), { kind: 'retry', delayMs: 0, why: 'format' });
    assert.equal(nextStep(f, state, clock(0), tuning()).kind, 'stop');
  });
});
