import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cacheKey, type CachedAnswer } from '../../../src/core/pipeline/cache';
import { DISK_CACHE_FOLDER, DiskCache, urlSecrets } from '../../../src/core/pipeline/diskCache';
import { defaultCacheDir } from '../../../src/core/util/cacheDir';

const root = resolve(__dirname, '..', '..', '..');
const key = (n: number) => cacheKey({ agent: 'analyst', model: 'm', fallbackModel: '', promptVersion: 'v1', language: 'en', regions: [{ file: 'a.ts', startLine: n, endLine: n }], messages: [], maxTokens: 1, responseFormat: true });
const answer = (text: string): CachedAnswer => ({
  model: 'gpt-4.1', text,
  findings: [{ id: 'analyst-1', file: 'a.ts', agents: ['analyst'], severity: 'high', title: 'SQL injection', explanation: 'e', startLine: 3, endLine: 4, cwe: 'CWE-89', confidence: 0.7 }],
});
const tempDir = () => mkdtempSync(join(tmpdir(), 'quorum-disk-cache-'));

describe('disk cache', () => {
  it('serves an answer written by another instance (another run) within the TTL, not after', () => {
    const dir = tempDir();
    let now = 1_000_000;
    new DiskCache({ dir, now: () => now }).set(key(1), answer('first'));
    const later = new DiskCache({ dir, now: () => now });
    assert.deepEqual(later.get(key(1), 60_000), answer('first'));
    now += 60_000;
    assert.equal(later.get(key(1), 60_000), undefined, 'expired');
    assert.equal(later.get(key(2), 60_000), undefined, 'never stored');
    assert.equal(new DiskCache({ dir, now: () => 1_000_000 }).get(key(1), 0), undefined, 'a TTL of 0 serves nothing');
  });

  it('ignores corrupted, truncated, foreign and mislabelled files, and never serves them', () => {
    const dir = tempDir();
    const cache = new DiskCache({ dir });
    cache.set(key(1), answer('good'));
    const folder = join(dir, DISK_CACHE_FOLDER);
    const whole = readFileSync(join(folder, `${key(1)}.json`), 'utf8');
    writeFileSync(join(folder, `${key(2)}.json`), whole.slice(0, whole.length / 2));
    writeFileSync(join(folder, `${key(3)}.json`), whole.replace(key(1), key(3)).replace('"quorum-review-cache"', '"someone-else"'));
    writeFileSync(join(folder, `${key(4)}.json`), whole, 'utf8'); // an entry for key 1 under key 4's name
    writeFileSync(join(folder, `${key(5)}.json`), JSON.stringify({ format: 'quorum-review-cache', version: 1, key: key(5), storedAt: Date.now(), value: { model: 'm', text: 't', findings: [{ severity: 'urgent' }] } }));
    writeFileSync(join(folder, `${key(6)}.json`), Buffer.from([0xff, 0x00, 0x7b]));
    mkdirSync(join(folder, `${key(7)}.json`));
    for (const n of [2, 3, 4, 5, 6, 7]) assert.equal(cache.get(key(n), 60_000), undefined, `entry ${n}`);
    assert.equal(cache.get(key(1), 60_000)?.text, 'good');
    assert.equal(cache.get('../../etc/passwd', 60_000), undefined, 'keys are hashes, never paths');
  });

  it('keeps fields of findings it does not know (so newer findings round-trip)', () => {
    const dir = tempDir();
    const value = answer('x');
    const withFile = { ...value, findings: value.findings.map((f) => ({ ...f, file: 'src/a.ts' })) };
    new DiskCache({ dir }).set(key(1), withFile);
    assert.deepEqual(new DiskCache({ dir }).get(key(1), 60_000), withFile);
  });

  it('never writes the API key or the gateway URL credentials, even when the model echoes them', () => {
    const dir = tempDir();
    const apiKey = 'sk-live-0123456789abcdef';
    const secrets = [apiKey, ...urlSecrets('https://ci-user:p%40ss-w0rd@gateway.example/v1')];
    assert.deepEqual(urlSecrets('https://ci-user:p%40ss-w0rd@gateway.example/v1'), ['ci-user', 'p%40ss-w0rd', 'ci-user', 'p@ss-w0rd']);
    const cache = new DiskCache({ dir, secrets });
    const echo = answer(`your key is ${apiKey} and the password p@ss-w0rd for ci-user`);
    echo.findings[0]!.explanation = `Authorization: Bearer ${apiKey}`;
    cache.set(key(1), echo);
    const raw = readdirSync(join(dir, DISK_CACHE_FOLDER)).map((f) => readFileSync(join(dir, DISK_CACHE_FOLDER, f), 'utf8')).join('\n');
    for (const s of [apiKey, 'p@ss-w0rd', 'p%40ss-w0rd', 'ci-user']) assert.ok(!raw.includes(s), `"${s}" is not on disk`);
    assert.match(cache.get(key(1), 60_000)?.text ?? '', /your key is \[redacted\]/);
  });

  it('evicts the least recently used entries past its size cap, and leaves foreign files alone', () => {
    const dir = tempDir();
    let now = 1_000_000_000;
    const size = Buffer.byteLength(JSON.stringify({ format: 'quorum-review-cache', version: 1, key: key(1), storedAt: now, value: answer('a'.repeat(1000)) }));
    const cache = new DiskCache({ dir, maxBytes: size * 3 + 10, now: () => now });
    const folder = join(dir, DISK_CACHE_FOLDER);
    for (const n of [1, 2, 3]) {
      now += 1000;
      cache.set(key(n), answer(String(n).repeat(1000)));
    }
    writeFileSync(join(folder, 'README.txt'), 'not ours');
    now += 1000;
    assert.ok(cache.get(key(1), 3_600_000), 'reading 1 makes 2 the least recently used');
    now += 1000;
    cache.set(key(4), answer('4'.repeat(1000)));
    assert.equal(cache.get(key(2), 3_600_000), undefined, 'evicted');
    for (const n of [1, 3, 4]) assert.ok(cache.get(key(n), 3_600_000), `entry ${n} kept`);
    assert.equal(cache.stats.evicted, 1);
    assert.ok(readdirSync(folder).includes('README.txt'));
  });

  it('is safe with several processes writing the same and different keys at once', async function () {
    this.timeout(120_000);
    const dir = tempDir();
    const shared = key(999);
    const writers = 6;
    const rounds = 40;
    const results = await Promise.all(Array.from({ length: writers }, (_, i) => new Promise<{ id: string; torn: number; foreign: number; sharedSeen: number; writeErrors: number }>((ok, fail) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'fixtures', 'cache', 'writer.ts'), dir, String(i + 1), String(rounds), shared], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', fail);
      child.on('close', (code) => (code === 0 ? ok(JSON.parse(out) as Parameters<typeof ok>[0]) : fail(new Error(`writer ${i + 1} exited ${code}: ${err}`))));
    })));
    for (const r of results) {
      assert.equal(r.torn, 0, `writer ${r.id} read a torn or missing entry`);
      assert.equal(r.foreign, 0, `writer ${r.id} read a mixed entry`);
      assert.equal(r.sharedSeen, rounds);
      assert.equal(r.writeErrors, 0);
    }
    const folder = join(dir, DISK_CACHE_FOLDER);
    const names = readdirSync(folder);
    assert.deepEqual(names.filter((n) => n.endsWith('.tmp')), [], 'no temporary file is left behind');
    assert.equal(names.length, writers * rounds + 1, 'every key of every writer, and the shared one, once');
    const reader = new DiskCache({ dir });
    assert.match(reader.get(shared, 60_000)?.text ?? '', /^writer \d+ round \d+ x{65536}$/);
    for (let w = 1; w <= writers; w++) {
      for (let r = 0; r < rounds; r++) assert.equal(reader.get(`${String(w).padStart(4, '0')}${String(r).padStart(60, '0')}`, 60_000)?.text, `own ${w} ${r}`);
    }
  });

  it('lives in $XDG_CACHE_HOME/quorum, else ~/.cache/quorum', () => {
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/ci', HOME: '/home/u' }), join('/var/cache/ci', 'quorum'));
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: 'relative/ignored', HOME: '/home/u' }), join('/home/u', '.cache', 'quorum'));
    assert.equal(defaultCacheDir({ HOME: '/home/u' }), join('/home/u', '.cache', 'quorum'));
  });
});
