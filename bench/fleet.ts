/**
 * `npm run bench:fleet`: a CI fleet sharing one key. N separate CLI processes (`node dist/cli.js review`,
 * default 8, `--processes N`), each running the four agents, against ONE loopback test gateway that allows
 * 8 requests per second (a token bucket of 8) and 10 requests in flight, answering 429 beyond that. Run
 * twice, each against a fresh gateway:
 *   stated — the 429s say when to come back (`retry-after-ms`, `retry-after`, `x-ratelimit-*` headers);
 *   none   — the 429s say nothing (no header, no hint in the message; LiteLLM's parallel-request limiter).
 * The processes' first requests wait at a start line in the gateway until all have arrived (start-up on a busy
 * machine is spread over seconds; CI jobs started together meet the limits at once).
 * Prints one JSON line per run. `completed`/`failed` count agents over all processes; `http429` the 429s the
 * gateway answered; `makespanMs` runs from the start line to the last process's exit; `idealMakespanMs` is what the
 * limits themselves allow: the larger of the rate bound, the in-flight bound and the reviewers→coding chain.
 */
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestGateway, type Reply, type TestGateway } from '../test/fixtures/gateway/server';

const root = resolve(__dirname, '..');
const cli = join(root, 'dist', 'cli.js');
const file = join(root, 'test', 'fixtures', 'code', 'users.py');
const KEY = 'sk-bench-fleet-not-a-real-key-0000';
const RATE = 8; // requests per second (bucket size and refill)
const CAP = 10; // requests in flight
const TTFT_MS = 150;
const TOKENS_PER_SECOND = 100;
const AGENTS = 4;

const findings = JSON.stringify({ findings: [{ severity: 'medium', title: 'Query built from input', explanation: 'Use parameters.', startLine: 6, endLine: 6 }] });
const improved = JSON.stringify({ rationale: 'Parameterised.', improvedCode: 'import sqlite3' });
const REPLIES: Record<string, Reply> = {
  'gpt-4.1': { text: findings },
  'claude-sonnet-4.5': { text: findings },
  'gemini-2.5-flash': { text: findings },
  'deepseek-v3.2': { text: improved },
};
const serviceMs = (text: string) => TTFT_MS + (Math.ceil(Array.from(text).length / 4) * 1000) / TOKENS_PER_SECOND;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} takes a positive whole number`);
  return v;
}

interface Line {
  mode: 'stated' | 'none';
  processes: number;
  agents: number;
  completed: number;
  failed: number;
  http429: number;
  makespanMs: number;
  idealMakespanMs: number;
  /** The machine's 1-minute load average when the run ended: CLI processes starved of CPU stretch the makespan. */
  load1: number;
}

function idealMs(processes: number): number {
  const n = processes * AGENTS;
  const review = serviceMs(findings);
  const coding = serviceMs(improved);
  const longest = Math.max(review, coding);
  const rateBound = (Math.max(0, n - RATE) / RATE) * 1000 + coding;
  const capBound = (processes * (3 * review + coding)) / CAP;
  const chain = review + coding;
  return Math.round(Math.max(rateBound, capBound, chain, longest));
}

function runCli(url: string): Promise<{ code: number | null; stdout: string; stderr: string; exitedAt: number }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [cli, 'review', file, '--format', 'json', '--no-cache'], {
      cwd: root,
      env: { PATH: process.env.PATH, LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => done({ code, stdout, stderr, exitedAt: Date.now() }));
  });
}

function agentsOf(stdout: string): { status: string }[] {
  try {
    const out = JSON.parse(stdout) as { agents?: { status?: unknown }[] };
    return (out.agents ?? []).map((a) => ({ status: typeof a.status === 'string' ? a.status : 'unknown' }));
  } catch {
    return [];
  }
}

async function fleet(mode: Line['mode'], processes: number): Promise<Line> {
  // The processes start one by one on a busy machine; their reviewers' requests are held at a start line until
  // every process has sent them, so that the fleet meets the limits at once, as CI jobs started together do.
  let open: () => void = () => undefined;
  const startLine = new Promise<void>((r) => {
    open = r;
  });
  const gw: TestGateway = await startTestGateway({
    startLine,
    apiKey: KEY,
    ttftMs: TTFT_MS,
    tokensPerSecond: TOKENS_PER_SECOND,
    rateLimit: { requests: RATE, perMs: 1000 },
    maxConcurrent: CAP,
    retryAfterStyle: mode === 'stated' ? 'ms' : 'none',
    rateLimitHeaders: mode === 'stated',
  });
  gw.script((q) => (q.model ? REPLIES[q.model] : undefined));
  const waiting = setInterval(() => {
    if (gw.requests.filter((q) => q.path.endsWith('/chat/completions')).length >= processes * 3) {
      clearInterval(waiting);
      open();
    }
  }, 5);
  try {
    const runs = await Promise.all(Array.from({ length: processes }, () => runCli(gw.url)));
    const agents = runs.flatMap((r) => agentsOf(r.stdout));
    const completed = agents.filter((a) => a.status === 'ok').length;
    const chats = gw.requests.filter((q) => q.path.endsWith('/chat/completions'));
    const first = Math.min(...chats.map((q) => q.at));
    const last = Math.max(...runs.map((r) => r.exitedAt));
    for (const r of runs) if (r.code !== 0 && r.code !== 1) process.stderr.write(`a process exited ${r.code}: ${r.stderr.split('\n').slice(-6).join(' | ')}\n`);
    return {
      mode,
      processes,
      agents: processes * AGENTS,
      completed,
      failed: processes * AGENTS - completed,
      http429: gw.rateLimited,
      makespanMs: chats.length > 0 ? last - first : 0,
      idealMakespanMs: idealMs(processes),
      load1: Math.round((loadavg()[0] ?? 0) * 10) / 10,
    };
  } finally {
    clearInterval(waiting);
    open();
    await gw.close();
  }
}

async function main(): Promise<void> {
  const processes = arg('--processes', 8);
  const built = spawnSync(process.execPath, ['esbuild.js'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  for (const mode of ['stated', 'none'] as const) {
    const line = await fleet(mode, processes);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
