import { randomUUID } from 'node:crypto';
import type { CostLedger } from '../cost/ledger';
import type { ListedPrices } from '../cost/listedPrices';
import { priceFor } from '../cost/prices';
import type { Gateway } from '../gateway/types';
import { SecretRedactor } from '../redaction/redactor';
import type { QuorumSettings } from '../settings/schema';
import { runAgent, type AgentRunDeps, type ReviewRun } from '../pipeline/agentRun';
import type { AnswerStore, CachedAnswer } from '../pipeline/cache';
import { mergeFindings } from '../domain/merge';
import { planReview, type ReviewPlan } from '../pipeline/plan';
import { type ReviewTarget, targetInfo } from '../domain/target';
import { totalsOf } from '../domain/totals';
import { verifySummary } from '../verification/verify';
import type { AgentResult, ReviewSummary } from '../domain/result';
import type { ReviewEvent } from '../domain/events';
import type { ReviewOptions } from '../pipeline/options';

interface ReviewPipelineDeps {
  /** The one shared gateway client. */
  gateway: Gateway;
  /** Read at the start of every review and estimate, so that changed settings apply to the next one. */
  settings: () => QuorumSettings;
  /** Shared across reviews (memory, or disk across runs); without it nothing is cached. */
  cache?: AnswerStore;
  /** How long cached answers are served; `quorum.cache.ttlMinutes` when absent (the CLI's disk cache has its own). */
  cacheTtlMs?: () => number;
  /** When given, cache hits are recorded (at $0) and the cost of failed agents is read from it. */
  ledger?: CostLedger;
  /** Prices the gateway lists in `/models` (filled by the gateway client), for models without a price. */
  listedPrices?: ListedPrices;
  now?: () => number;
}

/** How long a gateway's listed prices are used before `/models` is read again. */
const LISTED_PRICES_MS = 30 * 60_000;
/** How long a review waits for `/models` when it needs a listed price. */
const LISTED_PRICES_TIMEOUT_MS = 5_000;

/**
 * What may differ between the plan and the run: the run's own id and its cancellation; `verify: true` also runs
 * the verification step on the run's merged findings (eval does; runReview verifies once, after every batch).
 */
export type RunOptions = Pick<ReviewOptions, 'reviewId' | 'signal'> & { verify?: boolean };

/**
 * Runs a review: the agents as a DAG over the shared gateway. `estimate` plans the review once (messages, token
 * counts, cache keys, cost); `run` sends that plan. Independent agents start together (the gateway limits
 * concurrency); a dependent agent starts once all its inputs have settled, and runs with whatever succeeded.
 * Agent failures become `failed` events and results; `estimate` and `run` throw only a `ReviewConfigError`.
 */
export class ReviewPipeline {
  private readonly now: () => number;

