import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { collectChanges } from '../../../src/core/changes/collect';
import { GitCliSource } from '../../../src/core/changes/gitCli';
import { planChanges } from '../../../src/core/changes/plan';
import { addContext } from '../../../src/core/context/step';
import { createExcluder } from '../../../src/core/prompt/exclude';

/**
 * Context at the size of a real repository: a change of 250 files in a generated repository of 12,000 makes a
 * bounded number of child processes (every one the context step starts is counted, whatever starts it), and still
 * finds the definition each changed file now calls in another one.
 */

const FILES = 12_000;
const CHANGED = 250;
const FOLDERS = 60;

const pathOf = (i: number) => `src/p${i % FOLDERS}/m${i}.ts`;
const source = (i: number, extra = '') => `export function f${i}(a: number): number {\n  let t = a + ${i};\n${extra}  return t;\n}\n`;
const callee = (i: number) => (i * 7 + 13) % FILES;

/** A folder in memory where the machine has one (writing 12,000 files to a busy disk takes longer than the test). */
function scratch(prefix: string): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return mkdtempSync(join('/dev/shm', prefix));
  } catch {
    return mkdtempSync(join(tmpdir(), prefix));
  }
}

/** Counts the child processes started while `work` runs, by every function of child_process that starts one. */
async function countingSpawns<T>(work: () => Promise<T>): Promise<{ value: T; spawned: string[] }> {
  const spawned: string[] = [];
  const names = ['spawn', 'execFile', 'exec', 'fork', 'spawnSync', 'execFileSync', 'execSync'] as const;
  const cp = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = names.map((n) => cp[n]);
  names.forEach((n, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    cp[n] = function (this: unknown, ...args: unknown[]) {
      spawned.push(`${String(args[0])} ${Array.isArray(args[1]) ? args[1].join(' ') : ''}`);
      return original.apply(this, args);
    };
  });
  syncBuiltinESMExports();
  try {
    return { value: await work(), spawned };
  } finally {
    names.forEach((n, i) => (cp[n] = originals[i] as (...args: unknown[]) => unknown));
    syncBuiltinESMExports();
  }
}

describe('context: a 250-file change in a 12,000-file repository', function () {
  this.timeout(120_000);
  let dir: string;
  const git = (...args: string[]) => childProcess.execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });

  before(() => {
    dir = scratch('quorum-context-scale-');
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'test@example.invalid');
    git('config', 'user.name', 'Test');
    for (let f = 0; f < FOLDERS; f++) mkdirSync(join(dir, 'src', `p${f}`), { recursive: true });
    for (let i = 0; i < FILES; i++) writeFileSync(join(dir, pathOf(i)), source(i));
    git('add', '-A');
    git('commit', '-q', '-m', 'generated');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('starts a bounded number of child processes and finds every definition the change calls', async () => {
    const changed = Array.from({ length: CHANGED }, (_, n) => Math.floor((n * FILES) / CHANGED));
    for (const i of changed) {
      const file = join(dir, pathOf(i));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, source(i, `  t = t + f${callee(i)}(t);\n`));
    }
    const set = await collectChanges(await GitCliSource.open(dir), { kind: 'uncommitted' }, { maxFileBytes: 1 << 20 });
    const plan = planChanges(set, { contextLines: 3, batchTokens: 12_000 });
    assert.equal(plan.files, CHANGED);
    const cacheDir = scratch('quorum-context-scale-cache-');
    try {
      const input = { root: dir, cacheDir, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20, maxTokens: 50_000, redactor: undefined, timeBudgetMs: 600_000 };
      const { value: step, spawned } = await countingSpawns(() => addContext(plan.batches, input));
      assert.ok(spawned.length <= 2, `child processes: ${spawned.length}\n${spawned.slice(0, 5).join('\n')}`);
      assert.deepEqual({ regions: step.status?.regions, chosen: step.status?.chosen, stopped: step.status?.stopped }, { regions: plan.target.regions.length, chosen: plan.target.regions.length, stopped: undefined });
      const snippets = step.targets.flatMap((t) => t.context ?? []);
      const missing = changed.filter((i) => !snippets.some((s) => s.kind === 'definition' && s.file === pathOf(callee(i)) && s.symbol === `f${callee(i)}` && s.forFile === pathOf(i)));
      assert.deepEqual(missing.slice(0, 3), [], `every changed file gets the definition it now calls: ${JSON.stringify(step.status)} ${snippets.length} ${JSON.stringify(snippets.slice(0, 3))}`);
      assert.ok((step.status?.index.parsed ?? FILES) < 4 * CHANGED, `parsed ${step.status?.index.parsed} files: what the change reaches, not the repository`);
      // The next run on the same change: the index is read back; no file is read or parsed again, the same context is chosen.
      await step.finish(AbortSignal.abort());
      const again = await countingSpawns(() => addContext(plan.batches, input));
      assert.ok(again.spawned.length <= 2);
      assert.deepEqual(again.value.status?.index, { files: FILES, read: 0, parsed: 0 });
      assert.deepEqual(again.value.targets.flatMap((t) => t.context ?? []), snippets);
      // With another budget in tokens (the kept context is another's): looked up in the warm index, nothing read or parsed.
      const lookedUp = await countingSpawns(() => addContext(plan.batches, { ...input, maxTokens: 50_001 }));
      assert.deepEqual(lookedUp.value.status?.index, { files: FILES, read: 0, parsed: 0 });
      assert.deepEqual(lookedUp.value.targets.flatMap((t) => t.context ?? []), snippets);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
