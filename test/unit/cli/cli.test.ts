import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { cliPath, ensureBuilt, root } from './ensureBuilt';
import { startTestGateway, type RecordedRequest, type Reply, type TestGateway } from '../../fixtures/gateway/server';

const cli = cliPath;
const KEY = 'sk-cli-test-key-9876543210';
const fixture = join(root, 'test', 'fixtures', 'code', 'users.py');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every run gets a cache folder of its own unless the test gives one: runs share no answers by accident. */
const freshCache = () => ({ XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-cli-cache-')) });

/** These tests are about the reviewers; verification (on by default) has its own tests in verify.test.ts. */
const noVerify = (args: string[]) => (args[0] === 'review' && !args.includes('--verify') && !args.includes('--') ? [...args, '--verify', 'off'] : args);

function quorum(args: string[], env: Record<string, string | undefined> = {}, onStderr?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, ...noVerify(args)], {
      cwd: root,
      env: { PATH: process.env.PATH, LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, ...freshCache(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      onStderr?.(stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

async function inProcess(argv: string[], env: Record<string, string | undefined>): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv: noVerify(argv), env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, ...freshCache(), ...env }, version: '0.0.0', signal: new AbortController().signal,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

const findings = (...list: object[]) => JSON.stringify({ findings: list });
const REPLIES: Record<string, Reply> = {
  'gpt-4.1': { text: findings({ severity: 'high', title: 'SQL injection in user lookup', explanation: 'name is formatted into SQL.', startLine: 6, endLine: 6, confidence: 0.6 }) },
  'claude-sonnet-4.5': { text: '```json\n' + findings({ severity: 'low', title: 'Connection opened per call', explanation: 'Pass the connection in.', startLine: 4, endLine: 5 }) + '\n```' },
  'gemini-2.5-flash': { text: findings({ severity: 'critical', title: 'SQL injection in the user lookup', explanation: 'Attacker-controlled name.', startLine: 6, endLine: 6, cwe: 'CWE-89', confidence: 0.7, suggestion: '    cur.execute("SELECT * FROM users WHERE name = ?", (name,))' }) },
  'deepseek-v3.2': { text: JSON.stringify({ rationale: 'Parameterised.', improvedCode: 'import sqlite3\n\n\ndef find_user(conn, name):\n    cur = conn.cursor()\n    cur.execute("SELECT * FROM users WHERE name = ?", (name,))\n    return cur.fetchone()' }) },
};
const chat = (tg: TestGateway) => tg.requests.filter((r) => r.path.endsWith('/chat/completions'));
const system = (r: RecordedRequest | undefined) => ((r?.body?.messages ?? []) as { role: string; content: string }[]).find((m) => m.role === 'system')?.content ?? '';

describe('quorum CLI (node dist/cli.js against the loopback test gateway)', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  let env: Record<string, string>;
  let dir: string;

  before(async () => {
    ensureBuilt();
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 5, tokensPerSecond: 0 });
    env = { QUORUM_BASE_URL: tg.url };
    dir = mkdtempSync(join(tmpdir(), 'quorum-cli-'));
  });
  after(async () => {
    await tg.close();
  });
  beforeEach(() => {
    tg.requests.length = 0;
    tg.script((req) => (req.model ? REPLIES[req.model] : undefined));
  });

  function parseJson(run: Run): JsonOutput {
    const parsed = jsonOutputSchema.safeParse(JSON.parse(run.stdout));
    assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
    return parsed.data;
  }

  it('prints exactly one JSON document of the documented shape, with merged findings, and exits 0', async () => {
    const run = await quorum(['review', fixture, '--format', 'json'], env);
    assert.equal(run.code, 0, run.stderr);
    const out = parseJson(run);
    assert.deepEqual(out.target, { file: fixture, startLine: 1, endLine: 9 });
    // The same shape as a review of changes: the regions sent, nothing skipped, a file on every finding, the merged list.
    assert.deepEqual(out.targets, [{ file: fixture, startLine: 1, endLine: 9 }]);
    assert.deepEqual(out.skipped, []);
    assert.ok(out.agents.flatMap((a) => a.findings).every((f) => f.file === fixture));
    assert.deepEqual(out.findings.map((f) => [f.file, f.severity, f.title]), [[fixture, 'critical', 'SQL injection in the user lookup'], [fixture, 'low', 'Connection opened per call']]);
    assert.deepEqual(new Set(out.findings[0]?.agents), new Set(['analyst', 'security']));
    assert.equal(out.findings[0]?.cwe, 'CWE-89');
    assert.deepEqual(out.agents.map((a) => [a.id, a.model, a.status]), [
      ['analyst', 'gpt-4.1', 'ok'], ['architecture', 'claude-sonnet-4.5', 'ok'], ['security', 'gemini-2.5-flash', 'ok'], ['coding', 'deepseek-v3.2', 'ok'],
    ]);
    const all = out.agents.flatMap((a) => a.findings);
    const sqli = all.filter((f) => /SQL injection/.test(f.title));
    assert.equal(sqli.length, 1, 'the same issue is listed once');
    assert.deepEqual(new Set(sqli[0]?.agents), new Set(['analyst', 'security']));
    assert.equal(sqli[0]?.severity, 'critical');
    assert.equal(out.agents.find((a) => a.id === 'coding')?.improvedCode?.split('\n').length, 7);
    assert.equal(out.totals.requests, 4);
    assert.ok(out.totals.costUsd > 0);
    // The test gateway reports token counts but no cost: Quorum's table priced them ("priced from reported usage").
    assert.ok(out.agents.every((a) => a.costSource === 'usage'), JSON.stringify(out.agents.map((a) => a.costSource)));
    for (const id of ['analyst', 'architecture', 'security', 'coding']) {
      assert.match(run.stderr, new RegExp(`\\[${id}\\] started`));
      assert.match(run.stderr, new RegExp(`\\[${id}\\] done`));
    }
    assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY), 'the key is never printed');
  });

  it('reviews code that spells a special token (<|endoftext|>) as the ordinary text it is, estimate included', async () => {
    const file = join(dir, 'tokenizer_test.py');
    writeFileSync(file, 'EOT = "<|endoftext|>"\n\n\ndef strip_eot(text):\n    return text.replace(EOT, "")\n');
    const run = await quorum(['review', file, '--format', 'json', '--dry-run'], env);
    assert.equal(run.code, 0, run.stderr);
    const reviewed = await quorum(['review', file, '--format', 'json'], env);
    assert.equal(reviewed.code, 0, reviewed.stderr);
    assert.equal(parseJson(reviewed).agents.filter((a) => a.status === 'ok').length, 4);
    assert.ok(chat(tg).every((r) => JSON.stringify(r.body).includes('<|endoftext|>')));
  });

  it('exits 1 when a finding is at or above --fail-on, 0 when none is', async () => {
    assert.equal((await quorum(['review', fixture, '--format', 'json', '--fail-on', 'high'], env)).code, 1);
    tg.script((req) => (req.model === 'gemini-2.5-flash' ? { text: findings() } : req.model ? REPLIES[req.model] : undefined));
    assert.equal((await quorum(['review', fixture, '--format', 'json', '--fail-on', 'critical'], env)).code, 0);
  });

  it('exits 3 when an agent fails, reporting its error code, and the others still finish', async () => {
    tg.script((req) => (req.model === 'gemini-2.5-flash' ? { kind: 'error', status: 403, message: 'not allowed' } : req.model ? REPLIES[req.model] : undefined));
    const run = await quorum(['review', fixture, '--format', 'json'], env);
    assert.equal(run.code, 3, run.stderr);
    const out = parseJson(run);
    const security = out.agents.find((a) => a.id === 'security');
    assert.equal(security?.status, 'error');
    assert.equal(security?.error?.code, 'forbidden');
    assert.equal(security?.costSource, 'none', 'a refused request used nothing: not "reported" at $0');
    assert.equal(out.agents.find((a) => a.id === 'coding')?.status, 'ok');
    assert.match(run.stderr, /\[security\] failed: forbidden/);
  });

  it('runs chosen agents with model overrides, in the language of LANG', async () => {
    const run = await quorum(['review', fixture, '--lines', '4-7', '--agents', 'security,analyst', '--model', 'security=gpt-4.1', '--format', 'json'], { ...env, LANG: 'ko_KR.UTF-8' });
    assert.equal(run.code, 0, run.stderr);
    const out = parseJson(run);
    assert.deepEqual(out.target, { file: fixture, startLine: 4, endLine: 7 });
    assert.deepEqual(out.agents.map((a) => [a.id, a.model]), [['analyst', 'gpt-4.1'], ['security', 'gpt-4.1']]);
    assert.deepEqual(chat(tg).map((r) => r.model), ['gpt-4.1', 'gpt-4.1']);
    assert.match(system(chat(tg)[0]), /in Korean\./);
  });

  it('--language and --base-url win over LANG and QUORUM_BASE_URL', async () => {
    const run = await quorum(['review', fixture, '--agents', 'analyst', '--language', 'ja', '--base-url', tg.url, '--format', 'json'], { QUORUM_BASE_URL: 'http://127.0.0.1:9/v1', LANG: 'ko_KR.UTF-8' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(system(chat(tg)[0]), /in Japanese\./);
  });

  it('prints text and Markdown reports', async () => {
    const text = await quorum(['review', fixture, '--agents', 'analyst,security,coding'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /users\.py:6 \[critical\] SQL injection in the user lookup \(CWE-89\) - security, analyst/);
    assert.match(text.stdout, /Improved code from coding \(lines 1–9\):/);
    assert.match(text.stdout, /^Total: \$/m);
    const md = await quorum(['review', fixture, '--agents', 'security', '--format', 'markdown'], env);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /^## Quorum review of `.*users\.py` lines 1–9/m);
    assert.match(md.stdout, /^### CRITICAL: SQL injection in the user lookup/m);
    assert.match(md.stdout, /```python\n {4}cur\.execute\("SELECT \* FROM users WHERE name = \?", \(name,\)\)\n```/);
  });

  it('on Ctrl-C cancels the review, prints what finished, and exits 130', async () => {
    tg.script((req) => (req.model === 'claude-sonnet-4.5' ? { kind: 'hang' } : req.model ? REPLIES[req.model] : undefined));
    let sent = false;
    const run = await quorum(['review', fixture, '--format', 'json'], env, (stderr, child) => {
      if (!sent && /\[analyst\] done/.test(stderr) && /\[security\] done/.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    assert.equal(run.code, 130, run.stderr);
    const out = parseJson(run);
    const status = Object.fromEntries(out.agents.map((a) => [a.id, a.status]));
    assert.deepEqual(status, { analyst: 'ok', architecture: 'cancelled', security: 'ok', coding: 'cancelled' });
    assert.equal(out.agents.find((a) => a.id === 'architecture')?.error?.code, 'cancelled');
  });

  it('ends every agent ok, error (with a code) or cancelled when the gateway misbehaves, within --timeout', async () => {
    tg.script((req) => {
      if (req.model === 'gpt-4.1') return { text: findings({ severity: 'high', title: 'x', explanation: 'y', startLine: 6 }), stallAfterTokens: 2 };
      if (req.model === 'claude-sonnet-4.5') return { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"choices": "nope"' };
      if (req.model === 'gemini-2.5-flash') return { text: '{"findings": [{"severity": 7, "title": {"a": 1}, "startLine": "NaN", "explanation": "odd"}, "str", null]}', usage: 'none' };
      return { kind: 'drop' };
    });
    const run = await quorum(['review', fixture, '--format', 'json', '--timeout', '2'], env);
    assert.equal(run.code, 3, run.stderr);
    const out = parseJson(run);
    for (const a of out.agents) {
      assert.ok(a.status === 'ok' || a.status === 'cancelled' || (a.status === 'error' && a.error && a.error.code.length > 0), JSON.stringify(a));
    }
    const byId = Object.fromEntries(out.agents.map((a) => [a.id, a]));
    assert.equal(byId.analyst?.status, 'error');
    assert.equal(byId.analyst?.error?.code, 'timeout');
    assert.equal(byId.security?.status, 'ok');
    assert.equal(byId.security?.costSource, 'estimated', 'no usage reported: estimated');
    assert.deepEqual(byId.security?.findings.map((f) => [f.title, f.severity, f.startLine, f.endLine]), [['odd', 'medium', 1, 9]]);
  });

  it('a second identical run is served from the disk cache: no request, $0, cached; --no-cache asks again', async () => {
    const cacheHome = mkdtempSync(join(tmpdir(), 'quorum-cli-cache-'));
    const withCache = { ...env, XDG_CACHE_HOME: cacheHome };
    const first = await quorum(['review', fixture, '--format', 'json'], withCache);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(chat(tg).length, 4);
    assert.ok(parseJson(first).totals.costUsd > 0);
    const second = await quorum(['review', fixture], withCache);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(chat(tg).length, 4, 'no request on the second run');
    for (const id of ['analyst', 'architecture', 'security', 'coding']) assert.match(second.stdout, new RegExp(`^  ${id} \\([^)]+\\): ok \\(cached\\).*\\$0\\.00$`, 'm'));
    assert.match(second.stdout, /^Total: \$0\.00, /m);
    assert.match(second.stderr, /\[security\] done \(cached\)/);
    const files = readdirSync(join(cacheHome, 'quorum', 'answers-v1'));
    assert.equal(files.length, 4);
    for (const f of files) assert.ok(!readFileSync(join(cacheHome, 'quorum', 'answers-v1', f), 'utf8').includes(KEY), 'the key is not in the cache');
    const bypass = await quorum(['review', fixture, '--no-cache', '--agents', 'security'], withCache);
    assert.equal(bypass.code, 0, bypass.stderr);
    assert.equal(chat(tg).length, 5, '--no-cache sends the request');
    const elsewhere = await quorum(['review', fixture, '--agents', 'security', '--cache-dir', join(cacheHome, 'other')], withCache);
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.equal(chat(tg).length, 6, 'another --cache-dir is another cache');
    assert.equal(readdirSync(join(cacheHome, 'other', 'answers-v1')).length, 1);
    const expired = await quorum(['review', fixture, '--agents', 'security', '--cache-ttl', '0'], withCache);
    assert.equal(expired.code, 0, expired.stderr);
    assert.equal(chat(tg).length, 7, '--cache-ttl 0 serves nothing');
  });

  describe('usage errors exit 2 with a one-line message', () => {
    const cases: [string, string[], Record<string, string | undefined>, RegExp][] = [
      ['no command', [], {}, /missing command/],
      ['unknown command', ['check', 'x'], {}, /unknown command "check"/],
      ['unknown option', ['review', 'FIXTURE', '--colour'], {}, /unknown option "--colour"/],
      ['bad format', ['review', 'FIXTURE', '--format', 'xml'], {}, /--format is text, markdown, json, sarif, github/],
      ['bad lines', ['review', 'FIXTURE', '--lines', 'ten'], {}, /--lines takes START-END/],
      ['reversed lines', ['review', 'FIXTURE', '--lines', '5-2'], {}, /START <= END/],
      ['lines past the end', ['review', 'FIXTURE', '--lines', '50-60'], {}, /past the end of .* \(9 lines\)/],
      ['blank range', ['review', 'FIXTURE', '--lines', '2-3'], {}, /nothing to review: lines 2-3 .* are blank/],
      ['missing key', ['review', 'FIXTURE'], { QUORUM_API_KEY: '' }, /QUORUM_API_KEY is not set/],
      ['unreadable file', ['review', 'no/such/file.ts'], {}, /cannot read no\/such\/file\.ts: no such file/],
      ['directory', ['review', 'test'], {}, /it is a directory/],
      ['bad base URL', ['review', 'FIXTURE', '--base-url', 'ftp://example.com'], {}, /--base-url must start with http/],
      ['bad env base URL', ['review', 'FIXTURE'], { QUORUM_BASE_URL: 'not a url' }, /base URL "not a url" is not valid/],
      ['bad model override', ['review', 'FIXTURE', '--model', 'analyst'], {}, /--model takes agent=model/],
      ['unknown agent', ['review', 'FIXTURE', '--agents', 'analyst,wizard'], {}, /unknown agent "wizard"/],
      ['bad fail-on', ['review', 'FIXTURE', '--fail-on', 'warning'], {}, /--fail-on is one of critical, high, medium, low, none/],
      ['bad concurrency', ['review', 'FIXTURE', '--max-concurrency', '0'], {}, /--max-concurrency is at least 1/],
      ['bad timeout', ['review', 'FIXTURE', '--timeout', 'soon'], {}, /--timeout takes a number of seconds/],
      ['bad cache TTL', ['review', 'FIXTURE', '--cache-ttl', '-5'], {}, /--cache-ttl is at least 0/],
      ['empty cache dir', ['review', 'FIXTURE', '--cache-dir', ' '], {}, /--cache-dir needs a folder/],
      ['two files', ['review', 'FIXTURE', 'FIXTURE'], {}, /one file at a time/],
    ];
    // A few through the built binary; the rest in-process through the same runCli, which is much faster.
    const spawned = new Set(['no command', 'missing key', 'unreadable file', 'bad base URL']);
    for (const [name, args, extraEnv, message] of cases) {
      it(name, async () => {
        const argv = args.map((a) => (a === 'FIXTURE' ? fixture : a));
        const run = spawned.has(name) ? await quorum(argv, { ...env, ...extraEnv }) : await inProcess(argv, { ...env, ...extraEnv });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
        assert.equal(run.stdout, '');
        assert.equal(chat(tg).length, 0, 'nothing was sent');
      });
    }

    it('a range that is too large', async () => {
      const big = join(dir, 'big.ts');
      writeFileSync(big, Array.from({ length: 6000 }, (_, i) => `const v${i} = ${i};`).join('\n'));
      const run = await inProcess(['review', big], env);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /the range is 6000 lines; review at most 5000/);
    });

    it('a file that is not text', async () => {
      const bin = join(dir, 'blob.bin');
      writeFileSync(bin, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
      const run = await inProcess(['review', bin], env);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /not a text file/);
    });
  });

  it('--help prints the usage and exits 0', async () => {
    const run = await quorum(['--help'], {});
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: quorum review <file>/);
    assert.match(run.stdout, /--fail-on/);
  });
});
