import { strict as assert } from 'node:assert';
import type { RetryInfo } from '../../../src/core/gateway/types';
import { ask, drain, rig, type Rig } from './helpers';

describe('gateway client: tells the caller about retries', () => {
  let r: Rig;
  afterEach(async () => r?.close());

  it('reports each retry with the coming attempt, why, and how long it waits; nothing when the first attempt succeeds', async () => {
    r = await rig({ tuning: { random: () => 0 } });
    r.gw.enqueue({ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'drop' });
    const seen: RetryInfo[] = [];
    const { result } = await drain(r.client.stream(ask('gpt-4.1'), { onRetry: (i) => seen.push(i) }));
    assert.ok(result);
    assert.deepEqual(seen, [
      { attempt: 2, model: 'gpt-4.1', code: 'server', reason: 'retry', waitMs: 5 },
      { attempt: 3, model: 'gpt-4.1', code: 'network', reason: 'retry', waitMs: 10 },
    ]);
    const quiet: RetryInfo[] = [];
    await drain(r.client.stream(ask('gpt-4.1'), { onRetry: (i) => quiet.push(i) }));
    assert.deepEqual(quiet, []);
  });

  it('reports the switch to the fallback model, and no retry after the last attempt', async () => {
    r = await rig({ settings: { limits: { maxRetries: 1 } }, tuning: { random: () => 0 } });
    r.gw.script((q) => (q.model === 'gpt-4.1' ? { kind: 'error', status: 503 } : { text: 'from the fallback' }));
    const seen: RetryInfo[] = [];
    const { result } = await drain(r.client.stream(ask('gpt-4.1', 'x', { fallbackModel: 'deepseek-v3.2' }), { onRetry: (i) => seen.push(i) }));
    assert.equal(result?.text, 'from the fallback');
    assert.deepEqual(seen, [
      { attempt: 2, model: 'gpt-4.1', code: 'server', reason: 'retry', waitMs: 5 },
      { attempt: 3, model: 'deepseek-v3.2', code: 'server', reason: 'fallback' },
    ]);
  });

  it('a listener that throws does not break the request', async () => {
    r = await rig();
    r.gw.enqueue({ kind: 'error', status: 502 });
    const { result } = await drain(r.client.stream(ask('gpt-4.1'), { onRetry: () => { throw new Error('listener bug'); } }));
    assert.ok(result);
  });
});
