/**
 * `npm run bench:changes`: a changes review of a generated repository through the loopback test gateway.
 *
 * The repository (real git, in a temporary folder; bench/changesRepository.ts) has a `main` branch and a `feature`
 * branch that changes 60 files: 46 edited in one to three places (small, medium and large files in eight languages),
 * 10 new files, a renamed file with an edit, a lockfile, a binary file and a deleted file. `--changes --base main` is
 * planned and run as the CLI does (collect, cut into batches, then the review use case, runReview: prompt-shaping,
 * estimate, run; no verifier) against the test gateway limited to RATE requests a second and CAP in flight (stated
 * waits and x-ratelimit-* headers), with the client allowed CAP requests at once.
 *
 * Prints one JSON line:
 *   files, skipped           files reviewed / listed as skipped
 *   requests                 chat requests the gateway received
 *   tokensSent               prompt tokens of those requests (the BPE count of what was sent)
 *   tokensWholeFiles         prompt tokens of the same review sending every reviewed file whole (the same
 *                            agents, prompts and batching; coding without its inputs' findings, so this figure
 *                            is, if anything, low)
 *   planMs                   what `quorum review --changes` does before its first request, in its order (src/cli/run.ts,
 *                            reviewSteps.ts), from a cold tokenizer as in a fresh CLI process: from opening the
 *                            repository to the first chat request reaching the gateway. Its steps: planDiffMs (git: the
 *                            root, the diff from the merge base, untracked files, attributes, file contents; the
 *                            tokenizer's one-time load, tokenizerLoadMs, runs in the gaps while git works, one step
 *                            per event-loop turn, and whatever remains runs at the first count), planSplitMs
 *                            (regions and batches), planShapeMs (repository rules, exclusions, secret redaction),
 *                            planEstimateMs (every request's messages and BPE counts, prices), planSendMs (the run's start-up until its first request
 *                            arrives: the HTTP client's first connection). planCpuMs is this process's CPU time over
 *                            the same span: on a shared machine the wall time also counts waiting for a core
 *   planReadyMs              planning as the issue defines it (diff, split, estimate; prompt-shaping too): from opening
 *                            the repository until every request is built, counted and priced, ready to send — planMs
 *                            without planSendMs
 *   makespanMs               from the first request reaching the gateway to the summary (as bench/fleet.ts
 *                            counts it); runMs from the run's start, with the client's own start-up (the first
 *                            HTTP connections of the process) in it
 *   idealMakespanMs          what the limits allow for the requests the plan makes: the larger of the rate
 *                            bound (the first RATE requests at once, then RATE a second, the last one a coding
 *                            answer), the in-flight bound (every answer's service time over CAP slots) and one
 *                            batch's reviewers→coding chain — as bench/fleet.ts and bench/gateway.ts count it
 *   load1                    the machine's 1-minute load average at the end
 * `--timeline` also prints, on stderr, when each request reached the gateway (ms after the run started).
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { collectChanges } from '../src/core/changes/collect';
import { GitCliSource } from '../src/core/changes/gitCli';
import { planChanges, type ChangesPlan } from '../src/core/changes/plan';
import type { ChangeSet } from '../src/core/changes/types';
import { CostLedger } from '../src/core/cost/ledger';
import { ListedPrices } from '../src/core/cost/listedPrices';
import { createGateway } from '../src/core/gateway/client';
import type { ChatMessage } from '../src/core/domain/chat';
import { nodeRepoFs } from '../src/core/prompt/repoFs';
import { loadPromptContext, type PromptContext } from '../src/core/prompt/shape';
import { ReviewPipeline } from '../src/core/pipeline/pipeline';
import type { PlannedReview } from '../src/core/review/reviewRequest';
import { runReview } from '../src/core/review/runReview';
import { parseSettings } from '../src/core/settings/parse';
import type { QuorumSettings } from '../src/core/settings/schema';
import { countChatTokens, loadTokenizer } from '../src/core/tokens/count';
import { startTestGateway, type Reply } from '../test/fixtures/gateway/server';
import { generateRepository } from './changesRepository';

const KEY = 'sk-bench-changes-not-a-real-key-0000';
const RATE = 4; // requests per second (bucket size and refill)
const CAP = 8; // requests in flight
const TTFT_MS = 300;
const TOKENS_PER_SECOND = 200;

// ---- the review ---------------------------------------------------------------------------------------------

const finding = JSON.stringify({ findings: [{ severity: 'medium', title: 'Unchecked arithmetic', explanation: 'The result may overflow.', startLine: 5, endLine: 5, confidence: 0.6 }] });
const coding = JSON.stringify({ rationale: 'Checked the arithmetic.', replacements: [] });
const REPLIES: Record<string, Reply> = { 'gpt-4.1': { text: finding }, 'claude-sonnet-4.5': { text: finding }, 'gemini-2.5-flash': { text: finding }, 'deepseek-v3.2': { text: coding } };
const serviceMs = (text: string) => TTFT_MS + (Math.ceil(Array.from(text).length / 4) * 1000) / TOKENS_PER_SECOND;

function idealMs(batches: number): number {
  const n = batches * 4;
  const review = serviceMs(finding);
  const code = serviceMs(coding);
  const rateBound = (Math.max(0, n - RATE) / RATE) * 1000 + code;
  const capBound = (batches * (3 * review + code)) / CAP;
  return Math.round(Math.max(rateBound, capBound, review + code));
}

/** The same change set with every file changed from its first line to its last: the whole files. */
function wholeFiles(set: ChangeSet): ChangeSet {
  return { ...set, files: set.files.map((f) => ({ ...f, scopes: undefined, change: { ...f.change, added: [{ start: 1, end: f.lines.length }], removed: [] } })) };
}

