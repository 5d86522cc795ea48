import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The command line's young generation stays at its first size (src/cli/heap.ts): measured in a process of its own
 * that keeps many objects alive through collections, as a first review's index does. A size the user asked for is
 * left to them.
 */
const heap = join(__dirname, '../../../src/cli/heap.ts');

/** The young generation's size in MB before and after the allocations (loading the module may grow it first). */
function newSpaceMb(call: boolean, nodeOptions?: string): { before: number; after: number; kept: boolean | null } {
  const script = `
    const size = () => require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
    const { keepYoungGenerationSmall } = require(${JSON.stringify(heap)});
    const kept = ${call} ? keepYoungGenerationSmall(process.execArgv, process.env.NODE_OPTIONS) : null;
    const before = size();
    const survivors = []; let batch = [];
    for (let i = 0; i < 2e6; i++) { batch.push({ i, s: 'x' + i }); if (batch.length === 1000) { if (i % 3 === 0) survivors.push(batch); batch = []; } }
    console.log(JSON.stringify({ before, after: size(), kept, n: survivors.length }));`;
  const env = { ...process.env, NODE_OPTIONS: nodeOptions ?? '' };
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', env });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as { before: number; after: number; kept: boolean | null };
}

describe('cli: the young generation of a short-lived process', () => {
  it('stays at its first size when kept small, grows without, and is left as the user set it', function () {
    this.timeout(60_000);
    const grown = newSpaceMb(false);
    const kept = newSpaceMb(true);
    assert.equal(kept.kept, true);
    // Two semi-spaces of 2 MB at most from then on (and whatever loading the module grew it to before).
    assert.ok(kept.after <= Math.max(kept.before, 16), `kept small: ${kept.before} MB, then ${kept.after} MB`);
    assert.ok(grown.after > 2 * Math.max(kept.after, grown.before), `V8 grows it by itself: ${grown.before} MB, then ${grown.after} MB (kept: ${kept.after} MB)`);
    const asked = newSpaceMb(true, '--max-semi-space-size=32');
    assert.equal(asked.kept, false);
  });
});
