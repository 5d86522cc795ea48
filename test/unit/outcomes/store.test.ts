import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutcomeStore } from '../../../src/core/outcomes/store';
import type { OutcomeRecord } from '../../../src/core/outcomes/record';

const WRITER = join(__dirname, '..', '..', 'fixtures', 'outcomeWriter.ts');

function writer(dir: string, root: string, tag: string, count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, root, tag, String(count)], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

const record = (id: string, status: OutcomeRecord['status'], title = 'Command injection'): OutcomeRecord => ({
  v: 1, id: id.padEnd(32, '0'), raisedAt: 1, at: 2, file: 'a.ts', startLine: 3, endLine: 4, agents: [{ agent: 'security', model: 'm', costUsd: 0.5 }], severity: 'high', rule: 'CWE-78', title, code: 'b'.repeat(64), lines: 2, status, by: 'review',
});

describe('the outcome store: shared by processes, never fatal', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'quorum-outcomes-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('two processes appending at once lose nothing', async () => {
    const codes = await Promise.all([writer(dir, '/repo/x', 'aa', 150), writer(dir, '/repo/x', 'bb', 150)]);
    assert.deepEqual(codes, [0, 0]);
    const read = new OutcomeStore({ dir, root: '/repo/x' }).read();
    assert.equal(read.corrupt, 0);
    assert.equal(read.records.length, 300);
    assert.deepEqual([read.records.filter((r) => r.file === 'aa.ts').length, read.records.filter((r) => r.file === 'bb.ts').length], [150, 150]);
  });

  it('the last snapshot of a record wins; repositories have stores of their own', () => {
    const store = new OutcomeStore({ dir, root: '/repo/x' });
    assert.ok(store.append([record('1', 'open'), record('2', 'open')]));
    assert.ok(store.append([record('1', 'addressed')]));
    assert.deepEqual(store.read().records.map((r) => [r.id.slice(0, 1), r.status]), [['2', 'open'], ['1', 'addressed']]);
    assert.deepEqual(new OutcomeStore({ dir, root: '/repo/y' }).read(), { records: [], corrupt: 0 });
  });

  it('a torn or edited store is reported and rebuilt from its valid lines; the next write starts on a line of its own', () => {
    const store = new OutcomeStore({ dir, root: '/repo/x' });
    store.append([record('1', 'open')]);
    appendFileSync(store.path, '{"v":1,"id":"oops"}\nnot json at all\n{"v":1,"id":"2000');
    const read = store.read();
    assert.deepEqual([read.corrupt, read.records.length, read.problem], [3, 1, undefined]);
    assert.equal(readFileSync(store.path, 'utf8').split('\n').filter(Boolean).length, 1, 'rebuilt with the valid line only');
    assert.deepEqual(store.read().corrupt, 0, 'reported once: the rebuilt store is clean');
    // A torn last line (a crash mid-write): the next record is not glued to it.
    appendFileSync(store.path, '{"v":1,"id":"3');
    assert.ok(store.append([record('4', 'open')]));
    const after = store.read();
    assert.deepEqual([after.corrupt, after.records.map((r) => r.id.slice(0, 1))], [1, ['1', '4']]);
  });

  it('a store that is not even text, or a folder in its place, is never fatal', () => {
    const store = new OutcomeStore({ dir, root: '/repo/x' });
    store.append([record('1', 'open')]);
    writeFileSync(store.path, Buffer.from([0xff, 0x00, 0xfe, 0x0a, 0x80]));
    assert.deepEqual([store.read().records.length, store.read().corrupt], [0, 0]);
    rmSync(store.path);
    const blocked = new OutcomeStore({ dir: join(dir, 'file-not-folder'), root: '/repo/x' });
    writeFileSync(join(dir, 'file-not-folder'), 'x');
    assert.equal(blocked.append([record('1', 'open')]), false);
    assert.deepEqual(blocked.read().records, []);
  });

  it('records hold no code and no key: the key is scrubbed from titles and reasons', () => {
    const key = 'sk-live-abcdefghijklmnop0123456789';
    const store = new OutcomeStore({ dir, root: '/repo/x', secrets: [key] });
    store.append([{ ...record('1', 'dismissed', `Leaks ${key}`), reason: `because ${key}` }]);
    const raw = readFileSync(store.path, 'utf8');
    assert.equal(raw.includes(key), false);
    assert.equal(store.read().records.length, 1);
  });
});
