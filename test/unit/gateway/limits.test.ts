import { strict as assert } from 'node:assert';
import { mock } from 'node:test';
import { createGateway } from '../../../src/core/gateway/client';
import { settingsSchema } from '../../../src/core/settings/schema';
import { fakeClockGateway, onFakeClock } from '../../fixtures/gateway/fakeClockGateway';
import { ask, drain, KEY, rig, type Rig } from './helpers';

const chats = (r: Rig) => r.gw.requests.filter((q) => q.path.endsWith('/chat/completions'));

describe('gateway client: concurrency, rate windows and cool-down', () => {
  let r: Rig;
  afterEach(async () => r?.close());

  it('never has more requests in flight than maxConcurrent, shared by all callers', async () => {
    r = await rig({ settings: { limits: { maxConcurrent: 2 } }, gateway: { ttftMs: 40 } });
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => drain(r.client.stream(ask(i % 2 ? 'gpt-4.1' : 'deepseek-v3.2', `q${i}`, { tag: { agent: `a${i % 4}` } })))));
    assert.ok(all.every((x) => x.result));
    assert.equal(r.gw.maxInFlight, 2);
    assert.equal(r.client.stats().inFlight, 0);
    assert.equal(r.client.stats().queued, 0);
  });

  it('applies a changed maxConcurrent without a new client', async () => {
    // Long enough a first token that the four later requests overlap even on a loaded machine.
    r = await rig({ settings: { limits: { maxConcurrent: 1 } }, gateway: { ttftMs: 400 } });
    await Promise.all(Array.from({ length: 3 }, () => drain(r.client.stream(ask('gpt-4.1')))));
    assert.equal(r.gw.maxInFlight, 1);
    r.settings.limits.maxConcurrent = 4;
    await Promise.all(Array.from({ length: 4 }, () => drain(r.client.stream(ask('gpt-4.1')))));
    assert.equal(r.gw.maxInFlight, 4);
  });

  it('serves queued callers in arrival order', async () => {
    r = await rig({ settings: { limits: { maxConcurrent: 1 } }, gateway: { ttftMs: 10 } });
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => drain(r.client.stream(ask('gpt-4.1', id, { tag: { agent: id } })))));
    assert.deepEqual(chats(r).map((q) => (q.body?.messages as { content: string }[])[1]?.content), ['a', 'b', 'c', 'd']);
  });

  it('holds requests to the requests-per-minute window (fake clock: exact, whatever the load)', async () => {
    // The window on a fake clock with an in-process gateway: the third request goes when the first leaves the
    // window, not a millisecond before — before this, a real-clock version allowed 10% slack for a busy machine.
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 });
    try {
      const gw = fakeClockGateway(undefined, () => ({ text: 'ok', serviceMs: 20 }));
      const settings = settingsSchema.parse({ gateway: { baseUrl: 'http://127.0.0.1:9/v1' }, limits: { requestsPerMinute: 2 } });
      const client = createGateway({ settings: () => settings, apiKey: () => KEY, tuning: { fetch: gw.fetch, rateWindowMs: 1000 } });
      await onFakeClock(() => Promise.all(Array.from({ length: 5 }, (_, i) => drain(client.stream(ask('gpt-4.1', `q${i}`))))), 10_000, { stepMs: 1 });
      client.dispose();
      const at = gw.requests.map((q) => q.at - gw.requests[0]!.at);
      // Two per window of 1000 ms: 0 and 0, then 1000 and 1000, then 2000.
      assert.deepEqual(at, [0, 0, 1000, 1000, 2000]);
    } finally {
      mock.timers.reset();
    }
  });

  it('reserves prompt + max_tokens against the tokens-per-minute window and corrects it from usage', async () => {
    // 1000 tokens a window; each request reserves ~25 prompt + 900 max_tokens, so the second must wait until
    // the first reports its (small) real usage, then fits without waiting for the window.
    r = await rig({ settings: { limits: { tokensPerMinute: 1000 } }, gateway: { ttftMs: 300 } });
    await Promise.all([0, 1].map(() => drain(r.client.stream(ask('gpt-4.1', 'short', { maxTokens: 900 })))));
    const [a, b] = chats(r);
    assert.ok(a && b);
    assert.ok(b.at - a.at >= 290, 'the second waited for the first reservation');
    assert.ok(b.at - a.at < 60_000, 'the reservation was corrected from reported usage');
  });

  it('cools the whole client down on a 429 until retry-after-ms', async () => {
    r = await rig();
    r.gw.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached for requests', code: 'rate_limit_exceeded', headers: { 'retry-after-ms': '400' } });
    const first = drain(r.client.stream(ask('gpt-4.1', 'first')));
    while (r.client.stats().rateLimited === 0) await new Promise((res) => setTimeout(res, 5));
    assert.ok(r.client.stats().coolDownUntil > Date.now());
    const second = drain(r.client.stream(ask('gpt-4.1', 'second')));
    await Promise.all([first, second]);
    const [limited, ...rest] = chats(r);
    assert.ok(limited && limited.status === 429);
    for (const q of rest) assert.ok(q.at - limited.at >= 400, `a request went out ${q.at - limited.at} ms after the 429`);
    assert.equal(rest.length, 2);
  });

  it('reads retry-after in seconds and x-ratelimit-reset durations', async () => {
    r = await rig();
    r.gw.enqueue(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } },
      { kind: 'error', status: 429, message: 'slow down', headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '0.3s' } },
    );
    await drain(r.client.stream(ask('gpt-4.1')));
    const [a, b, c] = chats(r);
    assert.ok(a && b && c);
    assert.ok(b.at - a.at >= 1000, 'waited retry-after seconds');
    assert.ok(c.at - b.at >= 300, 'waited the reset duration');
  });

  it('slows down when x-ratelimit-remaining-requests reaches zero', async () => {
    r = await rig({ settings: { limits: { maxConcurrent: 1 } } });
    r.gw.enqueue({ text: 'ok', headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '300ms' } });
    await drain(r.client.stream(ask('gpt-4.1')));
    await drain(r.client.stream(ask('gpt-4.1')));
    const [a, b] = chats(r);
    assert.ok(a && b);
    assert.ok(b.at - a.at >= 290, `second sent ${b.at - a.at} ms after the first`);
  });

  it('pauses when x-ratelimit-remaining-tokens reaches zero until reset-tokens', async () => {
    r = await rig({ settings: { limits: { maxConcurrent: 1 } } });
    r.gw.enqueue({ text: 'ok', headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '350ms' } });
    await drain(r.client.stream(ask('gpt-4.1')));
    await drain(r.client.stream(ask('gpt-4.1')));
    const [a, b] = chats(r);
    assert.ok(a && b);
    assert.ok(b.at - a.at >= 340, `second sent ${b.at - a.at} ms after the first`);
  });

  it('completes every request against a gateway-wide rate limit, each 429 free in the ledger', async () => {
    r = await rig({ settings: { limits: { maxConcurrent: 4, maxRetries: 6 } }, gateway: { rateLimit: { requests: 3, perMs: 300 }, ttftMs: 5 } });
    const all = await Promise.all(Array.from({ length: 12 }, (_, i) => drain(r.client.stream(ask('gpt-4.1', `q${i}`, { tag: { agent: 'analyst' } })))));
    assert.ok(all.every((x) => x.result), JSON.stringify(all.filter((x) => x.error).map((x) => String(x.error))));
    assert.equal(r.client.stats().rateLimited, r.gw.rateLimited);
    const free = r.ledger.entries().filter((e) => e.outcome === 'failed');
    assert.equal(free.length, r.gw.rateLimited);
    assert.ok(free.every((e) => e.costUsd === 0));
    assert.equal(r.ledger.totals().session.requests, 12);
    assert.equal(r.ledger.totals().session.retries, r.gw.rateLimited);
  });

  it('after a 429 that states its wait, sends the next request after that wait, not a whole budget unit later', async () => {
    // A budget of 4 a second, spent; the 429 says one request comes back in 30 ms; x-ratelimit-reset says the
    // whole budget is back in 1 s, i.e. one every 250 ms. The wait is the better news.
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 });
    try {
      const state = { n: 0 };
      const limited = { status: 429, message: 'Rate limit reached for requests', headers: { 'retry-after-ms': '30', 'x-ratelimit-limit-requests': '4', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' } };
      const gw = fakeClockGateway(undefined, () => (++state.n === 1 ? limited : { text: 'ok', serviceMs: 20 }));
      const settings = settingsSchema.parse({ gateway: { baseUrl: 'http://127.0.0.1:9/v1' } });
      const client = createGateway({ settings: () => settings, apiKey: () => KEY, tuning: { fetch: gw.fetch, random: () => 0, coolDownJitterMs: 0 } });
      await onFakeClock(() => drain(client.stream(ask('gpt-4.1'))), 10_000, { stepMs: 1 });
      client.dispose();
      const [first, second] = gw.requests;
      assert.equal(first?.status, 429);
      const gap = (second?.at ?? 0) - (first?.at ?? 0);
      assert.ok(gap >= 30 && gap < 100, `the retry went ${gap} ms after the 429`);
    } finally {
      mock.timers.reset();
    }
  });

  it('learns to space its sends from 429s when the gateway sends no rate-limit headers', async () => {
    r = await rig({
      settings: { limits: { maxConcurrent: 8, maxRetries: 2 } },
      gateway: { rateLimit: { requests: 2, perMs: 200 }, rateLimitHeaders: false, ttftMs: 5 },
    });
    const all = await Promise.all(Array.from({ length: 24 }, (_, i) => drain(r.client.stream(ask('gpt-4.1', `q${i}`)))));
    assert.deepEqual(all.filter((x) => x.error).map((x) => String(x.error)), []);
    assert.ok(r.gw.rateLimited < 24, `${r.gw.rateLimited} 429s for 24 requests`);
  });
});
