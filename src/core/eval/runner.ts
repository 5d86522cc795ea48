import { type ReviewTarget, singleTarget } from '../domain/target';
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import type { CostLedger } from '../cost/ledger';
import type { ListedPrices } from '../cost/listedPrices';
import type { Gateway, StreamOptions } from '../gateway/types';
import { ReviewPipeline } from '../review/pipeline';
import type { QuorumSettings, VerifyMode } from '../settings/schema';
import type { VerifiedFigures } from './verification';
import { withoutRepeats, type ToolFilteredFigures } from './toolComparison';
import type { Corpus, EvalCase } from './corpus';
import type { EvalRunSpec } from './plan';
import { scoreRun, type CaseOutcome, type RunFigures } from './score';
import { BUILTIN_AGENT_IDS, VERIFIER } from '../../shared/builtinAgents';

/**
 * Runs agents over a corpus through the review pipeline and the one shared gateway client (its rate limits,
 * retries and ledger), and scores them. Eval never reads or writes the review cache, and uses no fallback
 * model: a run's figures are those of the model it names.
 */

export interface EvalDeps {
  /** The shared gateway client. */
  gateway: Gateway;
  settings: () => QuorumSettings;
  /** The session's ledger: every billed attempt is recorded here, and a case's cost is read from it. */
  ledger: CostLedger;
  /** Prices the gateway's `/models` listed: the estimate prices a model the price table does not know with them. */
  listedPrices?: ListedPrices;
  now?: () => number;
}

export interface EvalProgress {
  done: number;
  total: number;
  failures: number;
  costUsd: number;
  /** The case that just finished. */
  last?: { agent: string; model: string; caseId: string; ok: boolean };
}

interface EvalOptions {
  runs: readonly EvalRunSpec[];
  /** Output language of the reviews (`en`). */
  language: string;
  signal?: AbortSignal;
  onProgress?: (p: EvalProgress) => void;
  /** Verify each case's findings too (quorum.review.verify's modes; default off): the report scores both ways. */
  verify?: VerifyMode;
}

export interface EvalReport {
  runs: RunFigures[];
  /** Per run (same order): how many cases failed with each error code (`http-501`, `timeout`…). */
  failureCodes: Record<string, number>[];
  cancelled: boolean;
  /** Per run (same order): the cases that finished (answered or failed); fewer than `cases` when cancelled. */
  finished: number[];
  /** Every billed attempt of the eval, cases stopped by a cancel included (the runs' `costUsd` leave those out). */
  spentUsd: number;
  /**
   * With `verify`: each run scored again on the findings the verifier did not refute (same order as `runs`), its
   * cost including the verifier's; `verifierUsd` is what the verifier cost in each run.
   */
  verified?: VerifiedFigures;
  /** When cases carry tool results: each run scored again without the findings that repeat one (hidden in a review). */
  withTools?: ToolFilteredFigures;
}

interface EvalEstimate {
  /** The ceiling: every case of every run at its largest (all of maxOutputTokens). */
  costUsd: number;
  /** The likely cost: answers of a typical length. */
  likelyUsd: number;
  /** Cases × runs. */
  requests: number;
  perRun: { agent: string; model: string; costUsd: number; likelyUsd: number; priced: boolean }[];
}

/** The review target of a case: the whole file, named `<case-id>/<file>` so that answers can be told apart. */
function caseTarget(c: EvalCase): ReviewTarget {
  const target = singleTarget({ file: `${c.id}/${c.file}`, language: c.language, text: c.text.endsWith('\n') ? c.text.slice(0, -1) : c.text, startLine: 1, endLine: c.lines }, 'file');
  return { ...target, ...(c.context && c.context.length > 0 ? { context: c.context } : {}), ...(c.toolResults && c.toolResults.length > 0 ? { toolResults: c.toolResults } : {}) };
}

/** The settings eval runs with: no fallback models; verification only when the eval asks for it (`--verify`). */
function evalSettings(s: QuorumSettings, verify: VerifyMode): QuorumSettings {
  const agents = { ...s.agents };
  for (const id of BUILTIN_AGENT_IDS) agents[id] = { ...agents[id], fallbackModel: '' };
  return { ...s, agents, customAgents: s.customAgents.map((c) => ({ ...c, fallbackModel: '' })), review: { ...s.review, verify } };
}

/**
 * The shared gateway, seen by one eval: notes when each request was first sent (after any queueing) and when
 * its last byte arrived, by the request's review id.
 */
