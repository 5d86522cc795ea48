import type { ChangesPlan } from '../changes/plan';
import { mergeFindings } from '../domain/merge';
import type { NoiseSplit, ReviewSummary } from '../domain/result';
import type { ReviewEvent } from '../domain/events';
import type { ReviewTarget } from '../domain/target';
import type { CarryOver, RegionMemory } from '../memory/regionMemory';
import type { DismissedEntry } from '../memory/dismissed';
import { recordReview } from '../outcomes/observe';
import type { AgentsRun, ReviewPipeline } from '../pipeline/pipeline';
import type { ReviewPlan } from '../pipeline/plan';
import { learningsForWork } from '../prompt/learnings';
import { markRepeats } from '../toolResults/repeats';
import { verifySummary } from '../verification/verify';
import { splitByNoise, withLearnings } from './noise';
import type { ReviewRequest } from './reviewRequest';

/**
 * The steps of a review after the pipeline has run its agents, each once and in this order: merge → carry over →
 * repeats of tool results → verify → learnings → noise → remember → outcomes. `runReview` runs them on every
 * review (on the empty one too, when shaping left nothing to send); nothing else does.
 */

/** What the steps after the run work on and hand on. */
interface Draft {
  summary: ReviewSummary;
  noise: NoiseSplit;
  /** The project's dismissals the noise step read (the outcomes step reads them too). */
  dismissed?: readonly DismissedEntry[];
}

/** What a step after the run may read: the request, the target as read (before redaction), and the run. */
export interface StepContext {
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

/** The first step: the agents' findings merged across agents and batches, most severe first (the same issue told by several agents is one). */
function merge(run: AgentsRun): ReviewSummary {
  return { ...run, findings: mergeFindings(run.agents.flatMap((a) => a.findings)) };
}

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

/** The verifier agent on the merged findings (quorum.review.verify): verdicts, and its cost as its own agent (core/verification). */
const verify: AfterRunStep = async (draft, { pipeline, planned, emit, request }) => {
  if (!planned) return draft;
  const signal = request.options.signal;
  const run = { plan: planned, reviewId: draft.summary.reviewId, emit, ...(signal ? { signal } : {}) };
  return { ...draft, summary: await verifySummary(pipeline.agentDeps(planned.settings), run, draft.summary) };
};

const learningsFor = (request: ReviewRequest) => learningsForWork(request.context.repository.learnings, request.work);

/** The learnings' marks: a finding a learning hides or caps says which (and a capped one gets its severity). */
const learn: AfterRunStep = (draft, { request }) => {
  const learnings = learningsFor(request);
  return learnings.length === 0 ? draft : { ...draft, summary: { ...draft.summary, findings: withLearnings(draft.summary.findings, learnings) } };
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

/** The memory learns the regions of this review (not of one that was cancelled or had a reviewer fail). */
const remember: AfterRunStep = (draft, { memory }) => {
  if (memory) memory.store.remember(memory.changes, memory.carry, draft.summary);
  return draft;
};

/** What became of each finding shown before, and the new ones, kept in the outcome store (core/outcomes). */
const outcomes: AfterRunStep = async (draft, { request, original }) => {
  if (!request.outcomes || request.dryRun) return draft;
  await recordReview(request.outcomes, { target: original, summary: draft.summary, noise: draft.noise, dismissed: draft.dismissed ?? [], ...(request.work.relativeFile !== undefined ? { relativeFile: request.work.relativeFile } : {}) });
  return draft;
};

/** The steps after the merge, in order. A step (verification, carry-over from earlier reviews) is one entry here. */
const AFTER_MERGE: readonly AfterRunStep[] = [carryOver, toolRepeats, verify, learn, filterNoise, remember, outcomes];

/** The review's summary and noise split, made of the pipeline's run by the steps after it. */
export async function afterRun(run: AgentsRun, at: StepContext): Promise<Draft> {
  let draft: Draft = { summary: merge(run), noise: { shown: [], hidden: [] } };
  for (const step of AFTER_MERGE) draft = await step(draft, at);
  return draft;
}
