import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Log } from 'sarif';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type Reply, type TestGateway } from '../../fixtures/gateway/server';
import { validateSarif } from '../report/multitool';

const root = resolve(__dirname, '..', '..', '..');
const KEY = 'sk-ci-outputs-key-5555555555';
const fixture = join(root, 'test', 'fixtures', 'code', 'users.py');
const findings = (...list: object[]) => JSON.stringify({ findings: list });
const REPLIES: Record<string, Reply> = {
  'gpt-4.1': { text: findings({ severity: 'high', title: 'SQL injection in user lookup', explanation: 'name is formatted into SQL.', startLine: 6, endLine: 6, confidence: 0.6 }, { severity: 'info', title: 'Docstring, missing: 100%', explanation: 'a\nb', startLine: 1, endLine: 2 }) },
  'claude-sonnet-4.5': { text: findings({ severity: 'low', title: 'Connection opened per call', explanation: 'Pass the connection in.', startLine: 4, endLine: 5 }) },
  'gemini-2.5-flash': { text: findings({ severity: 'critical', title: 'SQL injection in the user lookup', explanation: 'Attacker-controlled name.', startLine: 6, endLine: 6, cwe: 'CWE-89', confidence: 0.7, suggestion: '    cur.execute("SELECT * FROM users WHERE name = ?", (name,))' }, { severity: 'medium', title: 'Weak | hash', explanation: 'md5', startLine: 7, endLine: 7, cwe: 'CWE-327' }) },
  'deepseek-v3.2': { text: JSON.stringify({ rationale: 'Parameterised.', improvedCode: 'x = 1' }) },
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('CLI outputs for CI: SARIF, GitHub annotations, step summary, exit codes', function () {
  this.timeout(120_000);
  let tg: TestGateway;
  let dir: string;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    dir = mkdtempSync(join(tmpdir(), 'quorum-ci-outputs-'));
  });
  after(async () => tg.close());
  beforeEach(() => tg.script((req) => (req.model ? REPLIES[req.model] : undefined)));

  async function quorum(argv: string[], env: Record<string, string> = {}): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['review', fixture, '--no-cache', '--verify', 'off', ...argv],
      env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, ...env },
      version: '9.8.7', signal: new AbortController().signal, cwd: root,
      stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }

  it('--format sarif --output FILE: the file holds SARIF that the SARIF Multitool validates without errors or warnings; the terminal keeps the text report', async () => {
    const file = join(dir, 'out', 'quorum.sarif');
    const run = await quorum(['--format', 'sarif', '--output', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Quorum review of .*users\.py:1–9$/m, 'the text report on stdout');
    assert.match(run.stdout, /^Total: \$/m);
    const raw = readFileSync(file, 'utf8');
    assert.ok(!raw.includes(KEY));
    const log = JSON.parse(raw) as Log;
    const results = log.runs[0]?.results ?? [];
    assert.equal(log.runs[0]?.tool.driver.version, '9.8.7');
    assert.deepEqual(results.map((r) => [r.ruleId, r.level]), [
      ['quorum/security/CWE-89', 'error'], ['quorum/security/CWE-327', 'warning'], ['quorum/architecture/connection-opened-per-call', 'note'], ['quorum/analyst/docstring-missing-100', 'note'],
    ]);
    assert.deepEqual(results[0]?.locations?.[0]?.physicalLocation?.artifactLocation, { uri: 'test/fixtures/code/users.py', uriBaseId: '%SRCROOT%' });
    const reported = validateSarif(file);
    // SARIF2005 asks for the tool's informationUri, which is optional in SARIF 2.1.0: the project publishes no home
    // page yet, and a made-up one (it was https://example.invalid/quorum) would show in code scanning as a link.
    const serious = reported.filter((r) => (r.level === 'error' || r.level === 'warning') && !(r.ruleId === 'SARIF2005' && /tool\.driver/.test(r.text ?? '')));
    assert.deepEqual(serious, [], JSON.stringify(serious, null, 1));
  });

  it('--format sarif on stdout is the same document', async () => {
    const run = await quorum(['--format', 'sarif']);
    assert.equal(run.code, 0, run.stderr);
    const log = JSON.parse(run.stdout) as Log;
    assert.equal(log.runs[0]?.results?.length, 4);
  });

  it('--format github prints annotations with repository-relative paths and appends a summary to $GITHUB_STEP_SUMMARY', async () => {
    const summaryFile = join(dir, 'step-summary.md');
    writeFileSync(summaryFile, '# earlier step\n');
    const run = await quorum(['--format', 'github'], { GITHUB_STEP_SUMMARY: summaryFile });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4);
    assert.equal(lines[0], '::error file=test/fixtures/code/users.py,line=6,endLine=6,title=[critical] SQL injection in the user lookup::Attacker-controlled name.%0A%0ASuggested replacement:%0A    cur.execute("SELECT * FROM users WHERE name = ?", (name,))%0A%0Asecurity, analyst · confidence 88%25 · CWE-89');
    assert.match(lines[3] ?? '', /^::notice file=test\/fixtures\/code\/users\.py,line=1,endLine=2,title=\[info\] Docstring%2C missing%3A 100%25::a%0Ab/);
    const md = readFileSync(summaryFile, 'utf8');
    assert.ok(md.startsWith('# earlier step\n### Quorum review: test/fixtures/code/users.py lines 1–9'), md);
    assert.match(md, /\| 🟡 medium \| `test\/fixtures\/code\/users\.py:7` \| Weak \\\| hash \(CWE-327\) \| security \| 60% \|/);
    assert.match(md, /^\| coding \| deepseek-v3\.2 \| ok \|/m);
    assert.match(md, /^\| \*\*Total\*\* \|/m);
  });

  it('exits 3, not 1 or 0, when the key is refused or the quota is spent, whatever --fail-on says', async () => {
    tg.script((req) => (req.model === 'claude-sonnet-4.5' ? { kind: 'error', status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota' } : req.model ? REPLIES[req.model] : undefined));
    const quota = await quorum(['--format', 'json', '--fail-on', 'high']);
    assert.equal(quota.code, 3, quota.stderr);
    assert.match(quota.stderr, /\[architecture\] failed: quota/);
    tg.script(() => ({ kind: 'error', status: 401, message: 'invalid api key' }));
    const auth = await quorum(['--format', 'sarif', '--fail-on', 'none']);
    assert.equal(auth.code, 3, auth.stderr);
    const log = JSON.parse(auth.stdout) as Log;
    assert.equal(log.runs[0]?.invocations?.[0]?.executionSuccessful, false);
    tg.script((req) => (req.model ? REPLIES[req.model] : undefined));
    assert.equal((await quorum(['--fail-on', 'high'])).code, 1, '--fail-on unchanged');
  });

  it('refuses an unknown format and an empty --output as usage errors', async () => {
    const bad = await quorum(['--format', 'xml']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format is text, markdown, json, sarif, github/);
    const unwritable = await quorum(['--format', 'sarif', '--output', join(fixture, 'nope.sarif')]);
    assert.equal(unwritable.code, 2);
    assert.match(unwritable.stderr, /cannot write --output/);
  });
});