class TimedGateway implements Gateway {
  readonly spans = new Map<string, { sent?: number; ended?: number }>();
  constructor(
    private readonly inner: Gateway,
    private readonly now: () => number,
  ) {}

  async *stream(request: Parameters<Gateway['stream']>[0], options: StreamOptions = {}): ReturnType<Gateway['stream']> {
    const id = request.tag?.reviewId ?? '';
    const span: { sent?: number; ended?: number } = {};
    this.spans.set(id, span);
    const inner = this.inner.stream(request, {
      ...options,
      onSent: () => {
        span.sent ??= this.now();
        options.onSent?.();
      },
    });
    try {
      let step = await inner.next();
      while (!step.done) {
        yield step.value;
        step = await inner.next();
      }
      return step.value;
    } finally {
      span.ended = this.now();
    }
  }

  listModels(options?: StreamOptions): ReturnType<Gateway['listModels']> {
    return this.inner.listModels(options);
  }
}

function pipelineFor(deps: EvalDeps, gateway: Gateway, verify: VerifyMode = 'off'): ReviewPipeline {
  // No cache: eval neither reads nor writes the review cache.
  return new ReviewPipeline({ gateway, settings: () => evalSettings(deps.settings(), verify), ledger: deps.ledger, ...(deps.listedPrices ? { listedPrices: deps.listedPrices } : {}), ...(deps.now ? { now: deps.now } : {}) });
}

/** What a case of `run` asks the pipeline: that agent on that model, never the cache. */
function runOptions(run: EvalRunSpec, language: string) {
  return { agents: [run.agent], modelOverrides: { [run.agent]: run.model }, noCache: true, language };
}

/**
 * Before the estimate: reads the gateway's `/models` when a model of `runs` has no price in `quorum.prices` or
 * the table — the review's own `learnPrices` (the same list, the same 30-minute reuse and 5 s wait), so that a
 * price the gateway lists prices the estimate and the answers. True when it read the list. Never throws.
 */
export async function learnEvalPrices(corpus: Corpus, deps: EvalDeps, runs: readonly EvalRunSpec[], language: string, signal?: AbortSignal): Promise<boolean> {
  const first = corpus.cases[0];
  if (!first) return false;
  const pipeline = pipelineFor(deps, deps.gateway);
  let learnt = false;
  for (const run of runs) {
    if (await pipeline.learnPrices(pipeline.estimate(caseTarget(first), { ...runOptions(run, language), ...(signal ? { signal } : {}) }))) learnt = true;
  }
  return learnt;
}

/** The cost of an eval at most, before anything is sent. */
export function estimateEval(corpus: Corpus, deps: EvalDeps, runs: readonly EvalRunSpec[], language: string, verify: VerifyMode = 'off'): EvalEstimate {
  const pipeline = pipelineFor(deps, deps.gateway, verify);
  const perRun = runs.map((run) => {
    let costUsd = 0;
    let likelyUsd = 0;
    let priced = true;
    for (const c of corpus.cases) {
      const e = pipeline.estimate(caseTarget(c), runOptions(run, language)).estimate;
      const agent = e.perAgent[run.agent];
      costUsd += e.costUsd;
      likelyUsd += e.likelyUsd;
      if (agent && agent.costUsd === 0) priced = false;
    }
    return { agent: run.agent, model: run.model, costUsd, likelyUsd, priced };
  });
  return { costUsd: perRun.reduce((s, r) => s + r.costUsd, 0), likelyUsd: perRun.reduce((s, r) => s + r.likelyUsd, 0), requests: runs.length * corpus.cases.length, perRun };
}