  constructor(private readonly deps: ReviewPipelineDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * The review planned, before anything is sent: each agent's messages ("what will be sent"; a dependent agent's
   * gain the others' results once they answer), prompt sizes, context-window checks and the likely and ceiling cost.
   */
  estimate(target: ReviewTarget, options: ReviewOptions): ReviewPlan {
    const settings = this.deps.settings();
    const base = settings.gateway.baseUrl;
    const listed = this.deps.listedPrices;
    return planReview(target, options, settings, (key) => this.cached(key, settings) !== undefined, listed?.for(base) ?? {}, listed?.windowsFor(base) ?? {});
  }

  /**
   * Reads the gateway's `/models` (at most once per LISTED_PRICES_MS) when a model of `plan` has no price in
   * `quorum.prices` or the table, so that a price the gateway lists prices the estimate and the answers. True
   * when it read the list: estimate again. A gateway without `/models` (or one that fails) leaves the model
   * unpriced, as before. Never throws.
   */
  async learnPrices(plan: ReviewPlan): Promise<boolean> {
    const listed = this.deps.listedPrices;
    if (!listed) return false;
    const baseUrl = plan.settings.gateway.baseUrl;
    const models = plan.agents.flatMap(({ spec }) => (spec.fallbackModel ? [spec.model, spec.fallbackModel] : [spec.model]));
    if (models.every((m) => priceFor(m, plan.settings.prices, listed.for(baseUrl)) !== undefined)) return false;
    const at = listed.learnedAt(baseUrl);
    if (at !== undefined && this.now() - at < LISTED_PRICES_MS) return false;
    try {
      const signal = plan.options.signal;
      await this.deps.gateway.listModels({ signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(LISTED_PRICES_TIMEOUT_MS)]) : AbortSignal.timeout(LISTED_PRICES_TIMEOUT_MS) });
      return true;
    } catch {
      listed.unlisted(baseUrl); // no list from this gateway: not asked again for a while
      return false;
    }
  }

  /** Sends `plan`; `at` gives the run its id and signal when they were not known as it was planned. */
  async run(plan: ReviewPlan, onEvent: (e: ReviewEvent) => void, at: RunOptions = {}): Promise<ReviewSummary> {
    const sent = await this.redacted(plan);
    const reviewId = at.reviewId ?? sent.options.reviewId ?? randomUUID();
    const signal = at.signal ?? sent.options.signal;
    const startedAt = this.now();
    const emit = (e: ReviewEvent) => {
      try {
        onEvent(e);
      } catch {
        // A listener's failure must not break the review.
      }
    };
    const run: ReviewRun = { plan: sent, reviewId, emit, ...(signal ? { signal } : {}) };
    for (const { spec } of sent.agents) emit({ type: 'queued', reviewId, agent: spec.id, title: spec.title, model: spec.model, output: spec.output });
    const results = await this.runAgents(run);
    const merged: ReviewSummary = {
      reviewId,
      target: targetInfo(sent.target),
      agents: results,
      findings: mergeFindings(results.flatMap((r) => r.findings)),
      totals: totalsOf(results),
      cancelled: signal?.aborted === true || results.some((r) => r.status === 'cancelled'),
      elapsedMs: Math.max(0, this.now() - startedAt),
    };
    const summary = at.verify !== true ? merged : await this.verify(sent, merged, emit, { reviewId, ...(signal ? { signal } : {}) });
    emit({ type: 'review-done', reviewId, summary: { ...summary, elapsedMs: Math.max(0, this.now() - startedAt) } });
    return { ...summary, elapsedMs: Math.max(0, this.now() - startedAt) };
  }

  /**
   * The verification step (core/verification/verify.ts) on a merged summary of `plan`: its findings with the verifier's
   * verdicts and its result among the agents; unchanged when quorum.review.verify is off or nothing is checked.
   */
  verify(plan: Pick<ReviewPlan, 'settings' | 'language' | 'target' | 'options'>, summary: ReviewSummary, onEvent: (e: ReviewEvent) => void, at: Pick<RunOptions, 'reviewId' | 'signal'> = {}): Promise<ReviewSummary> {
    const emit = (e: ReviewEvent) => {
      try {
        onEvent(e);
      } catch {
        // A listener's failure must not break the review.
      }
    };
    const signal = at.signal ?? plan.options.signal;
    return verifySummary(this.agentDeps(plan.settings), { plan, reviewId: at.reviewId ?? summary.reviewId, emit, ...(signal ? { signal } : {}) }, summary);
  }

  /** Every agent of the plan, each once the agents it reads have settled; results in plan order. */
  private runAgents(run: ReviewRun): Promise<AgentResult[]> {
    const deps = this.agentDeps(run.plan.settings);
    const settled = new Map<string, Promise<AgentResult>>();
    const settledOf = (id: string): Promise<AgentResult> => settled.get(id) ?? Promise.reject(new Error(`agent ${id} is not planned before its readers`));
    for (const agent of run.plan.agents) {
      settled.set(agent.spec.id, Promise.all(agent.inputs.map(settledOf)).then((inputs) => runAgent(deps, run, agent, inputs)));
    }
    return Promise.all(run.plan.agents.map((a) => settledOf(a.spec.id)));
  }

  /**
   * A plan whose caller did not shape the review (core/prompt) still never sends a secret: its target's secrets
   * are redacted here, and only then, because the text changed, is the review planned again.
   */
  private async redacted(plan: ReviewPlan): Promise<ReviewPlan> {
    if (plan.options.prompt || !plan.settings.privacy.redactSecrets) return plan;
    const secrets = new SecretRedactor();
    const regions = [];
    for (const r of plan.target.regions) regions.push(await secrets.redactRegion(r));
    if (secrets.redactions.length === 0) return plan;
    const target = { ...plan.target, regions };
    return this.estimate(target, { ...plan.options, prompt: { rules: [], files: [], maxRuleTokens: 0, redacted: true, projectAgents: [] } });
  }

  /** The settings as they are now (read at the start of every review): what a review's version is made of. */
  currentSettings(): QuorumSettings {
    return this.deps.settings();
  }

  private agentDeps(settings: QuorumSettings): AgentRunDeps {
    return {
      gateway: this.deps.gateway,
      ...(this.deps.cache ? { cache: this.deps.cache } : {}),
      ...(this.deps.ledger ? { ledger: this.deps.ledger } : {}),
      now: this.now,
      cached: (key) => this.cached(key, settings),
      storesAnswers: this.cacheTtlMs(settings) > 0,
      ...(this.deps.listedPrices ? { listedModels: (signal?: AbortSignal) => this.listedModels(settings, signal) } : {}),
    };
  }

  /**
   * The model ids the gateway lists (the verifier picks among them): the list read in the last LISTED_PRICES_MS,
   * else `/models` now (waiting at most LISTED_PRICES_TIMEOUT_MS); undefined when the gateway gives none.
   */
  private async listedModels(settings: QuorumSettings, signal: AbortSignal | undefined): Promise<readonly string[] | undefined> {
    const listed = this.deps.listedPrices;
    if (!listed) return undefined;
    const baseUrl = settings.gateway.baseUrl;
    const at = listed.learnedAt(baseUrl);
    if (at !== undefined && this.now() - at < LISTED_PRICES_MS) return listed.idsFor(baseUrl);
    try {
      const timeout = AbortSignal.timeout(LISTED_PRICES_TIMEOUT_MS);
      const models = await this.deps.gateway.listModels({ signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      return listed.idsFor(baseUrl) ?? models.map((m) => m.id);
    } catch {
      listed.unlisted(baseUrl);
      return undefined;
    }
  }

  private cacheTtlMs(settings: QuorumSettings): number {
    return this.deps.cacheTtlMs ? this.deps.cacheTtlMs() : settings.cache.ttlMinutes * 60_000;
  }

  private cached(key: string, settings: QuorumSettings): CachedAnswer | undefined {
    const ttlMs = this.cacheTtlMs(settings);
    return ttlMs > 0 ? this.deps.cache?.get(key, ttlMs) : undefined;
  }
}
