import { type ReviewTarget, singleTarget } from '../domain/target';
import type { Finding } from '../domain/finding';
import type { ReviewSummary } from '../domain/result';
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import type { CostLedger } from '../cost/ledger';
import type { ListedPrices } from '../cost/listedPrices';
import type { Gateway } from '../gateway/types';
import { ReviewPipeline } from '../pipeline/pipeline';
import type { ReviewOptions } from '../pipeline/options';
import { createExcluder } from '../prompt/exclude';
import { EMPTY_REPOSITORY_RULES } from '../prompt/repository';
import { runReview } from '../review/runReview';
import type { QuorumSettings, VerifyMode } from '../settings/schema';
import { TimedGateway } from './timedGateway';
import type { VerifiedFigures } from './verification';
import { withoutRepeats, type ToolFilteredFigures } from './toolComparison';
import type { Corpus, EvalCase } from './corpus';
import type { EvalRunSpec } from './plan';
import { scoreRun, type CaseOutcome, type RunFigures } from './score';
import { BUILTIN_AGENT_IDS, VERIFIER } from '../../shared/builtinAgents';

/**
 * Runs agents over a corpus through the review use case (runReview: shaped, planned, run, verified as a review
 * is) and the one shared gateway client (its rate limits, retries and ledger), and scores them. Eval never reads
 * or writes the review cache, and uses no fallback model: a run's figures are those of the model it names.
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

/**
 * One case through the review use case: shaped as a file outside any repository (its secrets redacted as the
 * settings say; no rules, nothing excluded), planned, run and verified as the eval's settings say.
 */
async function reviewCase(pipeline: ReviewPipeline, c: EvalCase, options: Omit<ReviewOptions, 'prompt'>): Promise<ReviewSummary> {
  const settings = pipeline.currentSettings();
  const outcome = await runReview(pipeline, {
    work: { target: caseTarget(c) },
    context: { repository: EMPTY_REPOSITORY_RULES, excluder: createExcluder({ globs: [] }), redactSecrets: settings.privacy.redactSecrets, maxRuleTokens: settings.rules.maxTokens, rulesOff: 'no-repository' },
    options,
    confirm: { planned: () => 'proceed' },
  });
  if (outcome.status !== 'reviewed') throw new Error(`eval case ${c.id} was not reviewed (${outcome.status})`);
  return outcome.summary;
}

/** What one case gave the agent of a run: its result, what it cost (every billed attempt) and took, and the verifier's part. */
interface CaseAnswer {
  ok: boolean;
  /** The agent's own findings (not merged); none when it failed. */
  findings: Finding[];
  latencyMs: number;
  costUsd: number;
  /** Stopped by a cancel: not scored. */
  stopped: boolean;
  errorCode?: string;
  /** With verification: the ids the verifier refuted (merged findings name the agents' ids they came from), and what it cost. */
  checked?: { refuted: Set<string>; costUsd: number };
}

async function answerCase(pipeline: ReviewPipeline, timed: TimedGateway, deps: EvalDeps, run: EvalRunSpec, c: EvalCase, options: EvalOptions): Promise<CaseAnswer> {
  const reviewId = `eval-${randomUUID()}`;
  const signal = options.signal;
  const summary = await reviewCase(pipeline, c, { reviewId, ...runOptions(run, options.language), ...(signal ? { signal } : {}) });
  const result = summary.agents.find((a) => a.agent === run.agent);
  const costOf = (agent: string) => deps.ledger.entries({ reviewId, agent }).reduce((s, e) => s + e.costUsd, 0);
  const span = timed.spans.get(reviewId);
  timed.spans.delete(reviewId);
  const ok = result?.status === 'ok';
  const answer: CaseAnswer = {
    ok,
    findings: ok ? result.findings : [],
    latencyMs: span?.sent !== undefined && span.ended !== undefined ? Math.max(0, span.ended - span.sent) : (result?.latencyMs ?? 0),
    costUsd: costOf(run.agent),
    stopped: result?.status === 'cancelled' || (signal?.aborted === true && !ok),
    ...(ok ? {} : { errorCode: result?.error?.code ?? 'no-result' }),
  };
  if ((options.verify ?? 'off') === 'off') return answer;
  const refuted = new Set(summary.findings.filter((f) => f.verification?.verdict === 'refuted').flatMap((f) => [f.id, ...(f.mergedFrom ?? [])]));
  return { ...answer, checked: { refuted, costUsd: costOf(VERIFIER.id) } };
}

