import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEntry, encodeEntry, isEntry, type IndexEntry } from '../../../src/core/context/indexStore';
import { decodeIndexFile, encodeIndexFile } from '../../../src/core/context/indexFile';
import type { Posting } from '../../../src/core/context/segment';
import { writeSegment } from '../../../src/core/context/segmentWriter';
import { RepositoryIndex } from '../../../src/core/context/repoIndex';
import { createExcluder } from '../../../src/core/prompt/exclude';
import { TempRepo } from '../changes/gitRepo';

describe('context: the index as kept on disk', () => {
  it('reads back every entry as it was written: definitions with and without a container, calls, aliases, odd names, a skipped file', () => {
    const entries: IndexEntry[] = [
      { skipped: true },
      { definitions: [], calls: [], aliases: [] },
      {
        definitions: [
          { name: 'handle', kind: 'method', startLine: 4, endLine: 30, signatureEnd: 5, container: 'Service' },
          { name: 'MAX', kind: 'constant', startLine: 1, endLine: 1, signatureEnd: 1 },
          { name: 'größe', kind: 'function', startLine: 7, endLine: 9, signatureEnd: 7, container: '' },
          { name: 'a b\t%20\nc', kind: 'type', startLine: 11, endLine: 12, signatureEnd: 11 },
          { name: '', kind: 'class', startLine: 13, endLine: 20, signatureEnd: 13 },
        ],
        calls: [['run', 3], ['50%', 8], ['', 9]],
        aliases: [['h', 'helper'], ['x y', '-']],
      },
    ];
    for (const entry of entries) {
      const stored = encodeEntry(entry) ?? '';
      assert.ok(isEntry(stored), stored);
      assert.deepEqual(decodeEntry(stored), entry);
    }
    const lone: IndexEntry = { definitions: [{ name: '\ud800', kind: 'function', startLine: 1, endLine: 1, signatureEnd: 1 }], calls: [], aliases: [] };
    assert.deepEqual(decodeEntry(encodeEntry(lone) ?? ''), lone);
    assert.equal(encodeEntry({ ...lone, calls: [['\ud800 x', 1]] }), undefined, 'a name that needs encoding and holds a lone surrogate cannot be written');
  });

  it('refuses any text it would not have written', () => {
    const good = encodeEntry({ definitions: [{ name: 'f', kind: 'function', startLine: 1, endLine: 2, signatureEnd: 1 }], calls: [['g', 2]], aliases: [['a', 'b']] }) ?? '';
    assert.ok(decodeEntry(good));
    for (const bad of ['', 'skipped', good.replace(/\n[^\n]*$/, ''), `${good}\n`, 'f 9 1 2 1\n\n', 'f 0 1 x 1\n\n', 'f 0 1 2\n\n', 'f 0 1 2 1 C extra\n\n', 'f 0 -1 2 1\n\n', '\ng\n', '\ng 2 3\n', '\n\na', '%zz 0 1 2 1\n\n', 'f 0 1 2 1 %E0%A4%A\n\n']) {
      assert.equal(decodeEntry(bad), undefined, JSON.stringify(bad));
      if (!bad.includes('%')) assert.equal(isEntry(bad), false, JSON.stringify(bad));
    }
  });

  it('parses again only the files whose stored entry is damaged', async function () {
    this.timeout(60_000);
    const repo = new TempRepo();
    try {
      const cacheDir = mkdtempSync(join(tmpdir(), 'quorum-context-cache-'));
      for (let i = 0; i < 4; i++) repo.write(`m${i}.ts`, `export function f${i}(): number {\n  return g${i}(${i});\n}\n`);
      repo.commit();
      const options = { root: repo.dir, cacheDir, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20 };
      const first = await RepositoryIndex.open(options);
      await first?.complete();
      await first?.save();
      const folder = join(cacheDir, 'context');
      const file = join(folder, readdirSync(folder)[0] ?? '');
      const store = decodeIndexFile(readFileSync(file));
      assert.ok(store);
      const hash = repo.git('rev-parse', 'HEAD:m2.ts').trim();
      // The form of an entry, but a name that does not decode: found out when a lookup decodes it.
      const undecodable = repo.git('rev-parse', 'HEAD:m0.ts').trim();
      const damaged = new Map([[hash, 'f2 7 1 3 1\n\n'], [undecodable, 'f0 0 1 3 1\n%E0%A4 2\n']]);
      const hashes = Array.from({ length: store.blobCount }, (_, id) => store.hash(id));
      const names = Array.from({ length: store.nameCount }, (_, i): [string, Posting] => [store.name(i), store.postingAt(i) ?? { defines: [], calls: [] }]);
      writeFileSync(file, encodeIndexFile(writeSegment({ hashes, symbols: (id) => damaged.get(store.hash(id)) ?? store.symbols(id), names, used: store.used, chosen: store.chosen })));
      const second = await RepositoryIndex.open(options);
      assert.deepEqual(second?.size, { files: 4, indexed: 4, parsedNow: 0 });
      assert.deepEqual(second?.definitions('f0'), []);
      assert.deepEqual(second?.definitions('f2'), []);
      assert.deepEqual(second?.size, { files: 4, indexed: 2, parsedNow: 0 });
      assert.deepEqual(second?.definitions('f1').map((d) => [d.file, d.kind, d.startLine, d.endLine, d.signatureEnd]), [['m1.ts', 'function', 1, 3, 1]]);
      assert.deepEqual(second?.nearestCalls('g3', '', 100).map((c) => [c.file, c.line]), [['m3.ts', 2]]);
      await second?.complete();
      assert.equal(second?.size.parsedNow, 2);
      assert.deepEqual(second?.definitions('f2').map((d) => d.file), ['m2.ts']);
      assert.deepEqual(second?.definitions('f0').map((d) => d.file), ['m0.ts']);
    } finally {
      repo.dispose();
    }
  });
});
