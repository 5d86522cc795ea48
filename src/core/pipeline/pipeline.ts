import { randomUUID } from 'node:crypto';
import type { CostLedger } from '../cost/ledger';
import type { ListedPrices } from '../cost/listedPrices';
import { priceFor } from '../cost/prices';
import type { Gateway, ModelInfo } from '../gateway/types';
import type { QuorumSettings } from '../settings/schema';
import { runAgent, type AgentRunDeps, type ReviewRun } from './agentRun';
import type { AnswerStore, CachedAnswer } from './cache';
import { planReview, type ReviewPlan } from './plan';
import { type ReviewTarget, type TargetInfo, targetInfo } from '../domain/target';
import { totalsOf } from '../domain/totals';
import type { AgentResult, ReviewTotals } from '../domain/result';
import type { ReviewEvent } from '../domain/events';
import type { ReviewOptions } from './options';

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

/** What may differ between the plan and the run: the run's own id and its cancellation. */
export type RunOptions = Pick<ReviewOptions, 'reviewId' | 'signal'>;

/**
 * What running a review's agents gives: each agent's result, in plan order, with the findings as that agent
 * reported them (not merged), and what the run spent. The steps after the run (core/review: merge, carry over,
 * verify, noise, remember) make the review's summary of it.
 */
export interface AgentsRun {
  reviewId: string;
  target: TargetInfo;
  agents: AgentResult[];
  totals: ReviewTotals;
  /** The run's signal was aborted, or an agent was cancelled. */
  cancelled: boolean;
  elapsedMs: number;
}

/**
 * Runs a review's agents: a DAG over the shared gateway, and nothing after (the use case, core/review/runReview,
 * shapes what is sent and does every step after the run). `estimate` plans the review once (messages, token
 * counts, cache keys, cost); `run` sends that plan. Independent agents start together (the gateway limits
 * concurrency); a dependent agent starts once all its inputs have settled, and runs with whatever succeeded.
 * Agent failures become `failed` events and results; `estimate` and `run` throw only a `ReviewConfigError`.
 */
export class ReviewPipeline {
  private readonly now: () => number;
  /** The reads of `/models` under way, by gateway. */
  private readonly reading = new Map<string, Promise<readonly ModelInfo[] | undefined>>();

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
    return (await this.readList(baseUrl, plan.options.signal)) !== undefined;
  }

  /**
   * Sends `plan` as it was shaped and planned; `at` gives the run its id and signal when they were not known as it
   * was planned. Tells each agent's events (queued, started, delta, retrying, finding, its end), not the review's end.
   */
  async run(plan: ReviewPlan, onEvent: (e: ReviewEvent) => void, at: RunOptions = {}): Promise<AgentsRun> {
    const reviewId = at.reviewId ?? plan.options.reviewId ?? randomUUID();
    const signal = at.signal ?? plan.options.signal;
    const startedAt = this.now();
    const emit = (e: ReviewEvent) => {
      try {
        onEvent(e);
      } catch {
        // A listener's failure must not break the review.
      }
    };
    const run: ReviewRun = { plan, reviewId, emit, ...(signal ? { signal } : {}) };
    for (const { spec } of plan.agents) emit({ type: 'queued', reviewId, agent: spec.id, title: spec.title, model: spec.model, output: spec.output });
    const agents = await this.runAgents(run);
    return {
      reviewId,
      target: targetInfo(plan.target),
      agents,
      totals: totalsOf(agents),
      cancelled: signal?.aborted === true || agents.some((r) => r.status === 'cancelled'),
      elapsedMs: Math.max(0, this.now() - startedAt),
    };
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

  /** The settings as they are now (read at the start of every review): what a review's version is made of. */
  currentSettings(): QuorumSettings {
    return this.deps.settings();
  }

  /**
   * What running an agent needs under `settings`: the gateway, the answer cache, the ledger and the gateway's
   * models. The verification step (core/verification) runs the verifier with it.
   */
  agentDeps(settings: QuorumSettings): AgentRunDeps {
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
    const models = await this.readList(baseUrl, signal);
    return models ? (listed.idsFor(baseUrl) ?? models.map((m) => m.id)) : undefined;
  }

  /**
   * Reads the gateway's `/models` (waiting at most LISTED_PRICES_TIMEOUT_MS), once at a time: reviews that start
   * together share the read. Undefined when the gateway gives no list (then it is not asked again for a while).
   */
  private readList(baseUrl: string, signal: AbortSignal | undefined): Promise<readonly ModelInfo[] | undefined> {
    const reading = this.reading.get(baseUrl);
    if (reading) return reading;
    const timeout = AbortSignal.timeout(LISTED_PRICES_TIMEOUT_MS);
    const read = this.deps.gateway
      .listModels({ signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
      .catch(() => {
        this.deps.listedPrices?.unlisted(baseUrl);
        return undefined;
      })
      .finally(() => this.reading.delete(baseUrl));
    this.reading.set(baseUrl, read);
    return read;
  }

  private cacheTtlMs(settings: QuorumSettings): number {
    return this.deps.cacheTtlMs ? this.deps.cacheTtlMs() : settings.cache.ttlMinutes * 60_000;
  }

  private cached(key: string, settings: QuorumSettings): CachedAnswer | undefined {
    const ttlMs = this.cacheTtlMs(settings);
    return ttlMs > 0 ? this.deps.cache?.get(key, ttlMs) : undefined;
  }
}
