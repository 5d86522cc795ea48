import assert from 'node:assert/strict';
import { inRounds, Lookup, type LookupFiles } from '../../../src/core/context/lookup';
import type { ListedFile } from '../../../src/core/context/listing';

/**
 * The lookups of a review, parsed round after round: what each finds is what it finds parsed one file after the other,
 * however many files a round asks for; a batch (a group of lookups) is told ready between rounds, once its lookups
 * are all done, so that its context is chosen while the others are parsed.
 */
const file = (path: string): ListedFile => ({ path, hash: path.padEnd(40, '0').slice(0, 40), language: 'typescript' });

/** A repository where `holds(path)` is what a parsed file holds of what the lookups look for. */
function world(holds: (path: string) => number) {
  const parsed = new Set<string>();
  const files: LookupFiles = { parsed: (f) => parsed.has(f.path), count: (f) => (parsed.has(f.path) ? holds(f.path) : 0) };
  return { parsed, files };
}

describe('context: lookups round after round', () => {
  it('finds, several files a round, the same as one file after the other, and tells each group once, when its lookups are done', async () => {
    // Six candidates for a caller lookup, one call site each: five are enough. A definition lookup is done by its nearest.
    const callers = Array.from({ length: 8 }, (_, i) => file(`src/a/caller${i}.ts`));
    const definers = [file('src/b/def0.ts'), file('src/b/def1.ts'), file('src/c/def2.ts')];
    const one = (paths: readonly string[]) => world((p) => (paths.includes(p) ? 1 : p.startsWith('src/b/def') ? 2 : 0));
    // One after the other.
    const alone = one(callers.map((f) => f.path));
    const seq = [new Lookup(callers, 'src/a/changed.ts', 'calls', 5), new Lookup(definers, 'src/b/user.ts', 'defines', 2)];
    for (const lookup of seq) for (let f = lookup.next(alone.files); f; f = lookup.next(alone.files)) alone.parsed.add(f.path);
    // Round after round, in two groups.
    const together = one(callers.map((f) => f.path));
    const pending = [
      { lookup: new Lookup(callers, 'src/a/changed.ts', 'calls', 5), files: together.files, group: 0 },
      { lookup: new Lookup(definers, 'src/b/user.ts', 'defines', 2), files: together.files, group: 1 },
    ];
    const rounds: string[][] = [];
    const told: [number, number][] = [];
    const parse = (files: ListedFile[]) => {
      rounds.push(files.map((f) => f.path));
      for (const f of files) together.parsed.add(f.path);
      return Promise.resolve();
    };
    await inRounds(pending, 3, undefined, parse, (group) => told.push([group, rounds.length]));
    // Group 2 has no lookups: ready before any parse; group 1 after the first round; group 0 when its five sites are parsed.
    assert.deepEqual(told, [[2, 0], [1, 1], [0, 3]]);
    assert.deepEqual(rounds.map((r) => r.length), [2, 1, 4], 'one file a lookup in the first two rounds, then the next four at once');
    for (const f of [...alone.parsed]) assert.ok(together.parsed.has(f), `${f} is parsed round after round too`);
    // What is found among the parsed files nearest first is the same: the first five callers, the nearest definer.
    const nearestFound = (w: ReturnType<typeof one>) => callers.filter((f) => w.parsed.has(f.path)).slice(0, 5).map((f) => f.path);
    assert.deepEqual(nearestFound(together), nearestFound(alone));
    assert.ok(together.parsed.size <= alone.parsed.size + 3, 'at most AHEAD - 1 files more than needed');
  });

  it('stops when the budget is over, and tells no group whose lookups were cut', async () => {
    const callers = Array.from({ length: 6 }, (_, i) => file(`src/a/c${i}.ts`));
    const w = world(() => 1);
    const budget = { over: false };
    const told: number[] = [];
    const parse = (files: ListedFile[]) => {
      for (const f of files) w.parsed.add(f.path);
      budget.over = true;
      return Promise.resolve();
    };
    await inRounds([{ lookup: new Lookup(callers, 'src/a/x.ts', 'calls', 5), files: w.files, group: 0 }], 1, budget as never, parse, (g) => told.push(g));
    assert.equal(w.parsed.size, 1);
    assert.deepEqual(told, []);
  });
});
