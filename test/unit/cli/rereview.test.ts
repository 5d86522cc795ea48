import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { dismissFinding } from '../../../src/core/memory/dismissed';
import { startTestGateway, type RecordedRequest, type TestGateway } from '../../fixtures/gateway/server';
import { isVerifierRequest, verifierPersona } from '../../fixtures/gateway/verifier';
import { TempRepo } from '../changes/gitRepo';
import { shellSections } from './cliKit';

const KEY = 'sk-test-rereview-0123456789';
const FILES = ['a.py', 'b.py', 'c.py'];
const original = (name: string) => ['import os', '', `def ${name}(cmd):`, '    return cmd', ''].join('\n');
const changed = (name: string, how = 'os.system') => ['import os', '', `def ${name}(cmd):`, `    return ${how}("sh -c " + cmd)`, ''].join('\n');

/** The files a reviewer request sends, by their `File:` lines. */
function filesSent(r: RecordedRequest): string[] {
  const messages = (r.body?.messages ?? []) as { role: string; content: string }[];
  return [...(messages.find((m) => m.role === 'user')?.content ?? '').matchAll(/^File: (.+)$/gm)].map((m) => m[1] ?? '');
}

describe('re-reviews send only what changed, carry the rest over, count what was resolved, and never bring back what was dismissed (a real git repository)', function () {
  this.timeout(90_000);
  let tg: TestGateway;
  let repo: TempRepo;
  /** The title the reviewer gives each file's finding. */
  let titles: Record<string, string>;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    const verifier = verifierPersona();
    tg.script((r) => {
      if (!r.path.endsWith('/chat/completions')) return undefined;
      const v = verifier(r);
      if (v) return v;
      const findings = shellSections(r).map(({ file, line }) => ({ file, severity: 'high', title: titles[file] ?? 'Issue', explanation: 'cmd reaches a shell.', startLine: line, endLine: line, confidence: 0.8 }));
      return { text: JSON.stringify({ findings }), cost: 2 ** -8 };
    });
  });
  after(() => tg.close());
  beforeEach(() => {
    repo = new TempRepo();
    for (const f of FILES) repo.write(f, original(f.slice(0, 1)));
    repo.commit();
    for (const f of FILES) repo.write(f, changed(f.slice(0, 1)));
    titles = Object.fromEntries(FILES.map((f) => [f, `Command injection in ${f}`]));
    tg.requests.length = 0;
  });
  afterEach(() => repo.dispose());

  async function review(cacheDir: string, ...extra: string[]): Promise<JsonOutput> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['review', '--changes', '--agents', 'security', '--format', 'json', '--cache-dir', cacheDir, ...extra], cwd: repo.dir,
      env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url }, version: '0.0.0', signal: new AbortController().signal,
      stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    assert.equal(code, 0, stderr);
    return jsonOutputSchema.parse(JSON.parse(stdout));
  }
  const reviewerRequests = () => tg.requests.filter((r) => r.path.endsWith('/chat/completions') && !isVerifierRequest(r));
  const verifierRequests = () => tg.requests.filter((r) => r.path.endsWith('/chat/completions') && isVerifierRequest(r));
  const cacheDir = () => mkdtempSync(join(tmpdir(), 'quorum-rereview-cache-'));

  it('edit one of three files: one region sent, the other findings carried over at $0; the old finding of the edited file resolved', async () => {
    const cache = cacheDir();
    const first = await review(cache);
    assert.deepEqual(reviewerRequests().flatMap(filesSent).sort(), FILES);
    assert.deepEqual(first.findings.map((f) => f.title).sort(), FILES.map((f) => `Command injection in ${f}`));
    assert.equal(first.targets.some((t) => t.reused), false);
    assert.equal(first.resolved, undefined);

    repo.write('b.py', changed('b', 'subprocess.call'));
    titles['b.py'] = 'Unsafe subprocess call in b.py';
    tg.requests.length = 0;
    const second = await review(cache);
    assert.deepEqual(reviewerRequests().map(filesSent), [['b.py']], 'only the changed region is sent');
    assert.equal(verifierRequests().length, 1, 'only the new finding is verified');
    assert.deepEqual(second.targets.map((t) => [t.file, t.reused ?? false]), [['a.py', true], ['b.py', false], ['c.py', true]]);
    const byFile = Object.fromEntries(second.findings.map((f) => [f.file, f]));
    assert.deepEqual([byFile['a.py']?.carried, byFile['b.py']?.carried, byFile['c.py']?.carried], [true, undefined, true]);
    assert.equal(byFile['b.py']?.title, 'Unsafe subprocess call in b.py');
    // Carried findings keep their verdict and their lines.
    assert.deepEqual([byFile['a.py']?.verification?.verdict, byFile['a.py']?.startLine], ['confirmed', 4]);
    assert.deepEqual(second.resolved?.map((f) => [f.file, f.title]), [['b.py', 'Command injection in b.py']]);
    // Only the sent region cost anything.
    const third = (tg.requests.length = 0, await review(cache));
    assert.equal(reviewerRequests().length + verifierRequests().length, 0, 'nothing changed: nothing sent');
    assert.deepEqual([third.totals.costUsd, third.targets.every((t) => t.reused), third.findings.every((f) => f.carried)], [0, true, true]);
    assert.deepEqual(third.resolved, []);
  });

  it('lines added far above a region move it and its carried findings; a different prompt version sends everything again', async () => {
    const filler = Array.from({ length: 30 }, (_, i) => `x${i} = ${i}`);
    repo.write('a.py', [...filler, original('a')].join('\n')).commit();
    repo.write('a.py', [...filler, changed('a')].join('\n'));
    const cache = cacheDir();
    const first = await review(cache);
    assert.equal(first.findings.find((f) => f.file === 'a.py')?.startLine, 34);
    // A new line at the top: a region of its own (far from the other), which is sent; the old region is carried, moved.
    repo.write('a.py', ['import sys', ...filler, changed('a')].join('\n'));
    tg.requests.length = 0;
    const moved = await review(cache);
    assert.deepEqual(reviewerRequests().map(filesSent), [['a.py']]);
    assert.deepEqual(moved.targets.filter((t) => t.file === 'a.py').map((t) => [t.startLine, t.reused ?? false]), [[1, false], [25, true]]);
    const a = moved.findings.find((f) => f.file === 'a.py');
    assert.deepEqual([a?.startLine, a?.carried], [35, true]);
    tg.requests.length = 0;
    await review(cache, '--language', 'ko');
    assert.deepEqual(reviewerRequests().flatMap(filesSent), ['a.py', 'a.py'], 'another review version: nothing is reused (b.py and c.py were committed)');
  });

  it('dismiss one: never shown again, also after the model renames its title, until its code changes', async () => {
    const cache = cacheDir();
    const first = await review(cache);
    const a = first.findings.find((f) => f.file === 'a.py');
    assert.ok(a);
    await dismissFinding(repo.dir, { finding: a, text: readFileSync(join(repo.dir, 'a.py'), 'utf8'), firstLine: 1, file: 'a.py' });
    // The team commits .quorum/dismissed.json (else it is one of the changes reviewed).
    repo.git('add', '.quorum/dismissed.json');
    repo.git('commit', '-q', '-m', 'dismiss', '--', '.quorum/dismissed.json');
    // Carried over: hidden.
    const carried = await review(cache, '--show-hidden');
    assert.deepEqual(carried.findings.filter((f) => f.file === 'a.py').map((f) => [f.carried, f.hiddenReason]), [[true, 'dismissed']]);
    assert.equal((await review(cache)).findings.some((f) => f.file === 'a.py'), false);
    // Reviewed afresh (another machine's cache) and renamed by the model: still hidden.
    titles['a.py'] = 'Shell command built from untrusted input';
    tg.requests.length = 0;
    const renamed = await review(cacheDir(), '--show-hidden');
    assert.deepEqual(reviewerRequests().map(filesSent), [FILES]);
    assert.deepEqual(renamed.findings.filter((f) => f.file === 'a.py').map((f) => [f.title, f.hiddenReason]), [['Shell command built from untrusted input', 'dismissed']]);
    assert.equal(renamed.hiddenFindings, 1);
    // Its code changes: it comes back.
    repo.write('a.py', changed('a', 'os.popen'));
    const back = await review(cache);
    assert.deepEqual(back.findings.filter((f) => f.file === 'a.py').map((f) => f.title), ['Shell command built from untrusted input']);
  });
});
