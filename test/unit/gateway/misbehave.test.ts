import { strict as assert } from 'node:assert';
import { GatewayError } from '../../../src/core/gateway/types';
import { ask, drain, rig, type Rig } from './helpers';

const chats = (r: Rig) => r.gw.requests.filter((q) => q.path.endsWith('/chat/completions'));
const KOREAN = '보안 검토: SQL 인젝션 위험이 있습니다 — 매개변수화된 쿼리를 쓰세요. ✅';

describe('gateway client: streams that misbehave', () => {
  let r: Rig;
  afterEach(async () => r?.close());

  it('reads keep-alive comments, chunks split inside UTF-8 characters and \\r\\n line ends', async () => {
    r = await rig();
    r.gw.enqueue({ text: KOREAN, splitBytes: 5, crlf: true, leadingComments: 3, keepAliveMs: 2 });
    const { result, deltas, error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(error, undefined);
    assert.equal(result?.text, KOREAN);
    assert.equal(deltas.join(''), KOREAN);
    assert.equal(result?.usageSource, 'reported');
  });

  it('takes the last usage when it is repeated on every chunk, never the sum', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'one two three four five six', usage: 'every-chunk' });
    const { result } = await drain(r.client.stream(ask('gpt-4.1')));
    const served = r.gw.served[0]?.usage;
    assert.ok(served && result);
    assert.equal(result.usage.completionTokens, served.completion_tokens);
    assert.equal(result.usage.promptTokens, served.prompt_tokens);
  });

  it('estimates usage with the tokenizer when the gateway reports none, and labels it', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'an answer without usage', usage: 'none' });
    const { result } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(result?.usageSource, 'estimated');
    assert.equal(result?.costSource, 'estimated');
    assert.ok((result?.usage.promptTokens ?? 0) > 0 && (result?.usage.completionTokens ?? 0) > 0);
    assert.equal(r.ledger.totals().session.estimatedUsd, result?.costUsd);
  });

  it('takes the prompt tokens the caller counted (the review plan has) instead of counting the prompt again', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'an answer without usage', usage: 'none' });
    const { result } = await drain(r.client.stream(ask('gpt-4.1', 'Review this code.', { promptTokens: 4321 })));
    assert.equal(result?.usageSource, 'estimated');
    assert.equal(result?.usage.promptTokens, 4321);
  });

  it('retries an error object inside a 200 stream that came before any content', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'x', streamError: { afterTokens: 0, message: 'upstream overloaded', type: 'server_error' } });
    const { result, error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(error, undefined);
    assert.equal(result?.attempts, 2);
  });

  it('fails with the partial text on an error object after content', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'partial answer here', streamError: { afterTokens: 2, message: 'upstream died', type: 'server_error' } });
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'server');
    assert.equal(error.partialText, 'partial ');
    assert.equal(chats(r).length, 1);
  });

  it('classifies a rate-limit error object inside the stream as rate-limited', async () => {
    // A 429 is retried until the deadline whatever maxRetries says; the retry notice carries the classification.
    r = await rig({ settings: { limits: { maxRetries: 0 } } });
    r.gw.enqueue({ text: 'x', streamError: { afterTokens: 0, message: 'Rate limit exceeded', code: 429 } });
    const codes: string[] = [];
    const { result } = await drain(r.client.stream(ask('gpt-4.1'), { onRetry: (i) => codes.push(i.code) }));
    assert.deepEqual(codes, ['rate-limited']);
    assert.equal(result?.attempts, 2);
    assert.equal(r.client.stats().rateLimited, 0, 'a 200 stream is not counted as a 429 answer');
  });

  it('treats finish_reason "error" as a failure and "length" as a truncated success', async () => {
    r = await rig({ settings: { limits: { maxRetries: 0 } } });
    r.gw.enqueue({ text: 'half', finishReason: 'error' }, { text: 'cut short', finishReason: 'length' });
    const a = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(a.error instanceof GatewayError);
    assert.equal(a.error.code, 'server');
    assert.equal(a.error.partialText, 'half');
    const b = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(b.result?.finishReason, 'length');
    assert.equal(b.result?.text, 'cut short');
  });

  it('accepts a finished stream without [DONE] and rejects an unfinished one as partial', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'complete answer', omitDone: true }, { text: 'never finished answer', endAfterTokens: 2 });
    const a = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(a.result?.text, 'complete answer');
    const b = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(b.error instanceof GatewayError);
    assert.equal(b.error.code, 'network');
    assert.equal(b.error.partialText, 'never fi');
  });

  it('ends a stalled stream with the idle watchdog even though keep-alive comments keep coming', async () => {
    r = await rig({ settings: { limits: { idleTimeoutSeconds: 1 } } });
    r.gw.enqueue({ text: 'stalls after this', stallAfterTokens: 2, keepAliveMs: 50 });
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'timeout');
    assert.equal(error.partialText, 'stalls a');
    assert.match(error.message, /no data .* 1 s/);
    assert.equal(chats(r).length, 1);
    assert.equal(r.client.stats().inFlight, 0);
  });

  it('retries a gateway that never answers, then gives up with timeout', async () => {
    r = await rig({ settings: { limits: { idleTimeoutSeconds: 1, maxRetries: 1 } } });
    r.gw.script(() => ({ kind: 'hang' }));
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'timeout');
    assert.equal(chats(r).length, 2);
  });

  it('ends a stream that trickles on past the overall deadline', async () => {
    r = await rig({ settings: { limits: { idleTimeoutSeconds: 5, deadlineSeconds: 1 } } });
    r.gw.enqueue({ text: 'x'.repeat(400), tokensPerSecond: 20 });
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'timeout');
    assert.match(error.message, /within 1 s/);
    assert.ok((error.partialText ?? '').length > 0);
  });

  it('counts reasoning_content but never shows it as the answer', async () => {
    r = await rig();
    r.gw.enqueue({ reasoning: 'let me think about this carefully', text: 'final answer', usage: 'none' });
    const { result, deltas } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(result?.text, 'final answer');
    assert.equal(deltas.join(''), 'final answer');
    assert.ok((result?.usage.reasoningTokens ?? 0) > 0);
    assert.ok((result?.usage.completionTokens ?? 0) > (result?.usage.reasoningTokens ?? 0));
  });

  it('reads a gateway that ignores stream:true and answers one JSON completion', async () => {
    r = await rig();
    r.gw.enqueue({ kind: 'json', text: 'whole answer', cachedTokens: 5 });
    const { result } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(result?.text, 'whole answer');
    assert.equal(result?.usage.cachedTokens, 5);
    assert.equal(result?.usageSource, 'reported');
  });

  it('reports an unreadable stream as bad-response', async () => {
    r = await rig({ settings: { limits: { maxRetries: 0 } } });
    r.gw.enqueue({ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'data: {not json\n\n' });
    const { error } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'bad-response');
  });

  it('cancels through the signal with code cancelled and frees the slot', async () => {
    r = await rig();
    r.gw.enqueue({ text: 'slow '.repeat(100), tokensPerSecond: 50 });
    const ac = new AbortController();
    const gen = r.client.stream(ask('gpt-4.1'), { signal: ac.signal });
    const first = await gen.next();
    assert.equal(first.done, false);
    ac.abort();
    const { error } = await drain(gen);
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'cancelled');
    assert.equal(r.client.stats().inFlight, 0);
  });

  it('frees the slot when the consumer stops reading', async () => {
    r = await rig({ settings: { limits: { maxConcurrent: 1 } } });
    r.gw.enqueue({ text: 'slow '.repeat(100), tokensPerSecond: 50 });
    const gen = r.client.stream(ask('gpt-4.1'));
    await gen.next();
    await gen.return(undefined as never);
    assert.equal(r.client.stats().inFlight, 0);
    const next = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(next.error, undefined);
  });

  it('accepts an answer whose stream went quiet after its finish_reason and usage, without waiting the whole idle period', async () => {
    r = await rig({ settings: { limits: { idleTimeoutSeconds: 30 } } });
    r.gw.enqueue({ text: 'done but open', omitDone: true, holdOpen: true, keepAliveMs: 100 });
    const out = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(out.error, undefined);
    assert.equal(out.result?.text, 'done but open');
    assert.equal(out.result?.usageSource, 'reported');
    assert.equal(r.gw.requests.length, 1);
  });

  it('reads one JSON completion sent without a content type', async () => {
    r = await rig();
    r.gw.enqueue({ kind: 'raw', status: 200, headers: {}, body: JSON.stringify({ choices: [{ index: 0, message: { content: 'plain json' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 2 } }) });
    const { result } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(result?.text, 'plain json');
    assert.equal(result?.usage.promptTokens, 9);
  });

  it('shows only the first completion when a gateway streams several', async () => {
    r = await rig();
    const ev = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
    const body =
      ev({ choices: [{ index: 0, delta: { content: 'first ' } }] }) +
      ev({ choices: [{ index: 1, delta: { content: 'SECOND ' } }] }) +
      ev({ choices: [{ index: 0, delta: { content: 'answer' }, finish_reason: 'stop' }] }) +
      'data: [DONE]\n\n';
    r.gw.enqueue({ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body });
    const { result } = await drain(r.client.stream(ask('gpt-4.1')));
    assert.equal(result?.text, 'first answer');
    assert.equal(result?.usageSource, 'estimated');
  });
});
