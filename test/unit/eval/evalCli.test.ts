import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { withCaseContext } from '../../../src/core/eval/caseContext';
import { loadCorpus, type Corpus } from '../../../src/core/eval/corpus';
import { evalJsonSchema, type EvalJson } from '../../../src/core/eval/report';
import { estimateEval } from '../../../src/core/eval/runner';
import { formatDollars } from '../../../src/core/eval/table';
import { createGateway } from '../../../src/core/gateway/client';
import { CostLedger } from '../../../src/core/cost/ledger';
import { parseSettings } from '../../../src/core/settings/parse';
import { planRuns } from '../../../src/core/eval/plan';
import { corpusOracles, FAIL_PREFIX, ORACLE_COST_USD } from '../../fixtures/gateway/oracle';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

const root = resolve(__dirname, '..', '..', '..');
const shipped = join(root, 'eval', 'corpus');
const KEY = 'sk-eval-test-key-0123456789';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function quorum(argv: string[], env: Record<string, string>, cwd = root): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, ...env }, version: '0.0.0', signal: new AbortController().signal, cwd,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

const chats = (tg: TestGateway) => tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

describe('quorum eval (CLI, against oracle models on the test gateway)', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  let corpus: Corpus;
  let env: Record<string, string>;
  before(async () => {
    corpus = await loadCorpus(shipped);
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 100_000, oracles: corpusOracles(shipped) });
    env = { QUORUM_BASE_URL: tg.url };
  });
  after(() => tg.close());

  it('gives the exact figures of perfect, noisy and silent oracles for one agent (--compare, JSON)', async () => {
    const r = await quorum(['eval', '--compare', 'security=oracle-perfect,oracle-noisy,oracle-silent', '--format', 'json', '--max-concurrency', '8'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /estimated cost/);
    const doc: EvalJson = evalJsonSchema.parse(JSON.parse(r.stdout));
    // The shipped corpus has a case with tool results (go-ignored-error): each run is scored again without their repeats.
    assert.deepEqual(Object.keys(JSON.parse(r.stdout) as object), ['runs', 'toolResults']);
    assert.deepEqual(doc.runs.map((x) => [x.agent, x.model]), [['security', 'oracle-perfect'], ['security', 'oracle-noisy'], ['security', 'oracle-silent']]);
    // The oracles' findings never repeat golangci-lint's errcheck result in its words: the same figures both ways.
    assert.deepEqual(doc.toolResults?.map((t) => [t.model, t.without, t.with, t.repeatsHidden]), doc.runs.map((x) => [x.model, { precision: x.precision, recall: x.recall, f1: x.f1 }, { precision: x.precision, recall: x.recall, f1: x.f1 }, 0]));

    const n = corpus.cases.length;
    const clean = corpus.cases.filter((c) => c.expected.length === 0);
    const failing = corpus.cases.filter((c) => c.id.startsWith(FAIL_PREFIX));
    const security = (cs: typeof corpus.cases) => cs.reduce((s, c) => s + c.expected.filter((e) => e.kind === 'security').length, 0);
    const S = security(corpus.cases);
    const tp = S - security(failing);
    const flawedOk = corpus.cases.filter((c) => c.expected.length > 0 && !c.id.startsWith(FAIL_PREFIX)).length;
    const cleanOk = clean.filter((c) => !c.id.startsWith(FAIL_PREFIX)).length;
    assert.ok(S > 0 && tp > 0 && failing.length > 0 && cleanOk > 0);

    const [perfect, noisy, silent] = doc.runs;
    assert.deepEqual(
      { ...perfect, p50Ms: null, p95Ms: null },
      {
        agent: 'security', model: 'oracle-perfect', cases: n, precision: 1, recall: 1, f1: 1, falsePositivesPerCleanCase: 0,
        costUsd: n * ORACLE_COST_USD, costPerTruePositiveUsd: (n * ORACLE_COST_USD) / S, p50Ms: null, p95Ms: null, failures: 0,
        thresholds: [0, 0.3, 0.5, 0.7, 0.9].map((t) => ({ minConfidence: t, precision: 1, recall: 1 })),
      },
    );
    assert.ok(perfect !== undefined && perfect.p50Ms !== null && perfect.p95Ms !== null && perfect.p50Ms <= perfect.p95Ms);

    const p = tp / (tp + flawedOk + cleanOk);
    const rec = tp / S;
    assert.deepEqual(
      { ...noisy, p50Ms: null, p95Ms: null },
      {
        agent: 'security', model: 'oracle-noisy', cases: n, precision: p, recall: rec, f1: (2 * p * rec) / (p + rec),
        falsePositivesPerCleanCase: cleanOk / clean.length, costUsd: (n - failing.length) * ORACLE_COST_USD,
        costPerTruePositiveUsd: ((n - failing.length) * ORACLE_COST_USD) / tp, p50Ms: null, p95Ms: null, failures: failing.length,
        thresholds: [
          { minConfidence: 0, precision: p, recall: rec },
          { minConfidence: 0.3, precision: tp / (tp + cleanOk), recall: rec },
          { minConfidence: 0.5, precision: 1, recall: rec },
          { minConfidence: 0.7, precision: 1, recall: rec },
          { minConfidence: 0.9, precision: null, recall: 0 },
        ],
      },
    );
    assert.deepEqual(
      { p: silent?.precision, r: silent?.recall, f1: silent?.f1, fp: silent?.falsePositivesPerCleanCase, cost: silent?.costUsd, cpt: silent?.costPerTruePositiveUsd, f: silent?.failures },
      { p: null, r: 0, f1: null, fp: 0, cost: n * ORACLE_COST_USD, cpt: null, f: 0 },
    );
  });

  it('without --compare runs the three reviewers on their models (with --model overrides); never the coding agent', async () => {
    const before = tg.requests.length;
    const r = await quorum(['eval', '--model', 'analyst=oracle-perfect', '--model', 'architecture=oracle-perfect', '--model', 'security=oracle-perfect', '--format', 'json'], env);
    assert.equal(r.code, 0, r.stderr);
    const doc = evalJsonSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(doc.runs.map((x) => [x.agent, x.model, x.precision, x.recall]), [
      ['analyst', 'oracle-perfect', 1, 1],
      ['architecture', 'oracle-perfect', 1, 1],
      ['security', 'oracle-perfect', 1, 1],
    ]);
    const sent = tg.requests.slice(before).filter((q) => q.path.endsWith('/chat/completions'));
    assert.equal(sent.length, 3 * corpus.cases.length);
    assert.ok(sent.every((q) => q.model === 'oracle-perfect'));
  });

  it('prints a text table, and with --output writes the chosen format to the file while printing the table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quorum-eval-out-'));
    const start = chats(tg);
    const r = await quorum(['eval', '--compare', 'analyst=oracle-perfect', '--format', 'json', '--output', 'out/report.json'], env, dir);
    // out/ does not exist: a usage error, before any request
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot write/);
    assert.equal(chats(tg), start);
    mkdirSync(join(dir, 'out'));
    const ok = await quorum(['eval', '--compare', 'analyst=oracle-perfect', '--format', 'json', '--output', 'out/report.json'], env, dir);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^agent\s+model\s+precision\s+recall\s+F1/m);
    assert.match(ok.stdout, /analyst\s+oracle-perfect\s+1\.000\s+1\.000\s+1\.000/);
    const doc = evalJsonSchema.parse(JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')));
    assert.equal(doc.runs[0]?.recall, 1);
    const html = await quorum(['eval', '--compare', 'analyst=oracle-perfect,oracle-silent', '--format', 'html', '--output', 'r.html'], env, dir);
    assert.equal(html.code, 0, html.stderr);
    const page = readFileSync(join(dir, 'r.html'), 'utf8');
    assert.match(page, /<svg[^>]*class="cost-f1-chart"/);
    assert.doesNotMatch(page, /<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('usage errors exit 2 before any request', async () => {
    const start = chats(tg);
    const dir = mkdtempSync(join(tmpdir(), 'quorum-bad-corpus-'));
    mkdirSync(join(dir, 'good'));
    writeFileSync(join(dir, 'good', 'expected.json'), JSON.stringify({ language: 'python', file: 'a.py', findings: [] }));
    writeFileSync(join(dir, 'good', 'a.py'), 'x = 1\n');
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'expected.json'), JSON.stringify({ language: 'python', file: 'a.py', findings: [{ startLine: 1, endLine: 1, kind: 'security' }] }));
    writeFileSync(join(dir, 'broken', 'a.py'), 'x = 1\n');
    const empty = mkdtempSync(join(tmpdir(), 'quorum-empty-corpus-'));
    const cases: [string[], RegExp][] = [
      [['eval', '--corpus', dir], /case "broken": findings\.0\.cwe/],
      [['eval', '--corpus', empty], /holds no case/],
      [['eval', '--format', 'html'], /--format html needs --output/],
      [['eval', '--agents', 'coding'], /not scored/],
      [['eval', '--agents', 'nobody'], /unknown agent "nobody"/],
      [['eval', '--compare', 'security=a,b,c,d,e,f'], /at most 5 models/],
      [['eval', '--compare', 'security'], /agent=model/],
      [['eval', '--format', 'xml'], /--format is text, json or html/],
      [['eval', '--max-concurrency', '0'], /at least 1/],
      [['eval', 'somefile.py'], /no file arguments/],
      [['eval', '--model', 'coding=gpt-4.1'], /does not run/],
    ];
    for (const [argv, message] of cases) {
      const r = await quorum(argv, env);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, argv.join(' '));
    }
    assert.equal(chats(tg), start);
  });

  it('a model that fails on every case leaves exit 0 with its failures counted', async () => {
    tg.script((req) => (req.model === 'broken-model' ? { kind: 'error', status: 501, message: 'nope' } : undefined));
    try {
      const r = await quorum(['eval', '--compare', 'security=broken-model', '--format', 'json'], env);
      assert.equal(r.code, 0, r.stderr);
      const run = evalJsonSchema.parse(JSON.parse(r.stdout)).runs[0];
      assert.deepEqual({ f: run?.failures, r: run?.recall, p: run?.precision, p50: run?.p50Ms, cost: run?.costUsd }, { f: corpus.cases.length, r: 0, p: null, p50: null, cost: 0 });
    } finally {
      tg.script(undefined);
    }
  });
});

