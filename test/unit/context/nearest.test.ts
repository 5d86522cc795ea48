import assert from 'node:assert/strict';
import { distanceFrom, nearestFirst } from '../../../src/core/context/nearest';

/** The nearest candidates of a lookup: the first of the order a sort of all of them gives, without sorting them all. */

const folders = ['', 'a/', 'a/b/', 'a/bb/', 'a/b/c/', 'x/', 'x/y/', 'ab/'];
const paths = folders.flatMap((f, i) => ['m.ts', 'Z.ts', 'z.ts', `f${i}.ts`].map((n) => `${f}${n}`)).sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));

function sortAll(near: string, as: 'definitions' | 'callers'): string[] {
  const d = (p: string) => {
    const a = near.split('/').slice(0, -1);
    const b = p.split('/').slice(0, -1);
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return a.length - i + (b.length - i);
  };
  const keyed = paths.map((path, i) => ({ path, i, d: as === 'definitions' && path === near ? -1 : d(path) }));
  keyed.sort(as === 'definitions' ? (x, y) => x.d - y.d || x.i - y.i : (x, y) => x.d - y.d || x.path.localeCompare(y.path));
  return keyed.map((k) => k.path);
}

describe('context: the nearest candidates', () => {
  it('are the first of the order of all of them, for definitions and for callers, at every limit', () => {
    for (const near of ['m.ts', 'a/b/m.ts', 'a/bb/z.ts', 'x/y/f6.ts', 'ab/m.ts']) {
      for (const as of ['definitions', 'callers'] as const) {
        const all = sortAll(near, as);
        for (const limit of [1, 3, 5, 13, 25, paths.length]) {
          assert.deepEqual(nearestFirst(paths.map((path) => ({ path })), near, as, limit).map((f) => f.path), all.slice(0, limit), `${near} ${as} ${limit}`);
        }
      }
    }
  });

  it('counts folders, not characters: a/b and a/bb are siblings', () => {
    const from = distanceFrom('a/b/c/m.ts');
    assert.deepEqual(['a/b/c/x.ts', 'a/b/x.ts', 'a/bb/x.ts', 'x.ts', 'ab/x.ts'].map(from), [0, 1, 3, 3, 4]);
  });
});
