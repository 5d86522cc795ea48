import { strict as assert } from 'node:assert';
import { mock } from 'node:test';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { GatewayError, type RetryInfo, type StreamResult } from '../../../src/core/gateway/types';
import { settingsSchema } from '../../../src/core/settings/schema';
import { onFakeClock } from '../../fixtures/gateway/fakeClockGateway';
import { ask, drain, KEY } from './helpers';

/**
 * The whole gateway client (admission, slots, retry policy, deadline) on a fake clock, against an in-process
 * gateway that answers through the client's `fetch`: a 429 that never ends is followed for minutes of fake time
 * in milliseconds of real time, with no timed assertion. Before the fix, a request that waited out 429s until
 * its deadline failed as `timeout` ("no complete answer within N s"), so a review failed with a message about
 * a slow gateway, and the notification a user (and the integration test) waited for never came.
 */

type Answer = (signal: AbortSignal | undefined) => Response;

const rateLimited = (headers: Record<string, string>): Answer => () =>
  new Response(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }), {
    status: 429,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A 200 stream that sends one delta and then nothing more (ended only by an abort). */
const stalls: Answer = (signal) => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const chunk = { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'gpt-4.1', choices: [{ index: 0, delta: { content: 'part' }, finish_reason: null }] };
      controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(chunk)}\n\n`));
      signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
};

interface FakeGateway {
  fetch: typeof fetch;
  /** Fake-clock times of the chat requests received. */
  sentAt: number[];
}

function fakeGateway(answer: (n: number) => Answer): FakeGateway {
  const sentAt: number[] = [];
  const impl = (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    sentAt.push(Date.now());
    return Promise.resolve(answer(sentAt.length)(signal));
  };
  return { fetch: impl, sentAt };
}

function client(gw: FakeGateway, limits: Record<string, number>): GatewayClient {
  const settings = settingsSchema.parse({ gateway: { baseUrl: 'http://127.0.0.1:9/v1' }, limits: { maxRetries: 1, ...limits } });
  // Production back-off and jitter; only the randomness is fixed.
  return createGateway({ settings: () => settings, apiKey: () => KEY, tuning: { fetch: gw.fetch, random: () => 0.5 } });
}

describe('gateway client on a fake clock: 429s until the deadline', () => {
  let c: GatewayClient | undefined;
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 }));
  afterEach(() => {
    c?.dispose();
    mock.timers.reset();
  });

  it('a stated wait that is always answered by another 429: ends at the deadline as rate-limited, saying how long it waited', async () => {
    const gw = fakeGateway(() => rateLimited({ 'retry-after-ms': '50' }));
    c = client(gw, { deadlineSeconds: 30 });
    const retries: RetryInfo[] = [];
    const { value, endedAfterMs } = await onFakeClock(() => drain(c!.stream(ask('gpt-4.1'), { onRetry: (i) => retries.push(i) })), 90_000);
    const error = value.error;
    assert.ok(error instanceof GatewayError, `a GatewayError, got ${String(error)}`);
    assert.equal(error.code, 'rate-limited', error.message);
    assert.ok(endedAfterMs >= 30_000 && endedAfterMs <= 30_050, `ends at the deadline, not before and not never (${endedAfterMs} ms)`);
    assert.match(error.message, /still rate limited at the request's deadline \(30 s\); waited (29\.\d|30\.0|30) s over \d+ attempts/);
    assert.ok((error.waitedMs ?? 0) >= 29_000 && (error.waitedMs ?? 0) <= 30_000, `waitedMs ${error.waitedMs}`);
    assert.equal(error.retryAfterMs, 50);
    // Every 429 answered, plus the retry that was waiting for its turn when the deadline came, if any.
    assert.ok(error.attempts === gw.sentAt.length || error.attempts === gw.sentAt.length + 1, `attempts ${error.attempts}, requests ${gw.sentAt.length}`);
    assert.ok(gw.sentAt.length >= 20, `kept retrying, not counted against maxRetries 1 (${gw.sentAt.length} requests)`);
    assert.ok(retries.every((r) => r.code === 'rate-limited' && r.reason === 'retry' && (r.waitMs ?? 0) >= 50), 'every notice says what is waited for');
  });

  it('a 429 without a stated wait: backs off until the next wait would pass the deadline, then says so', async () => {
    const gw = fakeGateway(() => rateLimited({}));
    c = client(gw, { deadlineSeconds: 60 });
    const { value, endedAfterMs } = await onFakeClock(() => drain(c!.stream(ask('gpt-4.1'))), 120_000);
    const error = value.error;
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'rate-limited');
    assert.ok(endedAfterMs < 60_000, `gives up before the deadline (${endedAfterMs} ms)`);
    assert.match(error.message, /the next back-off would end past the request's deadline; waited \d+(\.\d)? s over \d+ attempts/);
    assert.equal(error.waitedMs, gw.sentAt.at(-1)! - gw.sentAt[0]!);
  });

  it('cancelling while it waits out 429s ends the request at once, and nothing more is sent', async () => {
    const gw = fakeGateway(() => rateLimited({ 'retry-after-ms': '400' }));
    c = client(gw, { deadlineSeconds: 120 });
    const controller = new AbortController();
    let sentAtCancel = -1;
    const { value, endedAfterMs } = await onFakeClock(
      () => drain(c!.stream(ask('gpt-4.1'), { signal: controller.signal })),
      60_000,
      {
        during: (elapsed) => {
          if (elapsed >= 5_000 && !controller.signal.aborted) {
            sentAtCancel = gw.sentAt.length;
            controller.abort();
          }
        },
      },
    );
    assert.ok(value.error instanceof GatewayError);
    assert.equal(value.error.code, 'cancelled');
    assert.ok(endedAfterMs <= 5_010, `ended when cancelled (${endedAfterMs} ms)`);
    assert.equal(gw.sentAt.length, sentAtCancel);
  });

  it('a retry that got through and then stalls past the deadline is a timeout, not a rate limit', async () => {
    const gw = fakeGateway((n) => (n <= 3 ? rateLimited({ 'retry-after-ms': '100' }) : stalls));
    c = client(gw, { deadlineSeconds: 20, idleTimeoutSeconds: 3600 });
    const { value } = await onFakeClock<{ deltas: string[]; result?: StreamResult; error?: unknown }>(() => drain(c!.stream(ask('gpt-4.1'))), 60_000);
    assert.ok(value.error instanceof GatewayError);
    assert.equal(value.error.code, 'timeout');
    assert.equal(value.error.partialText, 'part');
    assert.equal(gw.sentAt.length, 4);
  });
});
