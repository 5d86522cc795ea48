import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { numbered, TempRepo } from '../changes/gitRepo';
import { cliPath, ensureBuilt, root } from './ensureBuilt';

/** `quorum mcp`'s stdout read raw: every line a JSON-RPC 2.0 message, whatever the session does; the key nowhere. */

const KEY = 'sk-mcp-raw-key-1122334455';

function session(cwd: string, env: Record<string, string>, lines: unknown[], args: string[] = [], holdMs = 0): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'mcp', ...args], { cwd, env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-mcp-raw-')), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const want = lines.filter((l) => (l as { id?: unknown }).id !== undefined).length;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // The session ends once every request is answered: stdin closes, the server leaves.
      const answered = stdout.split('\n').filter((l) => l.trim() !== '' && /"result"|"error"/.test(l) && !/"method"/.test(l)).length;
      if (answered >= want) setTimeout(() => child.stdin.end(), holdMs);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    for (const l of lines) child.stdin.write(JSON.stringify(l) + '\n');
    if (want === 0) child.stdin.end();
  });
}

describe('quorum mcp on raw stdio', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  let repo: TempRepo;

  before(async () => {
    ensureBuilt();
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 5, tokensPerSecond: 0 });
    repo = new TempRepo();
    repo.write('app.js', numbered(10)).commit();
    repo.write('app.js', numbered(10, (i) => (i === 5 ? 'eval(userInput);' : `line ${i}`)));
  });
  after(async () => {
    repo.dispose();
    await tg.close();
  });

  it('stdout carries only JSON-RPC: handshake, a list, a review with progress, a tool error, a protocol error; the server leaves when stdin closes', async () => {
    tg.script((req) => (req.path.endsWith('/chat/completions') ? { text: JSON.stringify({ findings: [{ file: 'app.js', severity: 'high', title: 'eval of input', explanation: `console.log("${'x'.repeat(20)}")`, startLine: 5, endLine: 5 }] }) } : undefined));
    const run = await session(repo.dir, { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, LANG: 'en_US.UTF-8' }, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'review_changes', arguments: { agents: ['security'] }, _meta: { progressToken: 'p1' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'review_file', arguments: { path: 'nope.js' } } },
      { jsonrpc: '2.0', id: 5, method: 'no/such/method' },
    ]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n').filter((l) => l !== '');
    assert.ok(lines.length >= 6, run.stdout);
    const messages = lines.map((l) => {
      const m = JSON.parse(l) as { jsonrpc?: string; id?: number; method?: string; result?: { isError?: boolean; structuredContent?: { findings?: unknown[] } }; error?: unknown; params?: { progressToken?: string } };
      assert.equal(m.jsonrpc, '2.0', l);
      return m;
    });
    const byId = new Map(messages.filter((m) => m.id !== undefined).map((m) => [m.id, m]));
    assert.equal(byId.get(3)?.result?.structuredContent?.findings?.length, 1);
    assert.equal(byId.get(4)?.result?.isError, true);
    assert.ok(byId.get(5)?.error, 'an unknown method is a JSON-RPC error');
    assert.ok(messages.some((m) => m.method === 'notifications/progress' && m.params?.progressToken === 'p1'));
    assert.match(run.stderr, /quorum mcp: ready/);
    assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
  });

  it('a stray write to stdout (a library\'s console.log, process.stdout.write) goes to stderr, never into the protocol', async () => {
    // Preloaded into the server's process: writes to stdout the way a library would, once the server runs.
    const preload = join(mkdtempSync(join(tmpdir(), 'quorum-mcp-stray-')), 'stray.cjs');
    writeFileSync(preload, "setTimeout(() => { console.log('STRAY console.log'); process.stdout.write('STRAY write\\n'); }, 300);\n");
    const run = await session(repo.dir, { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, NODE_OPTIONS: `--require ${preload}` }, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      // Answered after the stray writes: the estimate waits for git and the tokenizer.
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'estimate', arguments: {} } },
    ], [], 600);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /STRAY console\.log/);
    assert.match(run.stderr, /STRAY write/);
    assert.ok(!run.stdout.includes('STRAY'));
    for (const line of run.stdout.split('\n').filter((l) => l !== '')) assert.equal((JSON.parse(line) as { jsonrpc?: string }).jsonrpc, '2.0');
  });

  it('a client that goes away mid-review (stdin closed) ends the server and closes its gateway streams', async () => {
    tg.script((req) => (req.path.endsWith('/chat/completions') ? { text: '{"findings": []}', stallAfterTokens: 1, keepAliveMs: 50 } : undefined));
    const child = spawn(process.execPath, [cliPath, 'mcp'], { cwd: repo.dir, env: { PATH: process.env.PATH ?? '', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-mcp-raw-')) }, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (const l of [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'review_changes', arguments: { agents: ['analyst', 'security'] } } },
    ]) child.stdin.write(JSON.stringify(l) + '\n');
    const t0 = Date.now();
    while (tg.inFlight < 2 && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 20));
    assert.equal(tg.inFlight, 2, 'both agents are streaming');
    child.stdin.end();
    assert.equal(await exited, 0);
    const t1 = Date.now();
    while (tg.inFlight > 0 && Date.now() - t1 < 10_000) await new Promise((r) => setTimeout(r, 20));
    assert.equal(tg.inFlight, 0, 'the gateway saw its streams closed');
    tg.script(undefined);
  });

  it('--help prints the usage; an unknown option is a usage error on stderr, nothing on stdout', async () => {
    const help = await session(repo.dir, {}, [], ['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: quorum mcp/);
    const bad = await session(repo.dir, {}, [], ['--format', 'json']);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /unknown option "--format" for quorum mcp/);
    const url = await session(repo.dir, { QUORUM_BASE_URL: 'not a url' }, []);
    assert.equal(url.code, 2);
    assert.match(url.stderr, /base URL/);
  });

  it("the README's client snippets parse and start `quorum mcp` with the key from the environment", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## MCP server'), readme.indexOf('\n## ', readme.indexOf('## MCP server') + 5));
    const json = [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1] ?? '') as { servers?: Record<string, unknown>; mcpServers?: Record<string, unknown> });
    assert.equal(json.length, 2, 'VS Code and Cursor');
    for (const config of json) {
      const server = (config.servers ?? config.mcpServers)?.quorum as { command?: string; args?: string[]; env?: Record<string, string> } | undefined;
      assert.deepEqual([server?.command, server?.args], ['quorum', ['mcp']]);
      assert.ok(server?.env?.QUORUM_API_KEY?.startsWith('${'), 'the key is read, never written in the file');
    }
    assert.match(section, /claude mcp add --transport stdio --env QUORUM_API_KEY=\S+ quorum -- quorum mcp/);
    assert.match(section, /\[mcp_servers\.quorum\]\ncommand = "quorum"\nargs = \["mcp"\]\nenv = \{ "QUORUM_API_KEY" = /);
  });
});
