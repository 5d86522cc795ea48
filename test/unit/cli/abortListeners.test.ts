import { strict as assert } from 'node:assert';
import { getEventListeners, setMaxListeners } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { numbered, TempRepo } from '../changes/gitRepo';

/**
 * Issue 20, item 3: a changes review of 11 batches per agent printed "MaxListenersExceededWarning: Possible
 * EventTarget memory leak detected. 11 abort listeners" on stderr. Whatever waits on the review's signal (requests,
 * batches, the agents' streams, the progress) adds one listener to it however many there are: a review of 20
 * batches raises no warning, and the signal is left with at most one listener while it runs.
 *
 * Node 24 no longer counts the listeners of an AbortSignal (its limit is 0) where Node 22 warns past ten, so the
 * test counts them itself, on every signal the review makes, as Node 22 would (and listens for the warning too).
 */

/** The most 'abort' listeners any one AbortSignal held at once while `run` ran. */
async function mostAbortListeners<T>(run: () => Promise<T>): Promise<{ result: T; most: number }> {
  const live = new WeakMap<EventTarget, Set<unknown>>();
  let most = 0;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original methods, called with `this` and put back after
  const add = EventTarget.prototype.addEventListener;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- as above
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: AddEventListenerOptions | boolean) {
    if (type === 'abort' && this instanceof AbortSignal && listener) {
      const set = live.get(this) ?? new Set();
      live.set(this, set);
      set.add(listener);
      most = Math.max(most, set.size);
    }
    add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: EventListenerOptions | boolean) {
    if (type === 'abort') live.get(this)?.delete(listener);
    remove.call(this, type, listener, options);
  };
  try {
    return { result: await run(), most };
  } finally {
    EventTarget.prototype.addEventListener = add;
    EventTarget.prototype.removeEventListener = remove;
  }
}

const KEY = 'sk-test-abort-listeners-0123456789';
const BATCHES = 20;

describe('quorum review --changes of 20 batches per agent: no MaxListenersExceededWarning', function () {
  this.timeout(180_000);
  let tg: TestGateway;
  let repo: TempRepo;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 20, tokensPerSecond: 0 });
    repo = new TempRepo();
    for (let f = 0; f < BATCHES; f++) repo.write(`src/part${f}.ts`, 'export {};\n');
    repo.commit();
    // Each file about 7,000 tokens (estimated): a batch of its own under the default 12,000-token batches.
    for (let f = 0; f < BATCHES; f++) repo.write(`src/part${f}.ts`, numbered(380, (i) => `export const value${f}_${i} = compute(${i}, "part ${f} line ${i}");`));
  });
  after(async () => {
    repo.dispose();
    await tg.close();
  });

  it('sends every batch with no warning on the process, and the review\'s signal has one listener at most', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const controller = new AbortController();
    // Node 22's limit, which Node 24 no longer sets on signals.
    setMaxListeners(10, controller.signal);
    let onReviewSignal = 0;
    const watch = setInterval(() => (onReviewSignal = Math.max(onReviewSignal, getEventListeners(controller.signal, 'abort').length)), 5);
    tg.script((req) => ({ text: req.model === 'deepseek-v3.2' ? '{"rationale":"r","replacements":[]}' : '{"findings":[]}' }));
    let stderr = '';
    let most: number;
    try {
      const run = await mostAbortListeners(() => runCli({
        argv: ['review', '--changes', '--format', 'json', '--no-cache'], cwd: repo.dir, version: '0.0.0', signal: controller.signal,
        env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-cli-cache-')) },
        stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) },
      }));
      most = run.most;
      assert.equal(run.result, 0, stderr);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      clearInterval(watch);
      process.off('warning', onWarning);
    }
    assert.match(stderr, new RegExp(`in ${BATCHES} requests per agent`));
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, BATCHES * 4);
    assert.deepEqual(warnings.map((w) => `${w.name}: ${w.message}`), []);
    assert.ok(onReviewSignal <= 1, `${onReviewSignal} abort listeners on the review's signal at once`);
    assert.ok(most <= 10, `${most} abort listeners on one signal at once: Node 22 warns past 10`);
  });
});