/** What an eval gathers of one run: its cases' outcomes scored each way, the repeats hidden, the verifier's cost, the failures by code. */
interface RunTally {
  outcomes: Map<string, CaseOutcome>;
  tools: Map<string, CaseOutcome>;
  repeats: number;
  verified: Map<string, CaseOutcome>;
  verifierUsd: number;
  failureCodes: Record<string, number>;
}

const emptyTally = (): RunTally => ({ outcomes: new Map(), tools: new Map(), repeats: 0, verified: new Map(), verifierUsd: 0, failureCodes: {} });

/** Adds a case's answer to its run's tally. */
function tally(t: RunTally, c: EvalCase, a: CaseAnswer, tooled: boolean): void {
  const { ok, latencyMs, costUsd } = a;
  t.outcomes.set(c.id, { caseId: c.id, ok, findings: a.findings, latencyMs, costUsd });
  if (tooled) {
    const kept = withoutRepeats(a.findings, c.toolResults ?? []);
    t.tools.set(c.id, { caseId: c.id, ok, findings: kept.findings, latencyMs, costUsd });
    t.repeats += kept.hidden;
  }
  if (a.checked) {
    // The same answer, less what the verifier refuted (a verifier that failed refutes nothing).
    const { refuted } = a.checked;
    t.verified.set(c.id, { caseId: c.id, ok, findings: a.findings.filter((f) => !refuted.has(f.id)), latencyMs, costUsd: costUsd + a.checked.costUsd });
    t.verifierUsd += a.checked.costUsd;
  }
  if (a.errorCode !== undefined) t.failureCodes[a.errorCode] = (t.failureCodes[a.errorCode] ?? 0) + 1;
}

/** Runs every case of every run (cases in parallel, up to the gateway's concurrency) and scores each run. */
export async function runEval(corpus: Corpus, deps: EvalDeps, options: EvalOptions): Promise<EvalReport> {
  const timed = new TimedGateway(deps.gateway, deps.now ?? Date.now);
  const pipeline = pipelineFor(deps, timed, options.verify ?? 'off');
  const tallies = options.runs.map(emptyTally);
  const tooled = corpus.cases.some((c) => (c.toolResults ?? []).length > 0);
  const limit = pLimit(Math.max(1, deps.settings().limits.maxConcurrent));
  const progress: EvalProgress = { done: 0, total: options.runs.length * corpus.cases.length, failures: 0, costUsd: 0 };
  const signal = options.signal;
  let spentUsd = 0;

  const one = async (t: RunTally, run: EvalRunSpec, c: EvalCase): Promise<void> => {
    if (signal?.aborted) return;
    const answer = await answerCase(pipeline, timed, deps, run, c, options);
    spentUsd += answer.costUsd;
    if (answer.stopped) return;
    tally(t, c, answer, tooled);
    if (answer.checked) {
      spentUsd += answer.checked.costUsd;
      progress.costUsd += answer.checked.costUsd;
    }
    progress.done += 1;
    progress.costUsd += answer.costUsd;
    if (!answer.ok) progress.failures += 1;
    progress.last = { agent: run.agent, model: run.model, caseId: c.id, ok: answer.ok };
    options.onProgress?.({ ...progress });
  };

  await Promise.all(options.runs.flatMap((run, i) => corpus.cases.map((c) => limit(() => one(tallies[i] ?? emptyTally(), run, c)))));
  // The cases a cancel left unfinished count as failures (scoreRun); say why, beside the real error codes.
  if (signal?.aborted) for (const t of tallies) if (corpus.cases.length > t.outcomes.size) t.failureCodes.cancelled = corpus.cases.length - t.outcomes.size;
  return reportOf(corpus, options, tallies, { cancelled: signal?.aborted === true, spentUsd, tooled });
}

function reportOf(corpus: Corpus, options: EvalOptions, tallies: readonly RunTally[], how: { cancelled: boolean; spentUsd: number; tooled: boolean }): EvalReport {
  const score = (pick: (t: RunTally) => Map<string, CaseOutcome>) => options.runs.map((run, i) => scoreRun(run.agent, run.model, corpus.cases, pick(tallies[i] ?? emptyTally())));
  return {
    runs: score((t) => t.outcomes),
    failureCodes: tallies.map((t) => t.failureCodes),
    cancelled: how.cancelled,
    finished: tallies.map((t) => t.outcomes.size),
    spentUsd: how.spentUsd,
    ...(how.tooled ? { withTools: { runs: score((t) => t.tools), hidden: tallies.map((t) => t.repeats) } } : {}),
    ...((options.verify ?? 'off') !== 'off' ? { verified: { runs: score((t) => t.verified), verifierUsd: tallies.map((t) => t.verifierUsd) } } : {}),
  };
}
