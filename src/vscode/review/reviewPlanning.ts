import { estimateChanges, runChanges } from '../../core/changes/review';
import type { ChangesPlan } from '../../core/changes/plan';
import type { ReviewPipeline } from '../../core/review/pipeline';
import type { ReviewOptions, ReviewTarget } from '../../core/review/types';
import type { ReviewRun } from './reviewProgress';
import type { ChangesEstimate } from './reviewTarget';

/** A review planned once: what it will cost, and how to run exactly that plan. */
export interface PlannedReview {
  estimate: ChangesEstimate;
  run: ReviewRun;
}

/**
 * Plans a review: a review of changes batch by batch (one request per agent each), any other review as one
 * plan. A model without a price in `quorum.prices` or the table may have one in the gateway's `/models` list:
 * when the gateway lists one, the plan is priced again with it. Throws what the pipeline throws.
 */
export async function planReview(pipeline: ReviewPipeline, target: ReviewTarget, changes: ChangesPlan | undefined, base: ReviewOptions): Promise<PlannedReview> {
  if (changes) {
    let planned = estimateChanges(pipeline, changes, base);
    const first = planned.batches[0];
    if (first && (await pipeline.learnPrices(first))) planned = estimateChanges(pipeline, changes, base);
    const chosen = planned;
    return { estimate: chosen.estimate, run: (on, at) => runChanges(pipeline, chosen, on, at) };
  }
  let planned = pipeline.estimate(target, base);
  if (await pipeline.learnPrices(planned)) planned = pipeline.estimate(target, base);
  const chosen = planned;
  return { estimate: { ...chosen.estimate, requests: chosen.estimate.order.length }, run: (on, at) => pipeline.run(chosen, on, at) };
}
