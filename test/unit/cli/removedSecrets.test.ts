import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { SECRETS } from '../../fixtures/secrets/corpus';
import { numbered, TempRepo } from '../changes/gitRepo';

/**
 * Issue 20, item 2: a change that deletes `db_password = "…"` sent the old value, in the removed line, to every
 * agent. Removed lines and context lines go through the same redaction as added lines; every byte the gateway
 * receives is searched for every secret of the corpus.
 */

const KEY = 'sk-test-removed-secrets-0123456789';
const DB_PASSWORD = 'pr0d-Db-Pa55-9f3Kq';

async function quorum(argv: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv, cwd, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-cli-cache-')), ...env }, version: '0.0.0', signal: new AbortController().signal,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/** Every form in which a secret could travel: as written, JSON-escaped, and each line of a multi-line one. */
function forms(secret: string): string[] {
  return [secret, JSON.stringify(secret).slice(1, -1), ...secret.split('\n').filter((l) => l.length >= 8)];
}

describe('quorum review --changes: removed and context lines are redacted like added ones', function () {
  this.timeout(120_000);
  let tg: TestGateway;
  let repo: TempRepo;
  let env: Record<string, string>;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    env = { QUORUM_BASE_URL: tg.url };
  });
  after(() => tg.close());
  beforeEach(() => {
    repo = new TempRepo();
    tg.requests.length = 0;
    tg.script((req) => ({ text: req.model === 'deepseek-v3.2' ? '{"rationale":"r","replacements":[]}' : '{"findings":[]}' }));
  });
  afterEach(() => repo.dispose());

  it('a change that deletes db_password (and every corpus secret) sends none of them: every byte received is searched', async () => {
    const secretLines = [`db_password = "${DB_PASSWORD}"`, ...SECRETS.flatMap((s) => s.line.split('\n'))];
    // The secrets sit in lines 11… of the old file; a later change removes them all and edits line 5.
    repo.write('config/settings.py', numbered(10) + secretLines.join('\n') + '\n' + numbered(10, (i) => `tail ${i}`)).commit();
    repo.write('config/settings.py', numbered(10, (i) => (i === 5 ? 'line five, changed' : `line ${i}`)) + numbered(10, (i) => `tail ${i}`));
    const run = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    const chats = tg.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(chats.length, 4);
    const received = tg.requests.map((r) => r.raw).join('\n');
    // The removal did reach the agents: as removed lines, with placeholders for what they held.
    assert.match(received, /- +\| db_password = \\"\[REDACTED:secret-assignment\]\\"/);
    for (const f of forms(DB_PASSWORD)) assert.ok(!received.includes(f), 'the removed db_password reached the gateway');
    for (const s of SECRETS) for (const f of forms(s.secret)) assert.ok(!received.includes(f), `a removed ${s.kind} reached the gateway: ${f}`);
    // Redactions are reported by kind and place, never by value.
    assert.match(run.stderr, /redacted before sending: config\/settings\.py: secret-assignment \(line 10\)/);
    for (const s of SECRETS) assert.ok(!run.stderr.includes(s.secret) && !run.stdout.includes(s.secret), `${s.kind} printed`);
  });

  it('a secret on an unchanged context line and on a removed line of the same region: neither is sent, --dry-run shows neither', async () => {
    const aws = SECRETS[0];
    assert.ok(aws);
    repo.write('app.py', numbered(20, (i) => (i === 8 ? aws.line : i === 11 ? `db_password = "${DB_PASSWORD}"` : `line ${i}`))).commit();
    // Line 11 (the password) goes; line 10 changes; line 8 (the AWS key) is context.
    repo.write('app.py', numbered(19, (i) => (i === 8 ? aws.line : i === 10 ? 'line ten, changed' : `line ${i < 11 ? i : i + 1}`)));
    const dry = await quorum(['review', '--changes', '--dry-run'], repo.dir, env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /\[REDACTED:aws-access-key-id\]/);
    assert.match(dry.stdout, /\[REDACTED:secret-assignment\]/);
    for (const f of [...forms(aws.secret), ...forms(DB_PASSWORD)]) assert.ok(!dry.stdout.includes(f), `--dry-run shows ${f}`);
    const run = await quorum(['review', '--changes', '--format', 'json'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    const received = tg.requests.map((r) => r.raw).join('\n');
    assert.ok(received.length > 0);
    for (const f of [...forms(aws.secret), ...forms(DB_PASSWORD)]) assert.ok(!received.includes(f), `${f} reached the gateway`);
  });
});
