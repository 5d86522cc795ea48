import { randomUUID } from 'node:crypto';
import { type ChangesPlan, withShapedTarget } from '../changes/plan';
import { whatWillBeSent } from './dryRun';
import { rulesReport, shapeReview } from '../prompt/shape';
import { planBatches, runBatches, type PlannedBatches } from './batches';
import { mergeFindings } from '../domain/merge';
import { splitByNoise, withLearnings } from './noise';
import { type NoiseSplit, type ReviewSummary } from '../domain/result';
import { learningsForWork } from '../prompt/learnings';
import type { ReviewPipeline } from './pipeline';
import type { PlannedReview, ReviewOutcome, ReviewRequest, ShapedWork } from './reviewRequest';
import { type ReviewTarget, targetInfo } from '../domain/target';
import { zeroTotals } from '../domain/totals';
import { withCodeContext } from './contextStep';
import { withToolResults } from './toolResultsStep';
import { markRepeats } from '../toolResults/repeats';
import type { ReviewEvent } from '../domain/events';
import type { ReviewOptions } from '../pipeline/options';
import type { ReviewPlan } from '../pipeline/plan';
import { reviewVersion, type CarryOver, type RegionMemory } from '../memory/regionMemory';
import { recordReview } from '../outcomes/observe';
import type { DismissedEntry } from '../memory/dismissed';

/**
 * THE review use case: every face (the command line, the editor's commands, and the faces built on them) runs
 * a review through `runReview` and only adapts its input and its output.
 *
 *   shape (rules, privacy, redaction, context, tool results) → [memory: leave out the regions reviewed before] → plan
 *   (estimate, listed prices, estimate again) → confirm (the face) → run (the pipeline, batch by batch) → the steps
 *   after the run (merge → carry over → repeats of tool results → verify → noise → remember) → one result.
 *
 * Throws only what planning throws (`ReviewConfigError`: unknown agents, invalid models, nothing to review).
 */

/** What the steps after the run work on and hand on. */
interface Draft {
  summary: ReviewSummary;
  noise: NoiseSplit;
  /** The project's dismissals the noise step read (the outcomes step reads them too). */
  dismissed?: readonly DismissedEntry[];
}

/** What a step after the run may read: the request, the target as read (before redaction), and the run. */
interface StepContext {
  request: ReviewRequest;
  original: ReviewTarget;
  pipeline: ReviewPipeline;
  /** The settings, language, target (shaped, every region) and options the review was planned with; none when nothing was planned. */
  planned?: Pick<ReviewPlan, 'settings' | 'language' | 'target' | 'options'>;
  emit: (e: ReviewEvent) => void;
  /** A review of changes with memory: the whole plan and what the memory carried over. */
  memory?: { store: RegionMemory; changes: ChangesPlan; carry: CarryOver };
}

type AfterRunStep = (draft: Draft, at: StepContext) => Promise<Draft> | Draft;

/** Findings merged across agents and batches, most severe first (the same issue told by several agents is one). */
const merge: AfterRunStep = (draft) => ({ ...draft, summary: { ...draft.summary, findings: mergeFindings(draft.summary.agents.flatMap((a) => a.findings)) } });

/** The regions reviewed before: their findings carried over (moved, marked), the regions marked reused, what was resolved. */
const carryOver: AfterRunStep = (draft, { memory }) => {
  if (!memory) return draft;
  return { ...draft, summary: memory.store.withCarried(memory.changes, memory.carry, draft.summary) };
};

/** The findings that repeat what the project's tools report are marked `reportedBy` (hidden by the noise step, not verified). */
const toolRepeats: AfterRunStep = (draft, { planned }) => {
  const results = planned?.target.toolResults;
  return results && results.length > 0 ? { ...draft, summary: markRepeats(draft.summary, results) } : draft;
};

