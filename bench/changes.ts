/**
 * `npm run bench:changes`: a changes review of a generated repository through the loopback test gateway.
 *
 * The repository (real git, in a temporary folder) has a `main` branch and a `feature` branch that changes 60
 * files: 46 edited in one to three places (small, medium and large files in eight languages), 10 new files, a
 * renamed file with an edit, a lockfile, a binary file and a deleted file. `--changes --base main` is planned
 * and run by the core changes review (the CLI's path: collect, plan, prompt-shaping, estimate, run) against the
 * test gateway limited to RATE requests a second and CAP in flight (stated waits and x-ratelimit-* headers), with
 * the client allowed CAP requests at once.
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
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { collectChanges } from '../src/core/changes/collect';
import { GitCliSource } from '../src/core/changes/gitCli';
import { planChanges, withShapedTarget } from '../src/core/changes/plan';
import { planBatches, runBatches } from '../src/core/review/batches';
import type { ChangeSet } from '../src/core/changes/types';
import { CostLedger } from '../src/core/cost/ledger';
import { ListedPrices } from '../src/core/cost/listedPrices';
import { createGateway } from '../src/core/gateway/client';
import type { ChatMessage } from '../src/core/domain/chat';
import { nodeRepoFs } from '../src/core/prompt/repoFs';
import { loadPromptContext, shapeReview } from '../src/core/prompt/shape';
import { ReviewPipeline } from '../src/core/review/pipeline';
import { parseSettings } from '../src/core/settings/parse';
import { countChatTokens, loadTokenizer } from '../src/core/tokens/count';
import { startTestGateway, type Reply } from '../test/fixtures/gateway/server';

const KEY = 'sk-bench-changes-not-a-real-key-0000';
const RATE = 4; // requests per second (bucket size and refill)
const CAP = 8; // requests in flight
const TTFT_MS = 300;
const TOKENS_PER_SECOND = 200;

// ---- the generated repository -------------------------------------------------------------------------------

/** A small seeded generator, so that every run reviews the same repository. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const random = rng(11);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

const LANGS: { ext: string; fn: (name: string, body: string[]) => string[] }[] = [
  { ext: 'ts', fn: (n, b) => [`export function ${n}(input: string[]): number {`, ...b.map((l) => `  ${l};`), '  return input.length;', '}', ''] },
  { ext: 'py', fn: (n, b) => [`def ${n}(items):`, ...b.map((l) => `    ${l.replace(/const |let /, '')}`), '    return len(items)', ''] },
  { ext: 'go', fn: (n, b) => [`func ${n}(items []string) int {`, ...b.map((l) => `\t${l.replace(/const |let /, '')}`), '\treturn len(items)', '}', ''] },
  { ext: 'java', fn: (n, b) => [`  public int ${n}(List<String> items) {`, ...b.map((l) => `    ${l.replace(/const |let /, 'var ')};`), '    return items.size();', '  }', ''] },
  { ext: 'rs', fn: (n, b) => [`pub fn ${n}(items: &[String]) -> usize {`, ...b.map((l) => `    ${l.replace(/const |let /, 'let ')};`), '    items.len()', '}', ''] },
  { ext: 'js', fn: (n, b) => [`function ${n}(items) {`, ...b.map((l) => `  ${l};`), '  return items.length;', '}', ''] },
  { ext: 'rb', fn: (n, b) => [`def ${n}(items)`, ...b.map((l) => `  ${l.replace(/const |let /, '')}`), '  items.size', 'end', ''] },
  { ext: 'c', fn: (n, b) => [`int ${n}(const char **items, int n) {`, ...b.map((l) => `  ${l.replace(/const |let /, 'int ')};`), '  return n;', '}', ''] },
];
const WORDS = ['total', 'count', 'index', 'value', 'result', 'buffer', 'offset', 'limit', 'price', 'order', 'user', 'token', 'cache', 'retry'];
const statement = () => `${pick(['const', 'let'])} ${pick(WORDS)}_${between(1, 99)} = ${pick(WORDS)}_${between(1, 99)} ${pick(['+', '-', '*'])} ${between(1, 500)}`;

/** A source file of about `lines` lines in the language of `ext`. */
function source(ext: string, lines: number): string[] {
  const lang = LANGS.find((l) => l.ext === ext) ?? LANGS[0]!;
  const out: string[] = [`// generated for bench:changes (${ext})`, ''];
  let n = 0;
  while (out.length < lines) out.push(...lang.fn(`${pick(WORDS)}${n++}`, Array.from({ length: between(3, 12) }, statement)));
  return out;
}

