import { randomUUID } from 'node:crypto';
import { type ChangesPlan, withShapedTarget } from '../changes/plan';
import { whatWillBeSent } from './dryRun';
import { rulesReport, shapeReview } from '../prompt/shape';
import { planBatches, runBatches, type PlannedBatches } from '../pipeline/batches';
import type { AgentsRun, ReviewPipeline } from '../pipeline/pipeline';
import type { PlannedReview, ReviewOutcome, ReviewRequest, ShapedWork } from './reviewRequest';
import { type ReviewTarget, targetInfo } from '../domain/target';
import { zeroTotals } from '../domain/totals';
import { withCodeContext } from './contextStep';
import { withToolResults } from './toolResultsStep';
import { afterRun, type StepContext } from './afterRun';
import type { ReviewEvent } from '../domain/events';
import type { ReviewOptions } from '../pipeline/options';
import { reviewVersion, type RegionMemory } from '../memory/regionMemory';

/**
 * THE review use case: every face (the command line, the editor's commands, MCP, eval, the benchmarks, and the
 * faces built on them) runs a review through `runReview` and only adapts its input and its output. Each step runs
 * once, here:
 *
 *   shape (rules, privacy, redaction, context, tool results) → [memory: leave out the regions reviewed before] → plan
 *   (estimate, listed prices, estimate again) → confirm (the face) → run (the pipeline: the agents, batch by batch,
 *   and nothing after) → the steps after the run (afterRun.ts: merge → carry over → repeats of tool results → verify
 *   → learnings → noise → remember → outcomes) → one result, and one `review-done` event that carries it.
 *
 * Throws only what planning throws (`ReviewConfigError`: unknown agents, invalid models, nothing to review).
 */

/** The shaped target's batches: a review of changes keeps its cut; a selection or file is its own one batch. */
function shapedWork(request: ReviewRequest, shaped: ShapedWork['shaped']): ShapedWork {
  const changes = request.work.changes ? withShapedTarget(request.work.changes, shaped.target) : undefined;
  return {
    shaped,
    ...(changes ? { changes } : {}),
    batches: changes ? changes.batches : [shaped.target],
    ...(request.context.rulesOff ? { rulesOff: request.context.rulesOff } : {}),
  };
}

/** Plans every batch once; when a model had no price and the gateway lists one, plans again with it. */
async function plan(pipeline: ReviewPipeline, request: ReviewRequest, work: ShapedWork, options: ReviewOptions): Promise<{ review: PlannedReview; batches: PlannedBatches }> {
  const target = work.shaped.target;
  let planned: PlannedBatches = planBatches(pipeline, target, work.batches, options);
  const first = planned.batches[0];
  if (!request.dryRun && first && (await pipeline.learnPrices(first))) planned = planBatches(pipeline, target, work.batches, options);
  const chosen = planned;
  const review: PlannedReview = {
    ...work,
    estimate: chosen.estimate,
    rules: rulesReport(work.shaped.prompt, chosen.estimate.order),
    whatWillBeSent: () => whatWillBeSent(work.shaped, chosen, { batched: work.changes !== undefined, rulesOff: work.rulesOff }),
  };
  return { review, batches: chosen };
}

/** What the memory carries over of a review of changes, keyed by the review's version (agents, models, prompts, language, verification). */
function remembered(store: RegionMemory, changes: ChangesPlan, pipeline: ReviewPipeline, options: ReviewOptions): NonNullable<StepContext['memory']> {
  const version = reviewVersion(pipeline.currentSettings(), options);
  return { store, changes, carry: store.carryOver(changes, version) };
}

export async function runReview(pipeline: ReviewPipeline, request: ReviewRequest): Promise<ReviewOutcome> {
  const original = request.work.target;
  const outcome = await shapeReview(original, request.work.relativeFile, request.context);
  if (!outcome.ok) return { status: 'excluded', file: outcome.file, rule: outcome.rule };
  // Context is the last shaping step; the rest of the repository is indexed while the review runs.
  const stopIndexing = new AbortController();
  const contexted = await withCodeContext(shapedWork(request, outcome.shaped), request, stopIndexing.signal);
  try {
    return await planAndRun(pipeline, request, await withToolResults(contexted.work, request), original);
  } finally {
    stopIndexing.abort();
    await contexted.indexing;
  }
}

async function planAndRun(pipeline: ReviewPipeline, request: ReviewRequest, shaped: ShapedWork, original: ReviewTarget): Promise<ReviewOutcome> {
  const options: ReviewOptions = { ...request.options, reviewId: request.options.reviewId ?? randomUUID(), prompt: shaped.shaped.prompt };
  const emit = (e: ReviewEvent) => {
    try {
      request.onEvent?.(e);
    } catch {
      // A listener's failure must not break the review.
    }
  };
  // A re-review of changes sends only the regions whose content the memory has not seen.
  const memory = request.memory && shaped.changes && shaped.batches.length > 0 && !request.dryRun ? remembered(request.memory, shaped.changes, pipeline, options) : undefined;
  const work: ShapedWork = memory ? { ...shaped, changes: memory.carry.plan, batches: memory.carry.plan.batches, reused: memory.carry.reused.length } : shaped;
  const at: StepContext = { request, original, pipeline, emit, ...(memory ? { memory } : {}) };
  if (shaped.batches.length === 0) {
    const empty: AgentsRun = { reviewId: 'none', target: targetInfo(work.shaped.target), agents: [], totals: zeroTotals(), cancelled: false, elapsedMs: 0 };
    const draft = await afterRun(empty, at);
    return { status: 'nothing', work, ...draft };
  }
  if ((await request.confirm.shaped?.(work)) === 'cancel') return { status: 'declined', work };
  const { review: planned, batches } = await plan(pipeline, request, work, options);
  if ((await request.confirm.planned(planned)) === 'cancel' || request.dryRun) return { status: 'declined', work, plan: planned };
  const run = await runBatches(pipeline, batches, emit);
  const first = batches.batches[0];
  const draft = await afterRun(run, { ...at, ...(first ? { planned: { ...first, target: shaped.shaped.target } } : {}) });
  memory?.store.save();
  // The face is told the review's end once, with the summary and the noise split the steps after the run made.
  emit({ type: 'review-done', reviewId: draft.summary.reviewId, summary: draft.summary, noise: draft.noise });
  return { status: 'reviewed', ...draft, plan: planned };
}