/** Runs every case of every run (cases in parallel, up to the gateway's concurrency) and scores each run. */
export async function runEval(corpus: Corpus, deps: EvalDeps, options: EvalOptions): Promise<EvalReport> {
  const now = deps.now ?? Date.now;
  const timed = new TimedGateway(deps.gateway, now);
  const verify = options.verify ?? 'off';
  const pipeline = pipelineFor(deps, timed, verify);
  const outcomes = options.runs.map(() => new Map<string, CaseOutcome>());
  const verifiedOutcomes = options.runs.map(() => new Map<string, CaseOutcome>());
  const verifierUsd = options.runs.map(() => 0);
  const toolOutcomes = options.runs.map(() => new Map<string, CaseOutcome>());
  const repeats = options.runs.map(() => 0);
  const tooled = corpus.cases.some((c) => (c.toolResults ?? []).length > 0);
  const failureCodes = options.runs.map((): Record<string, number> => ({}));
  const limit = pLimit(Math.max(1, deps.settings().limits.maxConcurrent));
  const total = options.runs.length * corpus.cases.length;
  const progress: EvalProgress = { done: 0, total, failures: 0, costUsd: 0 };
  const signal = options.signal;
  let spentUsd = 0;

  const one = async (runIndex: number, run: EvalRunSpec, c: EvalCase): Promise<void> => {
    if (signal?.aborted) return;
    const reviewId = `eval-${randomUUID()}`;
    const plan = pipeline.estimate(caseTarget(c), { reviewId, ...runOptions(run, options.language), ...(signal ? { signal } : {}) });
    const summary = await pipeline.run(plan, () => undefined, { verify: verify !== 'off' });
    const result = summary.agents.find((a) => a.agent === run.agent);
    const costUsd = deps.ledger.entries({ reviewId, agent: run.agent }).reduce((s, e) => s + e.costUsd, 0);
    const span = timed.spans.get(reviewId);
    const ok = result?.status === 'ok';
    const latencyMs = span?.sent !== undefined && span.ended !== undefined ? Math.max(0, span.ended - span.sent) : (result?.latencyMs ?? 0);
    timed.spans.delete(reviewId);
    spentUsd += costUsd;
    if (result?.status === 'cancelled' || (signal?.aborted && !ok)) return;
    outcomes[runIndex]?.set(c.id, { caseId: c.id, ok, findings: ok ? (result?.findings ?? []) : [], latencyMs, costUsd });
    if (tooled) {
      const kept = withoutRepeats(ok ? (result?.findings ?? []) : [], c.toolResults ?? []);
      toolOutcomes[runIndex]?.set(c.id, { caseId: c.id, ok, findings: kept.findings, latencyMs, costUsd });
      repeats[runIndex] = (repeats[runIndex] ?? 0) + kept.hidden;
    }
    if (verify !== 'off') {
      // The same answer, less what the verifier refuted (a verifier that failed refutes nothing).
      const checkedUsd = deps.ledger.entries({ reviewId, agent: VERIFIER.id }).reduce((s, e) => s + e.costUsd, 0);
      const refuted = new Set(summary.findings.filter((f) => f.verification?.verdict === 'refuted').flatMap((f) => [f.id, ...(f.mergedFrom ?? [])]));
      verifiedOutcomes[runIndex]?.set(c.id, { caseId: c.id, ok, findings: ok ? (result?.findings ?? []).filter((f) => !refuted.has(f.id)) : [], latencyMs, costUsd: costUsd + checkedUsd });
      verifierUsd[runIndex] = (verifierUsd[runIndex] ?? 0) + checkedUsd;
      spentUsd += checkedUsd;
      progress.costUsd += checkedUsd;
    }
    progress.done += 1;
    progress.costUsd += costUsd;
    if (!ok) {
      progress.failures += 1;
      const codes = failureCodes[runIndex];
      const code = result?.error?.code ?? 'no-result';
      if (codes) codes[code] = (codes[code] ?? 0) + 1;
    }
    progress.last = { agent: run.agent, model: run.model, caseId: c.id, ok };
    options.onProgress?.({ ...progress });
  };

  await Promise.all(options.runs.flatMap((run, i) => corpus.cases.map((c) => limit(() => one(i, run, c)))));
  if (signal?.aborted) {
    // The cases a cancel left unfinished count as failures (scoreRun); say why, beside the real error codes.
    options.runs.forEach((_, i) => {
      const unfinished = corpus.cases.length - (outcomes[i]?.size ?? 0);
      const codes = failureCodes[i];
      if (unfinished > 0 && codes) codes.cancelled = unfinished;
    });
  }
  return {
    runs: options.runs.map((run, i) => scoreRun(run.agent, run.model, corpus.cases, outcomes[i] ?? new Map())),
    failureCodes,
    cancelled: signal?.aborted === true,
    finished: outcomes.map((o) => o.size),
    spentUsd,
    ...(tooled ? { withTools: { runs: options.runs.map((run, i) => scoreRun(run.agent, run.model, corpus.cases, toolOutcomes[i] ?? new Map())), hidden: repeats } } : {}),
    ...(verify !== 'off' ? { verified: { runs: options.runs.map((run, i) => scoreRun(run.agent, run.model, corpus.cases, verifiedOutcomes[i] ?? new Map())), verifierUsd } } : {}),
  };
}
