import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeIndexFile, encodeIndexFile } from '../../../src/core/context/indexFile';
import { RepositoryIndex } from '../../../src/core/context/repoIndex';
import type { Segment } from '../../../src/core/context/segment';
import { createExcluder } from '../../../src/core/prompt/exclude';
import { TempRepo } from '../changes/gitRepo';

/** The index in the cache folder: updated by blob hash, shared by processes writing at once, never trusted when torn. */

const FILES = 90;

describe('context: the index file in the cache folder', function () {
  this.timeout(60_000);
  let repo: TempRepo;
  let cacheDir: string;
  const options = () => ({ root: repo.dir, cacheDir, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20 });
  const open = async () => {
    const index = await RepositoryIndex.open(options());
    assert.ok(index);
    return index;
  };
  const folder = () => join(cacheDir, 'context');
  const indexFile = () => join(folder(), readdirSync(folder()).find((f) => f.endsWith('.idx')) ?? '');
  const parsedIn = (segment: Segment, hash: string) => {
    const id = segment.idOf(hash);
    return id !== undefined && segment.parsed(id);
  };

  beforeEach(() => {
    repo = new TempRepo();
    cacheDir = mkdtempSync(join(tmpdir(), 'quorum-context-cache-'));
    for (let i = 0; i < FILES; i++) repo.write(`pkg${i % 9}/m${i}.ts`, `export function f${i}(x: number): number {\n  return g${(i + 1) % FILES}(x) + ${i};\n}\n\nexport function g${i}(x: number): number {\n  return x * ${i};\n}\n`);
    repo.commit();
  });
  afterEach(() => repo.dispose());

  it('is updated by blob hash: a second run reads only the files whose content changed, and keeps what the first parsed', async () => {
    const first = await open();
    assert.equal(await first.scan(), true);
    assert.equal(first.readNow, FILES);
    await first.reachDefinitions('g5', 'pkg0/m0.ts');
    assert.deepEqual(first.definitions('g5').map((d) => d.file), ['pkg5/m5.ts']);
    const parsed = first.size.parsedNow;
    assert.ok(parsed >= 1 && parsed < 5, `the lookup parsed what it reached, not the repository (${parsed})`);
    await first.save();

    repo.write('pkg1/m10.ts', 'export function h10(): number {\n  return g5(1);\n}\n').write('pkg2/new.ts', 'export const g5b = 2;\n').remove('pkg3/m12.ts');
    const second = await open();
    assert.equal(await second.scan(), true);
    assert.equal(second.readNow, 2, 'the changed and the new file, nothing else');
    assert.equal(second.size.indexed, parsed, 'what the first run parsed is not parsed again');
    await second.reachDefinitions('g5', 'pkg0/m0.ts');
    assert.equal(second.size.parsedNow, 0);
    await second.reachCalls('g5', 'pkg5/m5.ts');
    assert.deepEqual(second.nearestCalls('g5', '', 100).map((c) => c.file), ['pkg1/m10.ts', 'pkg4/m4.ts'], 'the changed file is read again');
  });

  it('keeps the work of two writers saving at once, in one file that is whole', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    await Promise.all([a.scan(), b.scan()]);
    await a.reachDefinitions('g7', 'pkg0/m0.ts');
    await b.reachDefinitions('g8', 'pkg0/m0.ts');
    await Promise.all([a.save(), b.save(), a.save(), b.save()]);
    assert.deepEqual(readdirSync(folder()).sort(), [indexFile().split('/').pop()], 'no temporary or lock file is left');
    const stored = decodeIndexFile(readFileSync(indexFile()));
    assert.ok(stored, 'the file is whole');
    const hashOf = (path: string) => repo.git('rev-parse', `HEAD:${path}`).trim();
    assert.ok(parsedIn(stored, hashOf('pkg7/m7.ts')) && parsedIn(stored, hashOf('pkg8/m8.ts')), "both writers' parses are kept");
    assert.equal(stored.blobCount, FILES);
    const third = await open();
    await third.scan();
    assert.equal(third.readNow, 0);
    await third.reachDefinitions('g7', 'pkg0/m0.ts');
    await third.reachDefinitions('g8', 'pkg0/m0.ts');
    assert.equal(third.size.parsedNow, 0);
  });

  it('never reads a torn or damaged file as truth: it is rebuilt', async () => {
    const first = await open();
    await first.complete();
    await first.save();
    const whole = readFileSync(indexFile());
    const flipped = Buffer.from(whole);
    const at = flipped.indexOf('f1 0 1 3 1');
    assert.ok(at > 0);
    flipped[at + 6] = '4'.charCodeAt(0);
    // Whole as a file, but not a segment: sizes that do not add up, an offset out of its section.
    const body = whole.subarray(whole.indexOf('\n') + 1);
    const lying = Buffer.from(body.toString('latin1').replace(/"blobs":\d+/, '"blobs":3'), 'latin1');
    const torn = [whole.subarray(0, Math.floor(whole.length / 2)), flipped, body, Buffer.alloc(0), Buffer.concat([whole, Buffer.from('x')]), encodeIndexFile(lying), encodeIndexFile(Buffer.from('{"blobs":1}\nxx'))];
    for (const bytes of torn) {
      writeFileSync(indexFile(), bytes);
      const next = await open();
      assert.equal(next.size.indexed, 0, 'nothing is taken from it');
      await next.scan();
      assert.equal(next.readNow, FILES);
      await next.save();
      assert.ok(decodeIndexFile(readFileSync(indexFile())), 'the next save writes a whole file');
    }
  });

  it('takes over a lock left by a killed writer', async () => {
    const first = await open();
    await first.scan();
    await first.save();
    const lock = `${indexFile()}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const second = await open();
    await second.reachDefinitions('g3', 'pkg0/m0.ts');
    await second.save();
    const stored = decodeIndexFile(readFileSync(indexFile()));
    assert.ok(stored && parsedIn(stored, repo.git('rev-parse', 'HEAD:pkg3/m3.ts').trim()));
  });
});
