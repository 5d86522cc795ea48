import type { Finding } from '../../core/domain/finding';
import type { ReviewSummary } from '../../core/domain/result';
import { atLeast, type Severity } from '../../shared/severity';
import type { ReviewController } from './reviewController';
import type { PreparedTarget } from './reviewTarget';
import type { ReviewSession } from './reviewSession';

/** A review the chat or the agent-mode tool ran through the review controller, with the findings it shows. */
export interface ScopedReview {
  summary: ReviewSummary;
  session: ReviewSession | undefined;
  /** The merged findings the noise controls keep (and at least `minSeverity`), most severe first. */
  shown: Finding[];
  /** Merged findings left out (noise controls, `minSeverity`). */
  hidden: number;
}

/**
 * Runs a review of `prepared` exactly as the editor's commands do (the controller's key, estimate, budget, panel,
 * Problems and threads); `signal` cancels it (handed to the controller with the start, not matched by target). Undefined when it did not run (the user was told why).
 */
export async function runScopedReview(controller: ReviewController, prepared: PreparedTarget, minSeverity: Severity | undefined, signal?: AbortSignal): Promise<ScopedReview | undefined> {
  const summary = await controller.start(prepared, { noCache: false, ...(signal ? { signal } : {}) });
  if (!summary) return undefined;
  const session = controller.session(summary.reviewId);
  const shown = summary.findings.filter((f) => !session?.hidden.has(f.id) && (!minSeverity || atLeast(f.severity, minSeverity)));
  return { summary, session, shown, hidden: summary.findings.length - shown.length };
}
