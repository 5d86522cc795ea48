import { strict as assert } from 'node:assert';
import { GatewayError } from '../../../src/core/gateway/types';
import { sseBody } from '../../fixtures/gateway/emulators/emulator';
import type { Reply } from '../../fixtures/gateway/server';
import { ask, drain, rig, type Rig } from './helpers';

const ANSWER = '{"findings":[{"severity":"high","title":"SQL injection","explanation":"x","startLine":1,"endLine":1}]}';
const raw = (body: string): Reply => ({ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body });
const cut = (lines: string[], pieces = 3) => raw(sseBody({ model: 'gpt-4.1', text: ANSWER, failAfter: { pieces, lines } }));

/** Each form of a failing stream (sources: test/fixtures/gateway/emulators/local.ts and relays.ts). */
const FORMS: [string, Reply, RegExp][] = [
  ['data: {"error":…} inside the 200 stream (relays)', cut([`data: ${JSON.stringify({ error: { message: 'bad response status code 500', type: 'new_api_error', code: 'bad_response_status_code' } })}\n\n`, 'data: [DONE]\n\n']), /bad response status code 500/],
  ["llama.cpp's `error:` SSE field, then [DONE]", cut([`error: ${JSON.stringify({ code: 500, message: 'the prompt and answer exceed the context size (n_ctx = 4096)', type: 'server_error' })}\n\n`, 'data: [DONE]\n\n']), /exceed the context size/],
  ['a bare JSON error line (Ollama)', cut(['{"error":"llama runner process has terminated: signal: killed"}\n']), /llama runner process has terminated/],
  ['finish_reason "error"', raw(sseBody({ model: 'gpt-4.1', text: ANSWER.slice(0, 30), finish: 'error', usage: 'none' })), /stopped with an error/],
  ['a stream that ends without a finish reason, mid-answer', cut([]), /ended before the answer was complete/],
];

describe('gateway client: a stream that fails is never a review', function () {
  this.timeout(20_000);
  let r: Rig;
  afterEach(async () => r?.close());

  for (const [name, reply, words] of FORMS) {
    it(`${name}: the attempt fails with the server's words, its partial text kept, not retried once text came`, async () => {
      r = await rig({ settings: { limits: { maxRetries: 2 } } });
      r.gw.enqueue(reply);
      const { result, error } = await drain(r.client.stream(ask('gpt-4.1')));
      assert.equal(result, undefined, 'no result');
      assert.ok(error instanceof GatewayError);
      assert.match(error.message, words);
      assert.equal(r.gw.requests.filter((q) => q.path.endsWith('/chat/completions')).length, 1, 'text had arrived: not retried');
      if (name !== 'finish_reason "error"') assert.ok((error.partialText ?? '').length > 0, 'the partial answer is kept');
    });
  }

  it("an error in a whole JSON body answered with HTTP 200 (a relay's) is the relay's error: no channel fails fast", async () => {
    r = await rig({ settings: { limits: { maxRetries: 2 } } });
    r.gw.script(() => ({ kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: false, message: '当前分组 default 下对于模型 gpt-4.1 无可用渠道' }) }));
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'model-not-found');
    assert.match(error.message, /无可用渠道/);
    assert.equal(r.gw.requests.filter((q) => q.path.endsWith('/chat/completions')).length, 1);
  });

  it('an error before any text is retried where it may be (a 5xx inside the stream), and the retry answers', async () => {
    r = await rig({ settings: { limits: { maxRetries: 2 } } });
    r.gw.enqueue(cut([`error: ${JSON.stringify({ code: 503, message: 'loading model', type: 'unavailable_error' })}\n\n`, 'data: [DONE]\n\n'], 0));
    const { result, error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(error, undefined);
    assert.equal(result?.attempts, 2);
  });
});
