/**
 * `npm run bench:gateway`: 200 streamed requests from 20 concurrent agents against the loopback test gateway,
 * which allows 20 requests per second (a token bucket of 20, as OpenAI-style gateways do) and 20 requests in
 * flight, answering 429 with Retry-After beyond that. Three strategies, each against a fresh gateway:
 *   (a) quorum  — Quorum's shared client (maxConcurrent = the gateway's cap of 20, all else default);
 *   (b) sdk-defaults — the openai SDK with its defaults (2 retries), all 200 requests fired at once;
 *   (c) seeds   — the seeds' strategy: a semaphore of 5, per-request exponential backoff 2–10 s, 5 attempts.
 * Prints one JSON line per strategy. `idealMakespanMs` is what the limits themselves allow.
 */
import OpenAI from 'openai';
import { CostLedger } from '../src/core/cost/ledger';
import { createGateway } from '../src/core/gateway/client';
import { settingsSchema } from '../src/core/settings/schema';
import { startTestGateway, type TestGateway } from '../test/fixtures/gateway/server';

const REQUESTS = 200;
const AGENTS = 20;
const RATE = 20; // requests per second
const CAP = 20; // requests in flight
const TTFT_MS = 200;
const TOKENS_PER_SECOND = 40;
const REPLY = 'Looks fine overall; consider validating the input and handling the error path explicitly here.'; // 24 "tokens" of 4 chars
const KEY = 'sk-bench-not-a-real-key-000000';
const MODEL = 'gpt-4.1';

const serviceMs = TTFT_MS + (Math.ceil(Array.from(REPLY).length / 4) * 1000) / TOKENS_PER_SECOND;
const idealMakespanMs = Math.round(Math.max(((REQUESTS - RATE) / RATE) * 1000 + serviceMs, Math.ceil(REQUESTS / CAP) * serviceMs));

interface Line {
  strategy: string;
  requests: number;
  completed: number;
  failed: number;
  http429: number;
  makespanMs: number;
  idealMakespanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] as number);
}

function messages(i: number) {
  return [
    { role: 'system' as const, content: 'You are a code reviewer.' },
    { role: 'user' as const, content: `Review snippet ${i}: function f(x) { return x * 2; }` },
  ];
}

/** `--no-headers`: the gateway sends no x-ratelimit-* headers, so only its 429s say anything. */
const HEADERS = !process.argv.includes('--no-headers');

async function startGateway(): Promise<TestGateway> {
  return startTestGateway({
    apiKey: KEY,
    reply: REPLY,
    ttftMs: TTFT_MS,
    tokensPerSecond: TOKENS_PER_SECOND,
    rateLimit: { requests: RATE, perMs: 1000 },
    maxConcurrent: CAP,
    rateLimitHeaders: HEADERS,
  });
}

/** Runs `one(i)` for 200 requests: `agents` loops each sending its share in turn (or all at once). */
async function measure(strategy: string, gw: TestGateway, agents: number, one: (i: number) => Promise<void>): Promise<Line> {
  const latencies: number[] = [];
  let completed = 0;
  let failed = 0;
  const t0 = performance.now();
  const perAgent = Math.ceil(REQUESTS / agents);
  await Promise.all(
    Array.from({ length: agents }, async (_, a) => {
      for (let k = 0; k < perAgent; k++) {
        const i = a * perAgent + k;
        if (i >= REQUESTS) return;
        const s = performance.now();
        try {
          await one(i);
          completed++;
          latencies.push(performance.now() - s);
        } catch {
          failed++;
        }
      }
    }),
  );
  const makespanMs = Math.round(performance.now() - t0);
  latencies.sort((x, y) => x - y);
  return {
    strategy,
    requests: REQUESTS,
    completed,
    failed,
    http429: gw.rateLimited,
    makespanMs,
    idealMakespanMs,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
  };
}

async function quorum(): Promise<Line> {
  const gw = await startGateway();
  const settings = settingsSchema.parse({ gateway: { baseUrl: gw.url }, limits: { maxConcurrent: CAP } });
  const client = createGateway({ settings: () => settings, apiKey: () => KEY, ledger: new CostLedger() });
  try {
    return await measure('quorum', gw, AGENTS, async (i) => {
      const gen = client.stream({ model: MODEL, messages: messages(i), tag: { agent: `agent-${i % AGENTS}` } });
      for (;;) {
        const n = await gen.next();
        if (n.done) return;
      }
    });
  } finally {
    client.dispose();
    await gw.close();
  }
}

async function sdkStream(sdk: OpenAI, i: number): Promise<void> {
  const stream = await sdk.chat.completions.create({ model: MODEL, messages: messages(i), stream: true, stream_options: { include_usage: true } });
  for await (const _chunk of stream) {
    // drained: only the time it takes counts
  }
}

async function sdkDefaults(): Promise<Line> {
  const gw = await startGateway();
  const sdk = new OpenAI({ apiKey: KEY, baseURL: gw.url });
  try {
    return await measure('sdk-defaults', gw, REQUESTS, (i) => sdkStream(sdk, i));
  } finally {
    await gw.close();
  }
}

async function seeds(): Promise<Line> {
  const gw = await startGateway();
  const sdk = new OpenAI({ apiKey: KEY, baseURL: gw.url, maxRetries: 0 });
  // asyncio.Semaphore(5) around a tenacity-wrapped call: wait_exponential(multiplier=1, min=2, max=10),
  // stop_after_attempt(5), retrying rate-limit and timeout errors; the semaphore is held while waiting.
  let free = 5;
  const waiters: (() => void)[] = [];
  const acquire = () => (free > 0 ? (free--, Promise.resolve()) : new Promise<void>((r) => waiters.push(r)));
  const release = () => {
    const w = waiters.shift();
    if (w) w();
    else free++;
  };
  try {
    return await measure('seeds', gw, AGENTS, async (i) => {
      await acquire();
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            await sdkStream(sdk, i);
            return;
          } catch (e) {
            const retryable = e instanceof OpenAI.RateLimitError || e instanceof OpenAI.APIConnectionTimeoutError;
            if (!retryable || attempt >= 5) throw e;
            await new Promise((r) => setTimeout(r, Math.min(10, Math.max(2, 2 ** (attempt - 1))) * 1000));
          }
        }
      } finally {
        release();
      }
    });
  } finally {
    await gw.close();
  }
}

/** One request through each code path first, on a gateway of its own, so that module loading and JIT warm-up
 *  (a one-time cost of the process, not of a strategy) stay out of the figures. */
async function warmUp(): Promise<void> {
  const gw = await startGateway();
  const settings = settingsSchema.parse({ gateway: { baseUrl: gw.url } });
  const client = createGateway({ settings: () => settings, apiKey: () => KEY });
  for (let i = 0; i < 3; i++) {
    const gen = client.stream({ model: MODEL, messages: messages(i) });
    while (!(await gen.next()).done);
    await sdkStream(new OpenAI({ apiKey: KEY, baseURL: gw.url }), i);
  }
  client.dispose();
  await gw.close();
}

async function main(): Promise<void> {
  await warmUp();
  // `npm run bench:gateway -- quorum` runs one strategy; no argument runs all three.
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const all: [string, () => Promise<Line>][] = [['quorum', quorum], ['sdk-defaults', sdkDefaults], ['seeds', seeds]];
  for (const [name, run] of all) {
    if (only.length > 0 && !only.includes(name)) continue;
    const line = await run();
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
