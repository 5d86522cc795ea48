import { strict as assert } from 'node:assert';
import { parseChunk, parseUsage } from '../../../src/core/gateway/chunks';
import { classifyHttp } from '../../../src/core/gateway/errors';
import { scrubSecrets } from '../../../src/core/redaction/redactor';
import { parseDuration, rateLimitState, retryAfterMs } from '../../../src/core/gateway/rateHeaders';
import { readSse, type SseItem } from '../../../src/core/gateway/sse';
import { closestModels } from '../../../src/core/gateway/suggest';

async function sse(parts: (string | Uint8Array)[]): Promise<SseItem[]> {
  const enc = new TextEncoder();
  // eslint-disable-next-line @typescript-eslint/require-await -- an async iterable, as a response body is
  async function* gen() {
    for (const p of parts) yield typeof p === 'string' ? enc.encode(p) : p;
  }
  const out: SseItem[] = [];
  for await (const item of readSse(gen())) out.push(item);
  return out;
}

const headers = (h: Record<string, string>) => new Headers(h);

describe('gateway parsing helpers', () => {
  it('SSE: joins split UTF-8, handles \\r\\n split between chunks, comments and a last event without blank line', async () => {
    const bytes = new TextEncoder().encode('data: {"t":"한"}\r\n\r\n');
    const items = await sse([': keep-alive\n\n', bytes.slice(0, 12), bytes.slice(12, 15), bytes.slice(15), 'data: a\r', '\ndata: b\r\n\r\nevent: error\ndata: last']);
    assert.deepEqual(items, [
      { kind: 'comment' },
      { kind: 'data', event: undefined, data: '{"t":"한"}' },
      { kind: 'data', event: undefined, data: 'a\nb' },
      { kind: 'data', event: 'error', data: 'last' },
    ]);
  });

  it('durations and waits: 6m0s, 1.5s, 250ms, seconds, HTTP dates, garbage', () => {
    assert.equal(parseDuration('6m0s'), 360_000);
    assert.equal(parseDuration('1h2m3.5s'), 3_723_500);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('20'), 20_000);
    assert.equal(parseDuration('soon'), undefined);
    assert.equal(retryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' })), 1500);
    assert.equal(retryAfterMs(headers({ 'retry-after': '2' })), 2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now), 30_000);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 00:00:30 GMT' }), now), 0);
    assert.equal(retryAfterMs(headers({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '6m0s', 'x-ratelimit-reset-requests': '1s' })), 360_000);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'banana' })), undefined);
    assert.deepEqual(rateLimitState(headers({ 'x-ratelimit-limit-requests': '20', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' })), {
      limitRequests: 20,
      remainingRequests: 0,
      resetRequestsMs: 1000,
    });
  });

  it('chunks: usage variants (OpenAI, DeepSeek cache hits, string numbers, cost) and junk', () => {
    assert.deepEqual(parseUsage({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 2 } }), {
      promptTokens: 10,
      completionTokens: 5,
      cachedTokens: 4,
      reasoningTokens: 2,
    });
    assert.equal(parseUsage({ prompt_tokens: 10, completion_tokens: 5, prompt_cache_hit_tokens: 7 })?.cachedTokens, 7);
    assert.equal(parseUsage({ prompt_tokens: '10', completion_tokens: 5, cost: 0.5 })?.costUsd, 0.5);
    assert.equal(parseUsage({ prompt_tokens: 3, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 99 } })?.cachedTokens, 3);
    assert.equal(parseUsage('nonsense'), undefined);
    assert.equal(parseUsage({ prompt_tokens: -4, completion_tokens: 'x' }), undefined);
    const c = parseChunk({ choices: [{ delta: { content: 'hi', reasoning_content: 'hmm' }, finish_reason: null }], usage: null });
    assert.deepEqual(c, { content: 'hi', reasoning: 'hmm' });
    assert.equal(parseChunk({ choices: 'bad' })?.content, '');
    assert.equal(parseChunk({ error: { message: 'boom', code: 503 } })?.error?.code, 503);
  });

  it('classifies quota wording apart from per-minute rate limits', () => {
    const base = { model: 'm', message: '' };
    assert.equal(classifyHttp({ ...base, status: 429, message: 'Quota exceeded for quota metric requests per minute' }).error.code, 'rate-limited');
    assert.equal(classifyHttp({ ...base, status: 429, message: 'Your credit balance is too low' }).error.code, 'quota');
    assert.equal(classifyHttp({ ...base, status: 429, message: 'slow', waitMs: 121_000 }).retryable, false);
    assert.equal(classifyHttp({ ...base, status: 501 }).retryable, false);
    assert.equal(classifyHttp({ ...base, status: 400, message: 'The model `foo` does not exist' }).error.code, 'model-not-found');
  });

  it('redacts the key, bearer tokens and key fragments', () => {
    const key = 'sk-proj-ABCDEFGH12345678wxyz';
    const text = scrubSecrets(`bad key ${key}; Authorization: Bearer ${key}; hint sk-proj-ABCD****wxyz`, key);
    assert.ok(!text.includes('ABCDEFGH') && !text.includes('12345678'), text);
  });

  it('suggests close model ids, best first', () => {
    const known = ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'];
    assert.equal(closestModels('gpt4.1', known)[0], 'gpt-4.1');
    assert.equal(closestModels('claude-sonnet-4-5', known)[0], 'claude-sonnet-4.5');
    assert.equal(closestModels('deepseek', known)[0], 'deepseek-v3.2');
    assert.deepEqual(closestModels('zzzzzzzzzz', known), []);
  });
});