const OPTIONS = { language: 'en', noCache: true };

/** The prompt tokens a review of `changes` would send: the use case's dry run (nothing sent), each message counted. */
async function plannedTokens(pipeline: ReviewPipeline, changes: ChangesPlan, context: PromptContext): Promise<number> {
  let tokens = 0;
  await runReview(pipeline, {
    work: { target: changes.target, changes },
    context,
    options: OPTIONS,
    dryRun: true,
    confirm: {
      planned: (plan) => {
        tokens = (plan.whatWillBeSent().requests ?? []).flatMap((r) => r.agents).reduce((n, a) => n + countChatTokens(a.messages as ChatMessage[]), 0);
        return 'cancel';
      },
    },
  });
  return tokens;
}

/** When each part of planning ended (performance.now()) and the run started (Date.now()); the CPU time at the start. */
interface Marks {
  cpu0: NodeJS.CpuUsage;
  t0: number;
  t1: number;
  t2: number;
  t3: number;
  t4: number;
  runStartedAt: number;
}

/**
 * What `quorum review --changes --base main` does, in its order: the changes read (git), cut into regions and
 * batches, then the review use case (shaped, planned, run, the steps after the run). `marks` says when each part ended.
 */
async function reviewChanges(dir: string, settings: QuorumSettings) {
  const marks: Marks = { cpu0: process.cpuUsage(), t0: performance.now(), t1: 0, t2: 0, t3: 0, t4: 0, runStartedAt: 0 };
  // As the CLI does: the tokenizer loads in the gaps while git runs (its steps' time summed here).
  const tokenizerLoad = loadTokenizer();
  const source = await GitCliSource.open(dir);
  const set = await collectChanges(source, { kind: 'ref', ref: 'main' }, { maxFileBytes: settings.changes.maxFileKb * 1024 });
  marks.t1 = performance.now();
  const changes = planChanges(set, { contextLines: settings.changes.contextLines, batchTokens: settings.changes.batchTokens });
  marks.t2 = performance.now();
  const context = await loadPromptContext({ settings, fs: nodeRepoFs(source.root), trusted: true, useRules: true });
  const listedPrices = new ListedPrices();
  const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
  const gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger, listedPrices });
  const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ledger, listedPrices });
  let planned: PlannedReview | undefined;
  const outcome = await runReview(pipeline, {
    work: { target: changes.target, changes },
    context,
    options: OPTIONS,
    confirm: {
      shaped: () => {
        marks.t3 = performance.now();
        return 'proceed';
      },
      planned: (plan) => {
        planned = plan;
        marks.t4 = performance.now();
        marks.runStartedAt = Date.now();
        return 'proceed';
      },
    },
  });
  const endedAt = Date.now();
  const runMs = Math.round(performance.now() - marks.t4);
  gateway.dispose();
  if (outcome.status !== 'reviewed' || !planned) throw new Error(`the review ended ${outcome.status}`);
  return { summary: outcome.summary, planned, set, context, pipeline, marks, endedAt, runMs, tokenizerLoad };
}