/** Edits one to three places of a file: a few lines replaced, added or removed in each. */
function edit(lines: string[]): string[] {
  const out = [...lines];
  const places = between(1, 3);
  for (let i = 0; i < places; i++) {
    const at = between(2, Math.max(2, out.length - 8));
    const kind = between(0, 2);
    if (kind === 0) out.splice(at, between(1, 4), ...Array.from({ length: between(1, 5) }, statement));
    else if (kind === 1) out.splice(at, 0, ...Array.from({ length: between(1, 6) }, statement));
    else out.splice(at, between(1, 3));
  }
  return out;
}

interface Repo {
  dir: string;
  changed: number;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
}

function write(dir: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}

function generateRepository(): Repo {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-bench-changes-'));
  git(dir, 'init', '-q');
  const files = new Map<string, string[]>();
  // 46 existing files to edit: 20 small, 18 medium, 8 large; a file to rename, one to delete, a lockfile, a binary.
  const sizes = [...Array(20).fill([30, 90]), ...Array(18).fill([150, 450]), ...Array(8).fill([1200, 2500])] as [number, number][];
  sizes.forEach(([lo, hi], i) => {
    const ext = LANGS[i % LANGS.length]!.ext;
    files.set(`src/${['core', 'api', 'util', 'jobs'][i % 4]}/module${i}.${ext}`, source(ext, between(lo, hi)));
  });
  files.set('src/legacy/old_name.py', source('py', 220));
  files.set('src/legacy/obsolete.go', source('go', 160));
  for (const [path, lines] of files) write(dir, path, lines.join('\n') + '\n');
  write(dir, 'package-lock.json', JSON.stringify({ name: 'bench', lockfileVersion: 3, packages: { '': { version: '1.0.0' } } }, null, 2) + '\n');
  write(dir, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3, 0, 4, 5]));
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  git(dir, 'checkout', '-qb', 'feature');

  let changed = 0;
  for (const [path, lines] of files) {
    if (path.startsWith('src/legacy/')) continue;
    write(dir, path, edit(lines).join('\n') + '\n');
    changed++;
  }
  for (let i = 0; i < 10; i++) {
    const ext = LANGS[i % LANGS.length]!.ext;
    write(dir, `src/features/new${i}.${ext}`, source(ext, between(25, 120)).join('\n') + '\n');
    changed++;
  }
  git(dir, 'mv', 'src/legacy/old_name.py', 'src/legacy/new_name.py');
  write(dir, 'src/legacy/new_name.py', edit(files.get('src/legacy/old_name.py')!).join('\n') + '\n');
  git(dir, 'rm', '-q', 'src/legacy/obsolete.go');
  write(dir, 'package-lock.json', JSON.stringify({ name: 'bench', lockfileVersion: 3, packages: { '': { version: '1.1.0' } } }, null, 2) + '\n');
  write(dir, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 9, 9, 9, 0, 4, 5]));
  changed += 4;
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'feature');
  return { dir, changed };
}

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
    const { settings } = parseSettings({ gateway: { baseUrl: gw.url }, limits: { maxConcurrent: CAP } });
    const request = { kind: 'ref' as const, ref: 'main' };

    // ---- what the CLI does before its first request, in its order ---------------------------------------------
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    // As the CLI does: the tokenizer loads in the gaps while git runs (its steps' time summed here).
    const tokenizerLoad = loadTokenizer();
    const source = await GitCliSource.open(repo.dir);
    const set = await collectChanges(source, request, { maxFileBytes: settings.changes.maxFileKb * 1024 });
    const t1 = performance.now();
    const planned0 = planChanges(set, { contextLines: settings.changes.contextLines, batchTokens: settings.changes.batchTokens });
    const t2 = performance.now();
    const context = await loadPromptContext({ settings, fs: nodeRepoFs(source.root), trusted: true, useRules: true });
    const shaped = await shapeReview(planned0.target, undefined, context);
    if (!shaped.ok) throw new Error(`${shaped.file} is excluded`);
    const plan = withShapedTarget(planned0, shaped.shaped.target);
    const t3 = performance.now();
    const listedPrices = new ListedPrices();
    const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
    const gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger, listedPrices });
    const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ledger, listedPrices });
    const options = { language: 'en', noCache: true, prompt: shaped.shaped.prompt };
    let planned = planBatches(pipeline, plan.target, plan.batches, options);
    if (planned.batches[0] && (await pipeline.learnPrices(planned.batches[0]))) planned = planBatches(pipeline, plan.target, plan.batches, options);
    const t4 = performance.now();

    // ---- the run ------------------------------------------------------------------------------------------------
    const runStartedAt = Date.now();
    const summary = await runBatches(pipeline, planned, () => undefined);
    const endedAt = Date.now();
    const runMs = Math.round(performance.now() - t4);
    gateway.dispose();
    if (!first) throw new Error('no chat request reached the gateway');
    const planCpu = { user: first.cpu.user - cpu0.user, system: first.cpu.system - cpu0.system };

    // After the run, so that counting the whole files (ten times the tokens) does not load the run.
    const whole = planChanges(wholeFiles(set), { contextLines: settings.changes.contextLines, batchTokens: settings.changes.batchTokens });
    const wholeTarget = await shapeReview(whole.target, undefined, context);
    if (!wholeTarget.ok) throw new Error('whole files: excluded');
    const wholeShaped = withShapedTarget(whole, wholeTarget.shaped.target);
    const wholePlanned = planBatches(pipeline, wholeShaped.target, wholeShaped.batches, options);
    const tokensWholeFiles = wholePlanned.batches.reduce((n, b) => n + b.agents.reduce((m, a) => m + a.promptTokens, 0), 0);

    const chats = gw.requests.filter((q) => q.path.endsWith('/chat/completions'));
    const firstAt = Math.min(...chats.map((q) => q.at));
    const makespanMs = endedAt - firstAt;
    const sent = chats.filter((q) => !q.rateLimited);
    const tokensSent = sent.reduce((n, q) => n + countChatTokens((q.body?.messages ?? []) as ChatMessage[]), 0);
    const failed = summary.agents.filter((a) => a.status !== 'ok').map((a) => `${a.agent}: ${a.error?.code ?? a.status}`);
    const line = {
      files: plan.files,
      skipped: (plan.target.skipped ?? []).length,
      requests: chats.length,
      tokensSent,
      tokensWholeFiles,
      planMs: Math.round(first.at - t0),
      planReadyMs: Math.round(t4 - t0),
      makespanMs,
      idealMakespanMs: idealMs(planned.batches.length),
      runMs,
      changedFiles: repo.changed,
      batches: planned.batches.length,
      http429: gw.rateLimited,
      planCpuMs: Math.round((planCpu.user + planCpu.system) / 1000),
      planDiffMs: Math.round(t1 - t0),
      planSplitMs: Math.round(t2 - t1),
      planShapeMs: Math.round(t3 - t2),
      planEstimateMs: Math.round(t4 - t3),
      planSendMs: Math.round(first.at - t4),
      tokenizerLoadMs: Math.round(await tokenizerLoad),
      failed,
      load1: Math.round((loadavg()[0] ?? 0) * 10) / 10,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    if (process.argv.includes('--timeline')) for (const q of chats) process.stderr.write(`${q.at - runStartedAt} ${q.model} ${q.rateLimited ? '429' : ''}\n`);
  } finally {
    await gw.close();
    rmSync(repo.dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
