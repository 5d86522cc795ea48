import type { PlannedReview, ReviewOutcome } from '../../core/review/reviewRequest';
import { runReview } from '../../core/review/runReview';
import { editorRequest } from './editorRequest';
import type { ReviewCore, ReviewDialogs, ReviewInputs } from './reviewParts';
import type { PreparedTarget } from './reviewTarget';

/**
 * What a review of `prepared` would send and cost, planned by the same use case as `start` (core's runReview) and
 * declined before anything is sent: the agent-mode tool's confirmation. Undefined when there is nothing to plan
 * (a file never sent, no changes, a configuration error); the user was told why.
 */
export async function estimateReview(deps: { core: Pick<ReviewCore, 'pipeline'>; reads: Pick<ReviewInputs, 'settings' | 'shaper'>; asks: Pick<ReviewDialogs, 'notices'> }, prepared: PreparedTarget): Promise<PlannedReview | undefined> {
  const { notices } = deps.asks;
  const request = await editorRequest(prepared, deps.reads.settings.current, deps.reads.shaper, false);
  let planned: PlannedReview | undefined;
  let outcome: ReviewOutcome;
  try {
    outcome = await runReview(deps.core.pipeline, {
      ...request.sent,
      options: { language: request.language, noCache: false },
      confirm: {
        shaped: () => 'proceed',
        planned: (plan) => {
          planned = plan;
          return 'cancel';
        },
      },
    });
  } catch (error) {
    await notices.cannotStart(error);
    return undefined;
  }
  if (outcome.status === 'excluded') notices.excluded(outcome);
  else if (outcome.status === 'nothing') notices.nothingToReview(outcome.work.shaped.target.skipped?.length ?? 0);
  else return planned;
  return undefined;
}
