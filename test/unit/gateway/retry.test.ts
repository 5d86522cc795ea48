import { strict as assert } from 'node:assert';
import { GatewayError } from '../../../src/core/gateway/types';
import type { Reply } from '../../fixtures/gateway/server';
import { ask, drain, rig, type Rig } from './helpers';

async function fails(r: Rig, model = 'gpt-4.1', extra = {}) {
  const out = await drain(r.client.stream(ask(model, 'Review.', extra)));
  assert.ok(out.error instanceof GatewayError, `expected a GatewayError, got ${String(out.error)} / ${JSON.stringify(out.result)}`);
  return out.error;
}
const chats = (r: Rig) => r.gw.requests.filter((q) => q.path.endsWith('/chat/completions'));

describe('gateway client: retries and error codes', () => {
  let r: Rig;
  afterEach(async () => r?.close());

  for (const status of [500, 502, 503, 504, 529, 408, 409]) {
    it(`retries ${status} and succeeds`, async () => {
      r = await rig();
      r.gw.enqueue({ kind: 'error', status, message: 'upstream trouble' });
      const { result, error } = await drain(r.client.stream(ask('gpt-4.1')));
      assert.equal(error, undefined);
      assert.equal(result?.attempts, 2);
      assert.equal(chats(r).length, 2);
      assert.equal(r.client.stats().retries, 1);
    });
  }

  it('retries a connection dropped before any response', async () => {
    r = await rig();
    r.gw.enqueue({ kind: 'drop' }, { kind: 'drop' });
    const { result } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(result?.attempts, 3);
  });

  it('gives up after maxRetries with the last error', async () => {
    r = await rig({ settings: { limits: { maxRetries: 2 } } });
    r.gw.script(() => ({ kind: 'error', status: 503, message: 'overloaded' }));
    const error = await fails(r);
    assert.equal(error.code, 'server');
    assert.equal(error.status, 503);
    assert.equal(error.attempts, 3);
    assert.equal(chats(r).length, 3);
  });

  const final: [string, object, string][] = [
    ['400', { kind: 'error', status: 400, message: 'Invalid value for temperature' }, 'bad-response'],
    ['401', { kind: 'error', status: 401, message: 'bad key' }, 'auth'],
    ['403', { kind: 'error', status: 403, message: 'not allowed for this key' }, 'forbidden'],
    ['402', { kind: 'error', status: 402, message: 'Payment required' }, 'quota'],
    ['insufficient_quota', { kind: 'error', status: 429, message: 'You exceeded your current quota, please check your plan and billing details.', code: 'insufficient_quota', headers: { 'retry-after': '1' } }, 'quota'],
    ['413', { kind: 'error', status: 413, message: 'Request Entity Too Large' }, 'too-large'],
    ['context length', { kind: 'error', status: 400, message: "This model's maximum context length is 8192 tokens", code: 'context_length_exceeded' }, 'too-large'],
    ['429 request too large', { kind: 'error', status: 429, message: 'Request too large for gpt-4.1 on tokens per min (TPM): Limit 30000, Requested 45000.', type: 'tokens', code: 'rate_limit_exceeded' }, 'too-large'],
  ];
  for (const [name, reply, code] of final) {
    it(`does not retry ${name} (code ${code})`, async () => {
      r = await rig();
      r.gw.script(() => reply);
      const error = await fails(r);
      assert.equal(error.code, code);
      assert.equal(chats(r).length, 1);
    });
  }

  it('answers model-not-found with the closest ids from /models', async () => {
    r = await rig({ gateway: { models: ['gpt-4.1', 'gpt-4.1-mini', 'claude-sonnet-4.5', 'deepseek-v3.2'] } });
    r.gw.script((q) => (q.model === 'gpt-4.l' ? { kind: 'error', status: 404, message: 'The model `gpt-4.l` does not exist', code: 'model_not_found' } : undefined));
    const error = await fails(r, 'gpt-4.l');
    assert.equal(error.code, 'model-not-found');
    assert.equal(error.suggestions?.[0], 'gpt-4.1');
    assert.ok(!error.suggestions?.includes('deepseek-v3.2'));
    assert.equal(chats(r).length, 1);
  });

  it('still answers model-not-found when /models fails', async () => {
    r = await rig();
    r.gw.script((q) => (q.path.endsWith('/models') ? { kind: 'error', status: 500 } : { kind: 'error', status: 404, message: 'no such model' }));
    const error = await fails(r, 'nope');
    assert.equal(error.code, 'model-not-found');
    assert.equal(error.suggestions, undefined);
  });

  it('fails at once when a 429 asks to wait more than 120 s, with the wait in the error', async () => {
    r = await rig();
    r.gw.script(() => ({ kind: 'error', status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6m0s' } }));
    const error = await fails(r);
    assert.equal(error.code, 'rate-limited');
    assert.equal(error.retryAfterMs, 360_000);
    assert.match(error.message, /360 s/);
    assert.equal(chats(r).length, 1);
  });

  it('retries a 429 after the time in retry-after (HTTP date) and counts it', async () => {
    r = await rig();
    r.gw.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': new Date(Date.now() + 1000).toUTCString() } });
    const { result } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(result?.attempts, 2);
    const [first, second] = chats(r);
    assert.ok(first && second);
    // An HTTP date has one-second resolution: the retry comes no earlier than the start of that second.
    assert.ok(second.at >= Math.floor((first.at + 1000) / 1000) * 1000 - 1000, 'retried before the date');
    assert.equal(r.client.stats().rateLimited, 1);
  });

  it('retries 429s that state a wait until they are answered, not counting them against maxRetries', async () => {
    r = await rig({ settings: { limits: { maxRetries: 1 } } });
    let n = 0;
    r.gw.script(() => (++n <= 6 ? { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '5' } } : { text: 'at last' }));
    const { result, error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(error, undefined);
    assert.equal(result?.text, 'at last');
    assert.equal(result?.attempts, 7);
    assert.equal(r.client.stats().rateLimited, 6);
  });

  it('backs off 429s that state no wait (LiteLLM parallel limit) and retries them past maxRetries too', async () => {
    r = await rig({ settings: { limits: { maxRetries: 0 } } });
    let n = 0;
    r.gw.script(() => (++n <= 4 ? { kind: 'error', status: 429, message: 'Max parallel request limit reached' } : { text: 'through' }));
    const { result, error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(error, undefined);
    assert.equal(result?.attempts, 5);
  });

  it('still counts 5xx against maxRetries between 429s', async () => {
    r = await rig({ settings: { limits: { maxRetries: 1 } } });
    const replies: Reply[] = [
      { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '5' } },
      { kind: 'error', status: 503 },
      { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '5' } },
      { kind: 'error', status: 502 },
    ];
    r.gw.script(() => replies.shift() ?? { text: 'never reached' });
    const error = await fails(r);
    assert.equal(error.code, 'server');
    assert.equal(chats(r).length, 4);
  });

  it('fails a 429 at once, naming the wait, when the stated wait ends past the request’s deadline', async () => {
    r = await rig({ settings: { limits: { deadlineSeconds: 3 } } });
    r.gw.script(() => ({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '20' } }));
    const error = await fails(r);
    // Not 'timeout': the request did not sit out its deadline in the cool-down.
    assert.equal(error.code, 'rate-limited');
    assert.equal(error.retryAfterMs, 20_000);
    assert.match(error.message, /wait 20 s, past the request's deadline/);
    assert.equal(chats(r).length, 1);
  });

  it('tries the fallback model once the primary’s retries are spent', async () => {
    r = await rig({ settings: { limits: { maxRetries: 1 } } });
    r.gw.script((q) => (q.model === 'gpt-4.1' ? { kind: 'error', status: 503 } : { text: 'from the fallback' }));
    const { result, error } = await drain(r.client.stream(ask('gpt-4.1', 'x', { fallbackModel: 'deepseek-v3.2' })));
    assert.equal(error, undefined);
    assert.equal(result?.model, 'deepseek-v3.2');
    assert.equal(result?.text, 'from the fallback');
    assert.equal(result?.attempts, 3);
    assert.equal(r.client.stats().fallbacks, 1);
  });

  it('does not fall back on auth or quota errors', async () => {
    r = await rig();
    r.gw.script(() => ({ kind: 'error', status: 429, message: 'insufficient_quota', code: 'insufficient_quota' }));
    const error = await fails(r, 'gpt-4.1', { fallbackModel: 'deepseek-v3.2' });
    assert.equal(error.code, 'quota');
    assert.deepEqual(chats(r).map((q) => q.model), ['gpt-4.1']);
  });

  it('drops response_format once the gateway refuses it and remembers that for the model', async () => {
    r = await rig();
    r.gw.script((q) =>
      q.body?.response_format ? { kind: 'error', status: 400, message: "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model." } : { text: '{"findings": []}' },
    );
    const first = await drain(r.client.stream(ask('claude-sonnet-4.5', 'x', { responseFormat: 'json_object' })));
    assert.equal(first.result?.text, '{"findings": []}');
    const second = await drain(r.client.stream(ask('claude-sonnet-4.5', 'x', { responseFormat: 'json_object' })));
    assert.equal(second.error, undefined);
    const sent = chats(r).map((q) => q.body?.response_format !== undefined);
    assert.deepEqual(sent, [true, false, false]);
    const other = await drain(r.client.stream(ask('gpt-4.1', 'x', { responseFormat: 'json_object' })));
    assert.equal(other.error, undefined);
    assert.equal(chats(r)[3]?.body?.response_format !== undefined, true, 'another model still gets response_format');
  });

  it('does not re-send a stream that broke after content: keeps the partial text and says so', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'abcdefghijklmnopqrstuvwxyz', breakAfterTokens: 3 });
    const out = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(out.error instanceof GatewayError);
    assert.equal(out.error.code, 'network');
    assert.equal(out.error.partialText, 'abcdefghijkl');
    assert.equal(out.deltas.join(''), 'abcdefghijkl');
    assert.match(out.error.message, /partial/);
    assert.equal(chats(r).length, 1);
    const entry = r.ledger.entries()[0];
    assert.equal(entry?.outcome, 'failed');
    assert.equal(entry?.costSource, 'estimated');
    assert.ok((entry?.usage.completionTokens ?? 0) > 0, 'the partial answer is billed');
  });

  it('re-sends a stream that broke before any content', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'abc', breakAfterTokens: 0 });
    const out = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(out.error, undefined);
    assert.equal(out.result?.attempts, 2);
  });

  it('fails at once when a 503 asks to wait more than 120 s, and honours a shorter Retry-After for everyone', async () => {
    r = await rig();
    r.gw.enqueue({ kind: 'error', status: 503, message: 'maintenance', headers: { 'retry-after': '600' } });
    const error = await fails(r);
    assert.equal(error.code, 'server');
    assert.equal(error.retryAfterMs, 600_000);
    assert.match(error.message, /600 s/);
    r.gw.enqueue({ kind: 'error', status: 503, message: 'busy', headers: { 'retry-after-ms': '300' } });
    const ok = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(ok.result?.attempts, 2);
    const [, busy, retry] = chats(r);
    assert.ok(busy && retry && retry.at - busy.at >= 300);
  });

  it('says so when the gateway has no /models', async () => {
    r = await rig();
    r.gw.script((q) => (q.path.endsWith('/models') ? { kind: 'error', status: 404, message: 'Not Found' } : undefined));
    await assert.rejects(r.client.listModels(), (e: unknown) => e instanceof GatewayError && e.code === 'bad-response' && /\/models/.test(e.message));
  });

  it('maps /models errors to codes (auth) and cancellation to cancelled', async () => {
    r = await rig({ key: 'sk-other-key-abcdefgh' });
    await assert.rejects(r.client.listModels(), (e: unknown) => e instanceof GatewayError && e.code === 'auth');
    const ac = new AbortController();
    r.gw.script(() => ({ kind: 'hang' }));
    const p = r.client.listModels({ signal: ac.signal });
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof GatewayError && e.code === 'cancelled');
  });

  it('refuses new requests after dispose with code cancelled', async () => {
    r = await rig();
    r.client.dispose();
    r.client.dispose();
    const error = await fails(r);
    assert.equal(error.code, 'cancelled');
  });

  it('bills usage that an error answer reports (the model ran) and nothing for one that reports none', async () => {
    r = await rig({ settings: { limits: { maxRetries: 0 } } });
    r.gw.enqueue({ kind: 'raw', status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'model crashed', usage: { prompt_tokens: 1000, completion_tokens: 10 } }) });
    const error = await fails(r);
    assert.equal(error.code, 'server');
    const entry = r.ledger.entries()[0];
    assert.equal(entry?.usage.promptTokens, 1000);
    assert.equal(entry?.costSource, 'usage'); // priced by the table from the gateway's token counts (it sent no cost)
    r.gw.enqueue({ kind: 'error', status: 500, message: 'no usage here' });
    await fails(r);
    assert.equal(r.ledger.entries()[1]?.costUsd, 0);
  });
});

describe('gateway client: a gateway nobody answers for', () => {
  it('gives a refused connection one quick retry, then fails with network (not maxRetries of backoff)', async () => {
    const { createServer } = await import('node:http');
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const r = await rig({ settings: { gateway: { baseUrl: `http://127.0.0.1:${port}/v1` }, limits: { maxRetries: 4 } }, tuning: { backoffBaseMs: 5 } });
    try {
      const seen: number[] = [];
      const out = await drain(r.client.stream(ask('gpt-4.1', 'x', { fallbackModel: 'deepseek-v3.2' }), { onRetry: (i) => seen.push(i.attempt) }));
      assert.ok(out.error instanceof GatewayError);
      assert.equal(out.error.code, 'network');
      assert.match(out.error.message, /refused the connection \(ECONNREFUSED\)/);
      assert.equal(out.error.attempts, 2);
      assert.deepEqual(seen, [2], 'one retry, no fallback to another model on the same gateway');
    } finally {
      await r.close();
    }
  });
});