/** The verifier agent on the merged findings (quorum.review.verify): verdicts, and its cost as its own agent. */
const verify: AfterRunStep = async (draft, { pipeline, planned, emit, request }) => {
  if (!planned) return draft;
  const signal = request.options.signal;
  return { ...draft, summary: await pipeline.verify(planned, draft.summary, emit, { reviewId: draft.summary.reviewId, ...(signal ? { signal } : {}) }) };
};

/** The memory learns the regions of this review (not of one that was cancelled or had a reviewer fail). */
const remember: AfterRunStep = (draft, { memory }) => {
  if (memory) memory.store.remember(memory.changes, memory.carry, draft.summary);
  return draft;
};

/** The noise controls: below the minimum confidence or severity, or dismissed in the project (matched on the code as read). */
const filterNoise: AfterRunStep = async (draft, { request, original }) => {
  const noise = request.noise;
  if (!noise) return { ...draft, noise: { shown: [...draft.summary.findings], hidden: [] } };
  const entries = noise.dismissed ? await noise.dismissed() : [];
  const learnings = learningsFor(request);
  const split = splitByNoise(draft.summary.findings, { minConfidence: noise.minConfidence, minSeverity: noise.minSeverity, dismissed: { entries, regions: original.regions }, ...(learnings.length > 0 ? { learnings } : {}) });
  return { ...draft, noise: split, dismissed: entries };
};

/** What became of each finding shown before, and the new ones, kept in the outcome store (core/outcomes). */
const outcomes: AfterRunStep = async (draft, { request, original }) => {
  if (!request.outcomes || request.dryRun) return draft;
  await recordReview(request.outcomes, { target: original, summary: draft.summary, noise: draft.noise, dismissed: draft.dismissed ?? [], ...(request.work.relativeFile !== undefined ? { relativeFile: request.work.relativeFile } : {}) });
  return draft;
};

const learningsFor = (request: ReviewRequest) => learningsForWork(request.context.repository.learnings, request.work);

/** The learnings' marks: a finding a learning hides or caps says which (and a capped one gets its severity). */
const learn: AfterRunStep = (draft, { request }) => {
  const learnings = learningsFor(request);
  return learnings.length === 0 ? draft : { ...draft, summary: { ...draft.summary, findings: withLearnings(draft.summary.findings, learnings) } };
};

/** The steps after the run, in order. A step (verification, carry-over from earlier reviews) is one entry here. */
const AFTER_RUN: readonly AfterRunStep[] = [merge, carryOver, toolRepeats, verify, learn, filterNoise, remember, outcomes];

async function afterRun(summary: ReviewSummary, at: StepContext): Promise<Draft> {
  let draft: Draft = { summary, noise: { shown: [], hidden: [] } };
  for (const step of AFTER_RUN) draft = await step(draft, at);
  return draft;
}

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
    const empty: ReviewSummary = { reviewId: 'none', target: targetInfo(work.shaped.target), agents: [], findings: [], totals: zeroTotals(), cancelled: false, elapsedMs: 0 };
    const draft = await afterRun(empty, at);
    return { status: 'nothing', work, ...draft };
  }
  if ((await request.confirm.shaped?.(work)) === 'cancel') return { status: 'declined', work };
  const { review: planned, batches } = await plan(pipeline, request, work, options);
  if ((await request.confirm.planned(planned)) === 'cancel' || request.dryRun) return { status: 'declined', work, plan: planned };
  // The run's own `review-done` waits for the steps after the run: the face is told the summary they make.
  const run = await runBatches(pipeline, batches, (e) => (e.type === 'review-done' ? undefined : emit(e)));
  const first = batches.batches[0];
  const draft = await afterRun(run, { ...at, ...(first ? { planned: { ...first, target: shaped.shaped.target } } : {}) });
  memory?.store.save();
  emit({ type: 'review-done', reviewId: draft.summary.reviewId, summary: draft.summary });
  return { status: 'reviewed', ...draft, plan: planned };
}