describe('quorum eval: the estimate prices a model at the price the gateway lists in /models', function () {
  this.timeout(60_000);
  const LISTED = { pricing: { prompt: '0.000001', completion: '0.000002' } }; // $1 in, $2 out per million tokens
  let tg: TestGateway;
  let corpus: Corpus;
  before(async () => {
    // As `quorum eval` sends it by default (--context on): a case with other files carries their context.
    corpus = await withCaseContext(await loadCorpus(shipped), 3000);
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 100_000, oracles: corpusOracles(shipped), models: ['oracle-perfect', 'oracle-noisy', 'gpt-4.1'], modelFields: { 'oracle-noisy': LISTED } });
  });
  after(() => tg.close());

  /** The estimate line for `compare`, worked out by core with `prices` as the user's own price table. */
  function expectedLine(compare: Record<string, string[]>, prices: Record<string, { input: number; output: number }>): string {
    const { settings } = parseSettings({ gateway: { baseUrl: tg.url }, prices });
    const ledger = new CostLedger(() => settings.prices);
    const gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger });
    try {
      const e = estimateEval(corpus, { gateway, settings: () => settings, ledger }, planRuns(settings, { compare }), 'en');
      assert.ok(e.perRun.some((r) => r.priced && r.costUsd > 0), 'the priced share is not nothing');
      return `estimated cost: likely ${formatDollars(e.likelyUsd)}, at most ${formatDollars(e.costUsd)} for ${e.requests} requests`;
    } finally {
      gateway.dispose();
    }
  }

  it('reads /models once before the estimate and counts the listed price, as a review does; unpriced models are named', async () => {
    tg.requests.length = 0;
    const r = await quorum(['eval', '--compare', 'security=oracle-perfect,oracle-noisy', '--format', 'json'], { QUORUM_BASE_URL: tg.url });
    assert.equal(r.code, 0, r.stderr);
    const models = tg.requests.filter((q) => q.path.endsWith('/models'));
    assert.equal(models.length, 1, 'one /models read');
    assert.ok(tg.requests.indexOf(models[0]!) < tg.requests.findIndex((q) => q.path.endsWith('/chat/completions')), '/models is read before any case is sent');
    // The same figure as with the listed price written in quorum.prices: { input: 1, output: 2 } per million.
    const line = expectedLine({ security: ['oracle-perfect', 'oracle-noisy'] }, { 'oracle-noisy': { input: 1, output: 2 } });
    assert.ok(r.stderr.includes(`quorum: ${line} (no price is known for oracle-perfect: its share is not in the estimate)\n`), r.stderr);
  });

  it('does not read /models when the price table knows every model', async () => {
    tg.requests.length = 0;
    tg.script((req) => (req.model === 'gpt-4.1' ? { kind: 'error', status: 501, message: 'not in this test' } : undefined));
    try {
      const r = await quorum(['eval', '--compare', 'security=gpt-4.1', '--format', 'json'], { QUORUM_BASE_URL: tg.url });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(tg.requests.filter((q) => q.path.endsWith('/models')).length, 0);
      assert.ok(r.stderr.includes(`quorum: ${expectedLine({ security: ['gpt-4.1'] }, {})}\n`), r.stderr);
    } finally {
      tg.script(undefined);
    }
  });
});
