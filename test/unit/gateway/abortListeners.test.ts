import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import { ask, rig, type Rig } from './helpers';

/**
 * Many requests wait on one review's signal (a changes review of four batches sends sixteen). Each request used to
 * add its own 'abort' listener to it, and Node printed "MaxListenersExceededWarning: Possible EventTarget memory
 * leak" on the command line past ten. The signal gets one listener however many requests wait on it.
 */
describe('gateway client: one abort listener on the caller\'s signal, however many requests wait on it', function () {
  this.timeout(20_000);
  let r: Rig;

  beforeEach(async () => {
    r = await rig({ gateway: { ttftMs: 150, tokensPerSecond: 0 }, settings: { limits: { maxConcurrent: 4 } } });
  });
  afterEach(() => r.close());

  it('sixteen open requests: one listener while they run, none when they have ended; cancelling still ends every one', async () => {
    const review = new AbortController();
    const streams = Array.from({ length: 16 }, (_, i) => r.client.stream(ask('gpt-4.1', `request ${i}`), { signal: review.signal }));
    const firsts = streams.map((s) => s.next());
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(getEventListeners(review.signal, 'abort').length, 1);
    await Promise.all(firsts);
    for (const s of streams) while (!(await s.next()).done);
    assert.equal(getEventListeners(review.signal, 'abort').length, 1, 'the one listener stays until the signal aborts');

    const again = Array.from({ length: 16 }, (_, i) => r.client.stream(ask('gpt-4.1', `again ${i}`), { signal: review.signal }));
    const settled = again.map((s) => s.next().then(() => 'answered', () => 'cancelled'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    review.abort();
    assert.deepEqual(new Set(await Promise.all(settled)), new Set(['cancelled']));
    assert.equal(getEventListeners(review.signal, 'abort').length, 0);
  });
});
