import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type RecordedRequest, type TestGateway } from '../../fixtures/gateway/server';
import { SECRETS } from '../../fixtures/secrets/corpus';
import { TempRepo } from '../changes/gitRepo';

const KEY = 'sk-test-cli-context-0123456789';

async function quorum(argv: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    // These tests count the reviewers' requests; the verifier (on by default) has its own tests (verify.test.ts).
    argv: argv[0] === 'review' && !argv.includes('--verify') ? [...argv, '--verify', 'off'] : argv, cwd, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-cli-cache-')), ...env }, version: '0.0.0', signal: new AbortController().signal,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

function json(stdout: string): JsonOutput {
  const parsed = jsonOutputSchema.safeParse(JSON.parse(stdout));
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
  return parsed.data;
}

const userOf = (r: RecordedRequest) => {
  const messages = (r.body?.messages ?? []) as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
};

const secret = SECRETS[0];

/** A helper in one file whose contract (a required second argument) the changed caller in another file breaks. */
function writeRepo(repo: TempRepo): void {
  repo
    .write('src/util.ts', [
      'export interface User { id: number; name: string }',
      '',
      '/** The name to show; `upper` is required: callers must say which form they want. */',
      'export function displayName(user: User, upper: boolean): string {',
      `  const audit = "${secret?.secret ?? ''}";`,
      '  if (upper === undefined) throw new Error(audit);',
      '  return upper ? user.name.toUpperCase() : user.name;',
      '}',
      '',
    ].join('\n'))
    .write('src/private/hidden.ts', 'export function hiddenHelper(): number {\n  return 42;\n}\n')
    .write('.quorumignore', 'src/private/\n')
    .write('src/app.ts', "import { displayName } from './util';\nimport { hiddenHelper } from './private/hidden';\nimport type { User } from './util';\n\nexport function greet(u: User): string {\n  return 'hello ' + displayName(u, false) + hiddenHelper();\n}\n")
    .write('src/main.ts', "import { greet } from './app';\n\nexport function start(): string {\n  return greet({ id: 1, name: 'x' });\n}\n")
    .commit();
  // The change: greet calls the helper without its required argument, and greet's own signature changes.
  repo.write('src/app.ts', "import { displayName } from './util';\nimport { hiddenHelper } from './private/hidden';\nimport type { User } from './util';\n\nexport function greet(u: User, loud: boolean): string {\n  return 'hello ' + displayName(u) + hiddenHelper();\n}\n");
}

describe('quorum review with context (against the loopback test gateway, on real git repositories)', function () {
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
    writeRepo(repo);
    tg.requests.length = 0;
    // The reviewer sees the missing argument only when displayName's definition is in the prompt; it also reports a
    // "problem" on a context line, which must be dropped.
    tg.script((req) => {
      if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'r', replacements: [] }) };
      const user = userOf(req);
      if (!user.includes('export function displayName(user: User, upper: boolean)')) return { text: '{"findings":[]}' };
      return { text: JSON.stringify({ findings: [
        { file: 'src/app.ts', severity: 'high', title: 'displayName is called without its required upper argument', startLine: 6, endLine: 6, confidence: 0.9 },
        { file: 'src/util.ts', severity: 'low', title: 'A finding on a context line', startLine: 7, endLine: 7, confidence: 0.9 },
      ] }) };
    });
  });
  afterEach(() => repo.dispose());

  it('sends each request the definition, the caller of the changed signature, numbered and read-only; reports them in JSON', async () => {
    const run = await quorum(['review', '--changes', '--format', 'json', '--agents', 'analyst,security'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    const out = json(run.stdout);
    assert.deepEqual(out.findings.map((f) => [f.file, f.startLine, f.title]), [['src/app.ts', 6, 'displayName is called without its required upper argument']]);
    assert.ok(out.context.some((c) => c.kind === 'definition' && c.symbol === 'displayName' && c.file === 'src/util.ts' && c.startLine === 4 && c.endLine === 8 && c.forFile === 'src/app.ts'), JSON.stringify(out.context));
    assert.ok(out.context.some((c) => c.kind === 'caller' && c.symbol === 'greet' && c.file === 'src/main.ts' && c.startLine <= 4 && c.endLine >= 4), JSON.stringify(out.context));
    assert.ok(out.totals.contextTokens > 0);
    assert.ok(!out.context.some((c) => c.file.startsWith('src/private/')), 'a file in .quorumignore is never context');
    assert.equal(tg.requests.length, 2);
    for (const req of tg.requests) {
      const user = userOf(req);
      assert.match(user, /Context \(read-only, not reviewed\):\n\nFile: src\/main\.ts \(caller greet, lines \d+-\d+\)/);
      assert.match(user, /File: src\/util\.ts \(definition displayName, lines 4-8\)\n```typescript\n4 \| export function displayName\(user: User, upper: boolean\): string \{\n5 \| {3}const audit = "\[REDACTED:aws-access-key-id\]";/);
      assert.ok(secret && !user.includes(secret.secret), 'a secret in context is redacted like reviewed code');
      assert.ok(!user.includes('hiddenHelper(): number'), 'nothing of an excluded file is sent');
      const system = ((req.body?.messages ?? []) as { role: string; content: string }[])[0]?.content ?? '';
      assert.match(system, /It is NOT reviewed: do not report findings on its lines/);
    }
  });

  it('--context off sends no context and the reviewer misses the bug; --context-tokens 0 too', async () => {
    for (const flags of [['--context', 'off'], ['--context-tokens', '0']]) {
      tg.requests.length = 0;
      const run = await quorum(['review', '--changes', '--format', 'json', '--agents', 'analyst', ...flags], repo.dir, env);
      assert.equal(run.code, 0, run.stderr);
      const out = json(run.stdout);
      assert.deepEqual(out.context, []);
      assert.equal(out.totals.contextTokens, 0);
      assert.deepEqual(out.findings, []);
      assert.equal(tg.requests.length, 1);
      assert.ok(!userOf(tg.requests[0] as RecordedRequest).includes('Context (read-only'));
    }
  });

  it('names the context in one line of the text report and the progress, and cuts to --context-tokens naming what was left out', async () => {
    const run = await quorum(['review', '--changes', '--agents', 'analyst'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Context: 2 definitions, 1 caller from 2 files · [\d,]+ tokens$/m);
    const small = await quorum(['review', '--changes', '--agents', 'analyst', '--context-tokens', '60', '--no-cache'], repo.dir, env);
    assert.equal(small.code, 0, small.stderr);
    assert.match(small.stderr, /context: .*left out for the token budget: displayName \(definition, src\/util\.ts\)/);
  });

  it('--dry-run shows the context block in what would be sent, for a selection too', async () => {
    const run = await quorum(['review', join(repo.dir, 'src', 'app.ts'), '--lines', '5-7', '--dry-run', '--agents', 'analyst'], repo.dir, env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /File: src\/util\.ts \(definition displayName, lines 4-8\)/);
    assert.equal(tg.requests.length, 0);
  });
});
