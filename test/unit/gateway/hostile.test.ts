import { strict as assert } from 'node:assert';
import { costOf, priceFor } from '../../../src/core/cost/prices';
import { GATEWAY_ERROR_CODES } from '../../../src/shared/reviewCodes';
import { GatewayError } from '../../../src/core/gateway/types';
import { mock } from 'node:test';
import { onFakeClock } from '../../fixtures/gateway/fakeClockGateway';
import type { Reply } from '../../fixtures/gateway/server';
import { ask, drain, KEY, rig, type Rig } from './helpers';

/** A small seeded generator, so that a failing mix can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAULTS: ((rnd: () => number) => Reply)[] = [
  () => ({ text: 'a fine answer' }),
  () => ({ text: 'cached prompt', cachedTokens: 7 }),
  () => ({ text: 'gateway priced', cost: 0.00042 }),
  () => ({ text: 'every chunk usage', usage: 'every-chunk' }),
  () => ({ text: 'no usage at all', usage: 'none' }),
  () => ({ text: '한국어 분할 응답 ✅', splitBytes: 3, crlf: true, keepAliveMs: 5, leadingComments: 2 }),
  (rnd) => ({ kind: 'error', status: [500, 502, 503, 529, 408, 409][Math.floor(rnd() * 6)] as number, message: 'upstream trouble' }),
  () => ({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '15' } }),
  () => ({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': 'garbage' } }),
  () => ({ kind: 'error', status: 429, message: 'wait a long time', headers: { 'retry-after': '3600' } }),
  () => ({ kind: 'error', status: 429, message: 'You exceeded your current quota', code: 'insufficient_quota' }),
  () => ({ kind: 'error', status: 400, message: 'bad request' }),
  () => ({ kind: 'drop' }),
  () => ({ text: 'breaks midway through', breakAfterTokens: 2, usage: 'every-chunk' }),
  () => ({ text: 'breaks midway, no usage', breakAfterTokens: 2, usage: 'none' }),
  () => ({ text: 'ends early', endAfterTokens: 1 }),
  () => ({ text: 'no done marker', omitDone: true }),
  () => ({ text: 'stalls', stallAfterTokens: 1, keepAliveMs: 100, usage: 'every-chunk' }),
  () => ({ text: 'x', streamError: { afterTokens: 0, message: 'overloaded', type: 'server_error' } }),
  () => ({ text: 'error after text', streamError: { afterTokens: 1, message: 'died', type: 'server_error' }, usage: 'every-chunk' }),
  () => ({ text: 'bad finish', finishReason: 'error' }),
  () => ({ text: 'no finish reason', finishReason: null }),
  () => ({ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'data: {oops\n\n' }),
  () => ({ kind: 'raw', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>login</html>' }),
  () => ({ kind: 'raw', status: 200, headers: {}, body: JSON.stringify({ choices: [{ message: { content: 'json, no type' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 3 } }) }),
  () => ({ kind: 'raw', status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad Gateway</h1>' }),
  () => ({ kind: 'json', text: 'non-streamed' }),
  () => ({ text: 'many choices' }),
];

describe('gateway client against a hostile gateway', function () {
  this.timeout(60_000);
  let r: Rig;
  afterEach(async () => r?.close());

  for (const seed of [1, 2]) {
    it(`ends every request in a result or a coded error, never leaks the key, and bills what was served (seed ${seed})`, async () => {
      r = await rig({ settings: { limits: { maxConcurrent: 6, maxRetries: 2, idleTimeoutSeconds: 1, deadlineSeconds: 8 } } });
      const rnd = prng(seed);
      r.gw.script((q) => (q.path.endsWith('/chat/completions') ? (FAULTS[Math.floor(rnd() * FAULTS.length)] as (x: () => number) => Reply)(rnd) : undefined));
      const models = ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'];
      // On a fake clock: the idle watchdog, the deadline, backoffs and the gateway's own pauses move only when
      // the event loop has nothing else to do, so a busy machine cannot make an answer that was on its way look
      // like a stall (the client gave up on it while the gateway counted it served).
      mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: Date.now() });
      let outcomes: Awaited<ReturnType<typeof drain>>[];
      try {
        ({ value: outcomes } = await onFakeClock(
          () => Promise.all(Array.from({ length: 40 }, (_, i) => drain(r.client.stream(ask(models[i % 4] as string, `req ${i}`, { tag: { agent: `agent-${i % 4}` }, fallbackModel: i % 5 === 0 ? 'gpt-4.1-mini' : undefined }))))),
          60_000,
          { stepMs: 1 },
        ));
      } finally {
        mock.timers.reset();
      }
      let ok = 0;
      for (const o of outcomes) {
        if (o.result) {
          ok++;
          assert.equal(o.result.text, o.deltas.join(''));
        } else {
          assert.ok(o.error instanceof GatewayError, `not a GatewayError: ${String(o.error)}`);
          assert.ok((GATEWAY_ERROR_CODES as readonly string[]).includes(o.error.code));
          if (o.error.partialText) assert.equal(o.error.partialText, o.deltas.join(''));
          assert.ok(!JSON.stringify(o.error.toJSON()).includes(KEY.slice(3, 15)));
        }
      }
      assert.ok(ok > 0 && ok < 40, `a real mix: ${ok} of 40 succeeded`);
      assert.equal(r.client.stats().inFlight, 0);
      assert.equal(r.client.stats().queued, 0);
      assert.ok(!JSON.stringify(r.logs).includes(KEY.slice(3, 15)), 'the key is not in the logs');

      // The ledger's reported portion equals what the gateway served, to the cent (here: to 1e-12).
      let served = 0;
      for (const s of r.gw.served) {
        if (!s.usage) continue;
        const u = s.usage;
        served += u.cost ?? costOf(priceFor(s.model)!.price, { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, cachedTokens: u.prompt_tokens_details.cached_tokens });
      }
      const t = r.ledger.totals().session;
      const unmatched = r.gw.served
        .filter((s) => s.usage)
        .filter((s) => {
          const e = r.ledger.entries().find((x) => x.requestId === s.requestId);
          return !e || e.costSource === 'estimated' || e.usage.promptTokens !== s.usage?.prompt_tokens || e.usage.completionTokens !== s.usage?.completion_tokens;
        })
        .map((s) => ({ seq: s.seq, text: s.text, at: r.gw.requests.find((q) => q.seq === s.seq)?.at, entry: r.ledger.entries().find((x) => x.requestId === s.requestId) }));
      const noId = r.ledger.entries().filter((e) => !e.requestId).map((e) => `${e.model}/${e.attempt}/${e.outcome}/${e.usage.promptTokens}`);
      assert.ok(Math.abs(t.costUsd - t.estimatedUsd - served) < 1e-12, `ledger ${t.costUsd - t.estimatedUsd} vs served ${served}: ${JSON.stringify(unmatched)} no id: ${noId.join(" ")} logs: ${JSON.stringify(r.logs.filter((l) => l.level !== "info").map((l) => `${l.at} ${l.message}`))}`);
      // Every HTTP attempt that got an answer is in the ledger exactly once.
      const chatAttempts = r.gw.requests.filter((q) => q.path.endsWith('/chat/completions')).length;
      assert.equal(r.ledger.entries().length, chatAttempts);
    });
  }
});
