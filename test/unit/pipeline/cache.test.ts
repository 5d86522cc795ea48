import { strict as assert } from 'node:assert';
import { cacheKey, ReviewCache, type CacheKeyParts } from '../../../src/core/pipeline/cache';

const parts: CacheKeyParts = {
  agent: 'analyst', model: 'gpt-4.1', fallbackModel: '', promptVersion: 'v1', language: 'en',
  regions: [{ file: 'a.ts', startLine: 1, endLine: 3 }], messages: [{ role: 'user', content: 'code' }], maxTokens: 4096, responseFormat: true,
};

describe('review cache', () => {
  it('serves an entry within the TTL and forgets it after, by the injected clock', () => {
    let now = 1_000;
    const cache = new ReviewCache({ now: () => now });
    cache.set('k', { model: 'gpt-4.1', text: 't', findings: [] });
    now += 59_999;
    assert.equal(cache.get('k', 60_000)?.text, 't');
    now += 1;
    assert.equal(cache.get('k', 60_000), undefined);
    assert.equal(cache.size, 0, 'an expired entry is removed');
  });

  it('applies a TTL of 0 as "no cache"', () => {
    const cache = new ReviewCache({ now: () => 0 });
    cache.set('k', { model: 'm', text: 't', findings: [] });
    assert.equal(cache.get('k', 0), undefined);
  });

  it('hands out copies, so a caller cannot change what is cached', () => {
    const cache = new ReviewCache();
    cache.set('k', { model: 'm', text: 't', findings: [{ id: 'a-1', file: 'a.ts', agents: ['a'], severity: 'low', title: 'x', explanation: '', startLine: 1, endLine: 1, confidence: 0.5 }] });
    const first = cache.get('k', 60_000);
    first?.findings.pop();
    assert.equal(cache.get('k', 60_000)?.findings.length, 1);
  });

  it('evicts the oldest entry beyond its capacity', () => {
    const cache = new ReviewCache({ maxEntries: 2 });
    cache.set('a', { model: 'm', text: 'a', findings: [] });
    cache.set('b', { model: 'm', text: 'b', findings: [] });
    cache.set('c', { model: 'm', text: 'c', findings: [] });
    assert.equal(cache.get('a', 60_000), undefined);
    assert.equal(cache.get('c', 60_000)?.text, 'c');
  });

  it('keys on everything that makes two requests differ', () => {
    const base = cacheKey(parts);
    assert.equal(cacheKey({ ...parts }), base);
    for (const change of [{ model: 'gpt-4o' }, { language: 'ko' }, { promptVersion: 'v2' }, { regions: [{ file: 'a.ts', startLine: 2, endLine: 3 }] }, { agent: 'security' }, { messages: [{ role: 'user' as const, content: 'code!' }] }]) {
      assert.notEqual(cacheKey({ ...parts, ...change }), base, JSON.stringify(change));
    }
  });
});
