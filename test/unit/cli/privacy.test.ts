import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { SECRETS } from '../../fixtures/secrets/corpus';

const KEY = 'sk-cli-privacy-key-0123456789';

async function cli(argv: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, ...env }, version: '0.0.0', signal: new AbortController().signal,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-privacy-'));
  mkdirSync(join(dir, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Every form in which a secret could travel: as written, JSON-escaped, and each line of a multi-line one. */
function forms(secret: string): string[] {
  const lines = secret.split('\n').filter((l) => l.length >= 8);
  return [secret, JSON.stringify(secret).slice(1, -1), ...lines];
}

describe('CLI privacy: what reaches the gateway', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  let env: Record<string, string>;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    env = { QUORUM_BASE_URL: tg.url };
  });
  after(async () => {
    await tg.close();
  });
  beforeEach(() => {
    tg.requests.length = 0;
    tg.script((req) => (req.model === 'deepseek-v3.2' ? { text: JSON.stringify({ rationale: 'r', improvedCode: 'x = 1' }) } : { text: '{"findings":[]}' }));
  });

  it('sends none of the corpus secrets, in any request, and says on stderr what it redacted (kinds and lines)', async () => {
    const code = ['# settings', ...SECRETS.map((s) => s.line), 'def main():', '    return 0', ''].join('\n');
    const dir = repo({ 'src/settings.py': code });
    const run = await cli(['review', join(dir, 'src/settings.py'), '--format', 'json'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 4);
    const received = tg.requests.map((r) => r.raw).join('\n');
    assert.ok(received.includes('[REDACTED:'), 'placeholders were sent instead');
    for (const s of SECRETS) for (const f of forms(s.secret)) assert.ok(!received.includes(f), `${s.kind} reached the gateway: ${f}`);
    assert.match(run.stderr, /redacted before sending: aws-access-key-id \(line 2\), aws-access-key-id \(line 3\)/);
    for (const s of SECRETS) for (const f of forms(s.secret)) assert.ok(!run.stderr.includes(f) && !run.stdout.includes(f), `${s.kind} printed`);
  });

  it('--dry-run prints the messages after rules and redaction, the host and the estimate, sends nothing and exits 0 without a key', async () => {
    const dir = repo({ 'app.ts': `const k = "${SECRETS[0]?.secret}";\nexport const x = 1;\n`, '.quorum/instructions.md': 'Flag every any.\n' });
    const run = await cli(['review', join(dir, 'app.ts'), '--dry-run', '--base-url', tg.url], { QUORUM_API_KEY: undefined });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(tg.requests.length, 0, 'the gateway received nothing');
    assert.match(run.stdout, /^# What Quorum will send/m);
    assert.match(run.stdout, /Gateway host:\*\* `127\.0\.0\.1:\d+`/);
    assert.match(run.stdout, /aws-access-key-id \(line 1\)/);
    assert.match(run.stdout, /const k = "\[REDACTED:aws-access-key-id\]";/);
    assert.match(run.stdout, /<repository-rules>\n### \.quorum\/instructions\.md\nFlag every any\.\n<\/repository-rules>/);
    assert.match(run.stdout, /## Coding \(coding\)[\s\S]*results of: analyst, architecture, security/);
    assert.ok(!run.stdout.includes(SECRETS[0]?.secret ?? '?'));
  });

  it('refuses a file excluded by quorum.privacy.exclude or .quorumignore, naming the rule, and sends nothing', async () => {
    const dir = repo({ '.env.production': 'DB=1\n', 'config/local.yml': 'a: 1\n', '.quorumignore': '# local only\nconfig/*.yml\n!config/public.yml\n' });
    const env1 = await cli(['review', join(dir, '.env.production')], env);
    assert.equal(env1.code, 2);
    assert.match(env1.stderr, /is never sent to a gateway: it matches "\*\*\/\.env\.\*" in quorum\.privacy\.exclude/);
    const ignored = await cli(['review', join(dir, 'config/local.yml')], env);
    assert.equal(ignored.code, 2);
    assert.match(ignored.stderr, /matches "config\/\*\.yml" in \.quorumignore/);
    assert.equal(tg.requests.length, 0);
  });

  it('puts the repository rules and project agents in the requests, names them on stderr, and --no-rules leaves them out', async () => {
    const dir = repo({
      'src/db/query.py': 'def q(c, n):\n    return c.execute("SELECT * FROM t WHERE n = \'%s\'" % n)\n',
      'AGENTS.md': 'Repository-wide: be brief.\n',
      '.quorum/rules/python.md': '---\napplyTo: "src/**/*.py"\n---\nPython: prefer parameterised queries.\n',
      '.quorum/rules/go.md': '---\napplyTo: "**/*.go"\n---\nGo: wrap errors.\n',
      '.quorum/agents/security.md': 'Security: check every query.\n',
      '.quorum/agents/perf.md': '---\ntitle: Performance\nmodel: gpt-4.1-mini\ndependsOn: [analyst]\n---\nYou review performance only.\n',
    });
    const run = await cli(['review', join(dir, 'src/db/query.py'), '--format', 'json'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /repository rules: \.quorum\/agents\/security\.md, \.quorum\/rules\/python\.md, AGENTS\.md/);
    const chat = tg.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const systemOf = (model: string) => ((chat.find((r) => r.model === model)?.body?.messages ?? []) as { content: string }[])[0]?.content ?? '';
    assert.match(systemOf('gemini-2.5-flash'), /Security: check every query\./);
    assert.match(systemOf('gemini-2.5-flash'), /Python: prefer parameterised queries\./);
    assert.doesNotMatch(systemOf('gemini-2.5-flash'), /Go: wrap errors/);
    assert.doesNotMatch(systemOf('gpt-4.1'), /Security: check every query/);
    assert.match(systemOf('gpt-4.1-mini'), /^You review performance only\./);
    const out = JSON.parse(run.stdout) as { agents: { id: string; model: string }[] };
    assert.ok(out.agents.some((a) => a.id === 'perf' && a.model === 'gpt-4.1-mini'));

    tg.requests.length = 0;
    const bare = await cli(['review', join(dir, 'src/db/query.py'), '--format', 'json', '--no-rules'], env);
    assert.equal(bare.code, 0, bare.stderr);
    assert.ok(tg.requests.every((r) => !r.raw.includes('repository-rules') && r.model !== 'gpt-4.1-mini'));
    assert.doesNotMatch(bare.stderr, /repository rules/);
  });

  it('names the file and the field of a project agent it cannot use', async () => {
    const dir = repo({ 'a.py': 'x = 1\n', '.quorum/agents/bad.md': '---\ntitle: Bad\nmodel: "not a model!"\noutput: prose\n---\nText.\n' });
    const run = await cli(['review', join(dir, 'a.py'), '--dry-run'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /warning: \.quorum\/agents\/bad\.md: model: /);
    assert.match(run.stderr, /warning: \.quorum\/agents\/bad\.md: output: /);
  });
});
