import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { SECRETS } from '../../fixtures/secrets/corpus';
import { numbered, TempRepo } from '../changes/gitRepo';

/**
 * Issue 20, item 1: a redaction applied to the serialised report ate the escaped quote of `"Authorization: *"`, so
 * the JSON document no longer parsed and code was changed. Every format must stay valid and carry the code as the
 * agents wrote it, whatever the repository says; only the key goes, from the values.
 */

const KEY = 'sk-test-outputs-0123456789abcdefXYZ';
/** The lines of the issue: code that mentions a header, no credential in it. */
const HEADER_TALK = ['// replaced with a masked value ("Authorization: *")', 'lines[i] = "Authorization: *"', 'headers: { Authorization: "Bearer <token>" }'];
const FORMATS = ['json', 'sarif', 'markdown', 'text', 'github'] as const;

async function quorum(argv: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv, cwd, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-cli-cache-')), ...env }, version: '0.0.0', signal: new AbortController().signal,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

describe('quorum review --changes: every output format stays valid, and code stays as written, whatever the code says', function () {
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
  });
  afterEach(() => repo.dispose());

  /**
   * A change of `lines` to a Go file, reviewed by a gateway that echoes `echoed` in every finding (title,
   * explanation, suggestion) and in the coding agent's code, and once the key itself in an explanation.
   */
  function setUp(lines: readonly string[], echoed: readonly string[]): void {
    const length = lines.length + 20;
    repo.write('auth/header.go', numbered(length)).commit();
    repo.write('auth/header.go', numbered(length, (i) => (i >= 10 && i < 10 + lines.length ? (lines[i - 10] ?? '') : `line ${i}`)));
    const code = echoed.join('\n');
    tg.script((req) => {
      if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: `Kept ${echoed[0]}`, replacements: [{ file: 'auth/header.go', startLine: 10, endLine: 10 + echoed.length - 1, code }] }) };
      return { text: JSON.stringify({ findings: echoed.map((e, i) => ({
        file: 'auth/header.go', severity: 'high', title: e.slice(0, 120), explanation: `The line ${e} is wrong; the gateway saw "Authorization: Bearer ${KEY}".`,
        startLine: 10 + i, endLine: 10 + i, suggestion: e, confidence: 0.9,
      })) }) };
    });
  }

  /** Runs every format (and the step summary, --output, --dry-run); returns each output for the caller's checks. */
  async function everyFormat(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const format of FORMATS) {
      const summary = join(mkdtempSync(join(tmpdir(), 'quorum-step-')), 'summary.md');
      const run = await quorum(['review', '--changes', '--format', format, '--no-cache'], repo.dir, { ...env, GITHUB_STEP_SUMMARY: summary });
      assert.equal(run.code, 0, run.stderr);
      out[format] = run.stdout;
      out[`${format} stderr`] = run.stderr;
      out[`${format} step summary`] = readFileSync(summary, 'utf8');
    }
    const file = join(mkdtempSync(join(tmpdir(), 'quorum-out-')), 'report.sarif');
    const written = await quorum(['review', '--changes', '--format', 'sarif', '--output', file, '--no-cache'], repo.dir, env);
    assert.equal(written.code, 0, written.stderr);
    out['--output sarif'] = readFileSync(file, 'utf8');
    out['--output text'] = written.stdout;
    const dry = await quorum(['review', '--changes', '--dry-run'], repo.dir, env);
    assert.equal(dry.code, 0, dry.stderr);
    out['--dry-run'] = dry.stdout;
    for (const [name, text] of Object.entries(out)) assert.ok(!text.includes(KEY) && !text.includes(KEY.slice(4, 20)), `the key is in ${name}`);
    return out;
  }

  /** The JSON document parses, fits its schema, and holds `echoed` as the agents wrote it, the key gone from the values. */
  function checkJson(text: string, echoed: readonly string[]): void {
    const doc = jsonOutputSchema.parse(JSON.parse(text));
    const coding = doc.agents.find((a) => a.id === 'coding');
    assert.equal(coding?.replacements?.[0]?.code, echoed.join('\n'));
    const findings = doc.agents.filter((a) => a.id !== 'coding').flatMap((a) => a.findings);
    // The agents' identical findings are merged: each line is one finding's suggestion, as written.
    assert.deepEqual(findings.map((f) => f.suggestion), [...echoed]);
    for (const f of findings) {
      assert.ok(f.explanation.endsWith('the gateway saw "Authorization: Bearer [redacted]".'), f.explanation);
    }
  }

  function checkSarif(text: string, echoed: readonly string[]): void {
    const sarif = JSON.parse(text) as { version: string; runs: { results: { message: { text: string } }[] }[] };
    assert.equal(sarif.version, '2.1.0');
    const messages = sarif.runs.flatMap((r) => r.results.map((x) => x.message.text)).join('\n');
    for (const e of echoed) assert.ok(messages.includes(e.trim()), `${e} not in the SARIF messages`);
  }

  it('the lines of the issue: JSON and SARIF parse, and every format carries them unchanged', async () => {
    setUp(HEADER_TALK, HEADER_TALK);
    const out = await everyFormat();
    checkJson(out.json ?? '', HEADER_TALK);
    checkSarif(out.sarif ?? '', HEADER_TALK);
    checkSarif(out['--output sarif'] ?? '', HEADER_TALK);
    // The code in the human formats: the coding agent's code block, as written.
    for (const name of ['markdown', 'text']) for (const line of HEADER_TALK) assert.ok(out[name]?.includes(line), `${name} lost ${line}:\n${out[name]}`);
    // The step summary's table (titles escaped for Markdown): one row per finding.
    assert.equal(out['markdown step summary']?.match(/^\| 🟠 high \| `auth\/header\.go:1\d` \|/gm)?.length, 3, out['markdown step summary']);
    // GitHub's workflow commands: one per line, each `::level file=…::message`.
    const commands = (out.github ?? '').split('\n').filter((l) => l !== '');
    assert.ok(commands.length > 0 && commands.every((l) => /^::(error|warning|notice) [^\n]*::/.test(l)), out.github);
    for (const line of HEADER_TALK) assert.ok(out.github?.includes(line.slice(0, 40).replace(/%/g, '%25')), `github lost ${line}`);
    // --dry-run shows the code as it is sent: unchanged (nothing in it is a secret).
    for (const line of HEADER_TALK) assert.ok(out['--dry-run']?.includes(line), `--dry-run lost ${line}`);
    assert.doesNotMatch(Object.values(out).join('\n'), /Authorization: \[redacted\]/);
  });

  it('every secret kind of the redaction corpus: each format stays valid, and the agents\' text is printed as they wrote it', async () => {
    const lines = SECRETS.flatMap((s) => s.line.split('\n'));
    setUp(lines, lines);
    const out = await everyFormat();
    checkJson(out.json ?? '', lines);
    checkSarif(out.sarif ?? '', lines);
    // What was sent had the secrets replaced: --dry-run shows placeholders, never a value.
    for (const s of SECRETS) assert.ok(!(out['--dry-run'] ?? '').includes(s.secret), `${s.kind} in --dry-run`);
    assert.match(out['--dry-run'] ?? '', /\[REDACTED:aws-access-key-id\]/);
  });
});