async function main(): Promise<void> {
  const repo = generateRepository();
  const gw = await startTestGateway({ apiKey: KEY, ttftMs: TTFT_MS, tokensPerSecond: TOKENS_PER_SECOND, rateLimit: { requests: RATE, perMs: 1000 }, maxConcurrent: CAP, retryAfterStyle: 'ms' });
  // The first chat request to arrive marks the end of planning: when it came and this process's CPU time then.
  let first: { at: number; cpu: NodeJS.CpuUsage } | undefined;
  gw.script((q) => {
    if (!first && q.path.endsWith('/chat/completions')) first = { at: performance.now(), cpu: process.cpuUsage() };
    return q.model ? REPLIES[q.model] : undefined;
  });
  try {
    // The agents' requests are measured: no verifier after them.
    const { settings } = parseSettings({ gateway: { baseUrl: gw.url }, limits: { maxConcurrent: CAP }, review: { verify: 'off' } });
    const r = await reviewChanges(repo.dir, settings);
    if (!first) throw new Error('no chat request reached the gateway');
    // After the run, so that counting the whole files (ten times the tokens) does not load the run.
    const whole = planChanges(wholeFiles(r.set), { contextLines: settings.changes.contextLines, batchTokens: settings.changes.batchTokens });
    const tokensWholeFiles = await plannedTokens(r.pipeline, whole, r.context);
    const chats = gw.requests.filter((q) => q.path.endsWith('/chat/completions'));
    const { marks, planned } = r;
    const planCpu = { user: first.cpu.user - marks.cpu0.user, system: first.cpu.system - marks.cpu0.system };
    const line = {
      files: planned.changes?.files ?? 0,
      skipped: (planned.shaped.target.skipped ?? []).length,
      requests: chats.length,
      tokensSent: chats.filter((q) => !q.rateLimited).reduce((n, q) => n + countChatTokens((q.body?.messages ?? []) as ChatMessage[]), 0),
      tokensWholeFiles,
      planMs: Math.round(first.at - marks.t0),
      planReadyMs: Math.round(marks.t4 - marks.t0),
      makespanMs: r.endedAt - Math.min(...chats.map((q) => q.at)),
      idealMakespanMs: idealMs(planned.batches.length),
      runMs: r.runMs,
      changedFiles: repo.changed,
      batches: planned.batches.length,
      http429: gw.rateLimited,
      planCpuMs: Math.round((planCpu.user + planCpu.system) / 1000),
      planDiffMs: Math.round(marks.t1 - marks.t0),
      planSplitMs: Math.round(marks.t2 - marks.t1),
      planShapeMs: Math.round(marks.t3 - marks.t2),
      planEstimateMs: Math.round(marks.t4 - marks.t3),
      planSendMs: Math.round(first.at - marks.t4),
      tokenizerLoadMs: Math.round(await r.tokenizerLoad),
      failed: r.summary.agents.filter((a) => a.status !== 'ok').map((a) => `${a.agent}: ${a.error?.code ?? a.status}`),
      load1: Math.round((loadavg()[0] ?? 0) * 10) / 10,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    if (process.argv.includes('--timeline')) for (const q of chats) process.stderr.write(`${q.at - marks.runStartedAt} ${q.model} ${q.rateLimited ? '429' : ''}\n`);
  } finally {
    await gw.close();
    rmSync(repo.dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
