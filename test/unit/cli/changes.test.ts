import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { parseArgs } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/flags';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { numbered, TempRepo } from '../changes/gitRepo';

const KEY = 'sk-test-cli-changes-0123456789';

async function quorum(argv: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv, cwd, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-cli-cache-')), ...env }, version: '0.0.0', signal: new AbortController().signal,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

function json(stdout: string): JsonOutput {
  const parsed = jsonOutputSchema.safeParse(JSON.parse(stdout));
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
  return parsed.data;
}

describe('quorum review --changes (against the loopback test gateway, on real git repositories)', function () {
  this.timeout(90_000);
  let tg: TestGateway;
  let repo: TempRepo;
  let env: Record<string, string>;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 5, tokensPerSecond: 0 });
    env = { QUORUM_BASE_URL: tg.url };
  });
  after(() => tg.close());
  beforeEach(() => {
    repo = new TempRepo();
    tg.requests.length = 0;
  });
  afterEach(() => repo.dispose());

  it('parses --changes and its kinds, and refuses what does not go together', () => {
    const a = parseArgs(['review', '--changes', '--base', 'main', '--repo', 'x', '--all-findings']);
    assert.ok(a.command === 'review');
    assert.deepEqual([a.changes, a.repo, a.allFindings, a.file], [{ kind: 'ref', ref: 'main' }, 'x', true, '']);
    assert.deepEqual(a.command === 'review' && parseArgs(['review', '--changes', '--staged']).command === 'review' ? (parseArgs(['review', '--changes', '--staged']) as { changes?: unknown }).changes : undefined, { kind: 'staged' });
    for (const [argv, re] of [
      [['review', '--staged'], /--staged goes with --changes/],
      [['review', '--changes', 'a.ts'], /give no <file>/],
      [['review', '--changes', '--staged', '--last-commit'], /do not go together/],
      [['review', '--changes', '--lines', '1-2'], /--lines does not go with --changes/],
    ] as const) assert.throws(() => parseArgs([...argv]), (e: unknown) => e instanceof UsageError && re.test(e.message));
  });

  it('reviews the uncommitted changes from a subfolder: paths from the root, targets, skipped, merged findings per file, outside findings dropped', async () => {
    repo.write('src/db/users.py', numbered(60)).write('README.md', 'hello\n').commit();
    repo.write('src/db/users.py', numbered(60, (i) => (i === 30 ? 'query = "SELECT * FROM users WHERE name = \'%s\'" % name' : `line ${i}`)));
    repo.write('package-lock.json', '{}\n');
    repo.write('src/new.ts', 'export const a = 1;\n');
    mkdirSync(join(repo.dir, 'src', 'deep'), { recursive: true });
    tg.script((req) => {
      const user = JSON.stringify(req.body?.messages ?? []);
      if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'r', replacements: [] }) };
      if (!user.includes('src/db/users.py')) return { text: '{"findings":[]}' };
      return { text: JSON.stringify({ findings: [
        { file: 'src/db/users.py', severity: 'critical', title: 'SQL injection in user query', startLine: 30, endLine: 30, cwe: 'CWE-89', confidence: 0.8 },
        { file: 'src/db/users.py', severity: 'low', title: 'Naming', startLine: 25, endLine: 25 },
      ] }) };
    });
    const run = await quorum(['review', '--changes', '--format', 'json'], join(repo.dir, 'src', 'deep'), env);
    assert.equal(run.code, 0, run.stderr);
    const out = json(run.stdout);
    assert.equal(out.target, null);
    assert.deepEqual(out.targets, [{ file: 'src/db/users.py', startLine: 20, endLine: 40 }, { file: 'src/new.ts', startLine: 1, endLine: 1 }]);
    assert.deepEqual(out.skipped, [{ file: 'package-lock.json', reason: 'lockfile' }]);
    assert.deepEqual(out.findings.map((f) => [f.file, f.startLine, f.severity, f.agents.length]), [['src/db/users.py', 30, 'critical', 3]]);
    assert.ok(out.agents.every((a) => a.findings.every((f) => f.file === 'src/db/users.py')));
    assert.match(run.stderr, /Uncommitted changes: 2 files, \+2 -1, 1 skipped, in 1 request per agent/);
    // --all-findings keeps the finding on an unchanged line, marked.
    const all = json((await quorum(['review', '--changes', '--format', 'json', '--all-findings'], repo.dir, env)).stdout);
    assert.deepEqual(all.findings.filter((f) => f.outsideChanges).map((f) => [f.file, f.startLine]), [['src/db/users.py', 25]]);
  });

  it('nothing to review: exit 0, "nothing to review" on stderr, the same document with empty lists', async () => {
    repo.write('a.ts', 'a\n').commit();
    repo.write('yarn.lock', 'x\n');
    const run = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /nothing to review/);
    const out = json(run.stdout);
    assert.deepEqual([out.target, out.targets, out.findings, out.agents], [null, [], [], []]);
    assert.deepEqual(out.skipped, [{ file: 'yarn.lock', reason: 'lockfile' }]);
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0);
  });

  it('--last-commit on a repository with one commit reviews that commit against the empty tree', async () => {
    repo.write('src/a.ts', numbered(3)).write('b.md', 'b\n').commit('first');
    tg.script(() => ({ text: '{"findings":[]}' }));
    const run = await quorum(['review', '--changes', '--last-commit', '--format', 'json'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(json(run.stdout).targets, [{ file: 'b.md', startLine: 1, endLine: 1 }, { file: 'src/a.ts', startLine: 1, endLine: 3 }]);
  });

  it('labels each agent\'s cost by what happened: reported by the gateway, priced from reported usage, none (JSON and Markdown)', async () => {
    repo.write('a.ts', 'a\n').commit();
    repo.write('a.ts', 'b\n');
    tg.script((req) =>
      req.model === 'gpt-4.1' ? { text: '{"findings":[]}', cost: 0.003 }
      : req.model === 'gemini-2.5-flash' ? { kind: 'error', status: 400, message: 'bad request' }
      : { text: req.model === 'deepseek-v3.2' ? '{"rationale":"r","replacements":[]}' : '{"findings":[]}' });
    const out = json((await quorum(['review', '--changes', '--format', 'json'], repo.dir, env)).stdout);
    assert.deepEqual(Object.fromEntries(out.agents.map((a) => [a.id, a.costSource])), { analyst: 'reported', architecture: 'usage', security: 'none', coding: 'usage' });
    const md = (await quorum(['review', '--changes', '--format', 'markdown'], repo.dir, env)).stdout;
    assert.match(md, /\| Analyst \|[^\n]*\(reported by the gateway\)/);
    assert.match(md, /\| Architecture \|[^\n]*\(priced from reported usage\)/);
    assert.match(md, /\| Security \|[^\n]*\(nothing billed\)/);
  });

  it('--dry-run shows each request (batch) as it is sent: the regions it holds and its messages, nothing sent', async () => {
    repo.write('README.md', 'r\n').commit();
    // Two files of about 7,000 tokens each: two batches of 12,000.
    repo.write('a.ts', numbered(700, (i) => `export const alpha${i} = ${i}; // a.ts line`)).write('b.ts', numbered(700, (i) => `export const beta${i} = ${i}; // b.ts line`));
    const run = await quorum(['review', '--changes', '--dry-run'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.match(/^# What Quorum will send$/gm)?.length, 1);
    assert.match(run.stdout, /\*\*Reviewed:\*\* Uncommitted changes \(regions: 2 · files: 2 · requests per agent: 2\)/);
    const [, first = '', second = ''] = run.stdout.split(/^## Request \d of 2$/m);
    assert.match(first, /\*\*Holds:\*\* a\.ts \(lines 1–700\)/);
    assert.match(first, /alpha699/);
    assert.doesNotMatch(first, /beta1 /);
    assert.match(second, /\*\*Holds:\*\* b\.ts \(lines 1–700\)/);
    assert.doesNotMatch(second, /alpha1 /);
    assert.equal(second.match(/^### [A-Z][a-z]+ \((analyst|architecture|security|coding)\)$/gm)?.length, 4);
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0);
  });

  it('reviews files whose names git quotes (tab, line break, double quote, backslash, control and non-ASCII bytes) under their real names, renamed ones too', async () => {
    const names = { quote: 'src/say "hi".py', backslash: 'src/back\\slash.py', tab: 'src/tab\there.py', newline: 'src/line\nbreak.py', control: 'src/bell\x07.py', accents: 'src/ünï.py', from: 'old\tname.ts', to: 'new "name"\\x.ts' };
    repo.write(names.quote, numbered(5)).write(names.backslash, numbered(5)).write(names.accents, numbered(5)).write(names.from, numbered(40));
    repo.write('latin.txt', Buffer.from('caf\xe9\n', 'latin1')).commit();
    repo.write(names.quote, numbered(5, (i) => (i === 2 ? 'two' : `line ${i}`))).write(names.backslash, numbered(5, (i) => (i === 3 ? 'three' : `line ${i}`)));
    // A file that is not UTF-8 in the same diff: the diff's text is then read as Latin-1, the names must not be.
    repo.write(names.accents, numbered(5, (i) => (i === 4 ? 'four' : `line ${i}`))).write('latin.txt', Buffer.from('na\xefve\n', 'latin1'));
    repo.write(names.tab, 'tab = 1\n').write(names.newline, 'newline = 1\n').write(names.control, 'bell = 1\n');
    repo.remove(names.from).write(names.to, numbered(40, (i) => (i === 20 ? 'twenty' : `line ${i}`)));
    repo.git('add', names.to, names.from);
    tg.script((req) => {
      if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'r', replacements: [] }) };
      return { text: JSON.stringify({ findings: [
        { file: names.tab, severity: 'high', title: 'Tab finding', startLine: 1, endLine: 1 },
        { file: names.to, severity: 'medium', title: 'Rename finding', startLine: 20, endLine: 20 },
      ] }) };
    });
    const run = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    const out = json(run.stdout);
    assert.deepEqual(out.skipped, []);
    assert.deepEqual(out.targets.map((t) => [t.file, t.startLine, t.endLine]).sort(), [
      [names.backslash, 1, 5], [names.control, 1, 1], [names.newline, 1, 1], [names.quote, 1, 5], [names.accents, 1, 5], [names.tab, 1, 1], ['latin.txt', 1, 1], [names.to, 10, 30],
    ].sort());
    assert.deepEqual(out.findings.map((f) => [f.file, f.startLine, f.title]).sort(), [[names.to, 20, 'Rename finding'], [names.tab, 1, 'Tab finding']].sort());
    // The staged side and the last commit name them the same way.
    const staged = json((await quorum(['review', '--changes', '--staged', '--format', 'json'], repo.dir, env)).stdout);
    assert.deepEqual(staged.targets.map((t) => t.file), [names.to]);
    repo.commit('all');
    const last = json((await quorum(['review', '--changes', '--last-commit', '--format', 'json'], repo.dir, env)).stdout);
    assert.deepEqual([last.targets.length, last.skipped], [8, []]);
  });

  it('leaves untracked files out when the repository sets status.showUntrackedFiles=no, and says so once on stderr', async () => {
    repo.write('a.ts', numbered(5)).commit();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('a.ts', numbered(5, (i) => (i === 3 ? 'three' : `line ${i}`))).write('new.ts', 'export const n = 1;\n').write('src/other.py', 'x = 1\n');
    tg.script((req) => ({ text: req.model === 'deepseek-v3.2' ? '{"rationale":"r","replacements":[]}' : '{"findings":[]}' }));
    const files = (out: JsonOutput) => out.targets.map((t) => t.file);
    const note = /untracked files are left out: status\.showUntrackedFiles is "no"/g;
    const included = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.deepEqual(files(json(included.stdout)), ['a.ts', 'new.ts', 'src/other.py']);
    assert.doesNotMatch(included.stderr, note);
    for (const value of ['no', 'false', 'No']) {
      repo.git('config', 'status.showUntrackedFiles', value);
      for (const argv of [['--changes'], ['--changes', '--base', 'main']]) {
        const run = await quorum(['review', ...argv, '--format', 'json'], repo.dir, env);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(files(json(run.stdout)), ['a.ts'], `${value} ${argv.join(' ')}`);
        assert.equal(run.stderr.match(note)?.length, 1, run.stderr);
      }
    }
    // Only "no" (or false) leaves them out; "all" and "normal" show them, as git status does.
    repo.git('config', 'status.showUntrackedFiles', 'normal');
    const normal = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.deepEqual(files(json(normal.stdout)), ['a.ts', 'new.ts', 'src/other.py']);
    assert.doesNotMatch(normal.stderr, note);
    // A review of the index or of the last commit never holds untracked files: nothing to say.
    repo.git('config', 'status.showUntrackedFiles', 'no');
    repo.git('add', 'a.ts');
    const staged = await quorum(['review', '--changes', '--staged', '--format', 'json'], repo.dir, env);
    assert.deepEqual(files(json(staged.stdout)), ['a.ts']);
    assert.doesNotMatch(staged.stderr, note);
  });

  it('names files on stderr as text, not as terminal controls (a name git quotes is read back with its escape characters)', async () => {
    repo.write('a.ts', 'a\n').commit();
    repo.write('a.ts', 'b\n').write('x\x1b]0;owned\x07\x1b[2J.min.js', 'x\n');
    repo.git('add', '-A');
    tg.script((req) => ({ text: req.model === 'deepseek-v3.2' ? '{"rationale":"r","replacements":[]}' : '{"findings":[]}' }));
    const run = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(json(run.stdout).skipped, [{ file: 'x\x1b]0;owned\x07\x1b[2J.min.js', reason: 'minified' }]);
    assert.match(run.stderr, /skipped x<U\+001B>\]0;owned<U\+0007><U\+001B>\[2J\.min\.js: minified/);
    // eslint-disable-next-line no-control-regex -- the test looks for control characters the output must not hold
    assert.doesNotMatch(run.stderr, /[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('a review of several batches tells each agent once on stderr: queued, started and done', async () => {
    repo.write('README.md', 'r\n').commit();
    // Four files of about 7,000 tokens each: four batches.
    for (const f of ['a', 'b', 'c', 'd']) repo.write(`${f}.ts`, numbered(700, (i) => `export const ${f}${i} = ${i}; // ${f}.ts line`));
    tg.script((req) => ({ text: req.model === 'deepseek-v3.2' ? '{"rationale":"r","replacements":[]}' : '{"findings":[]}' }));
    const run = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 16);
    for (const agent of ['analyst', 'architecture', 'security', 'coding']) {
      for (const state of ['queued', 'started', 'done']) assert.equal(run.stderr.split(`[${agent}] ${state}`).length - 1, 1, `[${agent}] ${state} once:\n${run.stderr}`);
    }
  });

  it('outside a repository or with an unknown ref: exit 2 with one line naming the problem', async () => {
    const outside = await quorum(['review', '--changes'], mkdtempSync(join(tmpdir(), 'quorum-norepo-')), env);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /^quorum: .* is not in a git repository\n$/);
    repo.write('a.ts', 'a\n').commit();
    const unknown = await quorum(['review', '--changes', '--base', 'nope'], repo.dir, env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^quorum: unknown ref "nope"[^\n]*\n$/);
  });
});
