import { strict as assert } from 'node:assert';
import { GatewayError } from '../../../src/core/gateway/types';
import { ask, drain, KEY, rig, type Rig } from './helpers';

describe('gateway client: streaming', () => {
  let r: Rig;
  afterEach(async () => r?.close());

  it('streams text deltas and ends with text, usage, finish reason, model, attempts and request id', async () => {
    r = await rig({ gateway: { reply: 'Line one.\nLine two: 한국어 텍스트.' } });
    const { deltas, result, error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(error, undefined);
    assert.ok(result);
    assert.ok(deltas.length > 1, 'more than one delta');
    assert.equal(deltas.join(''), 'Line one.\nLine two: 한국어 텍스트.');
    assert.equal(result.text, deltas.join(''));
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.model, 'gpt-4.1');
    assert.equal(result.attempts, 1);
    assert.equal(result.usageSource, 'reported');
    const served = r.gw.served[0];
    assert.ok(served?.usage);
    assert.equal(result.usage.promptTokens, served.usage.prompt_tokens);
    assert.equal(result.usage.completionTokens, served.usage.completion_tokens);
    assert.equal(result.requestId, served.requestId);
    assert.ok(result.costUsd > 0);
  });

  it('sends the request the protocol expects: bearer key, stream with usage, max_tokens, extra headers', async () => {
    r = await rig({ settings: { gateway: { extraHeaders: { 'X-Team': 'quorum' } } } });
    await drain(r.client.stream(ask('deepseek-v3.2', 'hi', { maxTokens: 321, temperature: 0.2, responseFormat: 'json_object' })));
    const req = r.gw.requests.find((q) => q.path.endsWith('/chat/completions'));
    assert.ok(req?.body);
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.equal(req.headers['x-team'], 'quorum');
    assert.equal(req.body.stream, true);
    assert.deepEqual(req.body.stream_options, { include_usage: true });
    assert.equal(req.body.max_tokens, 321);
    assert.equal(req.body.temperature, 0.2);
    assert.deepEqual(req.body.response_format, { type: 'json_object' });
  });

  it('lets the script choose the reply per model and request', async () => {
    r = await rig();
    r.gw.script((q) => (q.model === 'gpt-4.1' ? { text: `first ${q.modelSeq}` } : { text: 'other' }));
    const a = await drain(r.client.stream(ask('gpt-4.1')));
    const b = await drain(r.client.stream(ask('gpt-4.1')));
    const c = await drain(r.client.stream(ask('gemini-2.5-flash')));
    assert.deepEqual([a.result?.text, b.result?.text, c.result?.text], ['first 1', 'first 2', 'other']);
  });

  it('fails with code auth and a clear message when no key is set, without calling the gateway', async () => {
    r = await rig({ key: undefined });
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'auth');
    assert.match(error.message, /API key/);
    assert.equal(r.gw.requests.length, 0);
  });

  it('maps a rejected key to auth and never shows the key in errors or logs', async () => {
    r = await rig({ key: 'sk-wrong-key-abcdefghijkl' });
    r.gw.script(() => ({ kind: 'error', status: 401, message: 'Incorrect API key provided: sk-wrong-key-abcdefghijkl', code: 'invalid_api_key' }));
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'auth');
    assert.equal(r.gw.requests.length, 1, '401 is not retried');
    const everything = JSON.stringify({ e: error.toJSON(), m: error.message, logs: r.logs });
    assert.ok(!everything.includes('abcdefghijkl'), 'key fragment leaked');
  });

  it('lists the gateway models', async () => {
    r = await rig({ gateway: { models: ['m-one', 'm-two'], contextWindow: 128000 } });
    const models = await r.client.listModels();
    assert.deepEqual(models.map((m) => m.id), ['m-one', 'm-two']);
    assert.equal(models[0]?.contextWindow, 128000);
  });
});
