import type { PlannedReview, ReviewConfirm } from '../../core/review/reviewRequest';

/**
 * The editor's part of the review use case, in order: the key once the target is shaped (a file never sent is
 * refused before it), then, planned and priced, no model able to take the prompt, the face's own question (the
 * file count of a review of changes), the budgets, and the session opened. Plain TypeScript: the steps are the
 * controller's (notifications, modal questions, the panel), so that this order is unit-tested without VS Code.
 */
export interface EditorConfirmSteps {
  /** Asks for a missing key; false: there is none. */
  ensureKey(): Promise<boolean>;
  /** Says that the prompt fits no model's context window. */
  tooLargeForEveryModel(): Promise<void>;
  /** The prepared target's own question (a review of many changed files); false stops it. */
  confirmPlan?: ((plan: PlannedReview) => Promise<boolean>) | undefined;
  /** The session and monthly budgets against the ceiling of the estimate; false stops it. */
  budgetAllows(costUsd: number, likelyUsd: number): Promise<boolean>;
  /** The review goes ahead: its session, panel and progress open. */
  proceeding(plan: PlannedReview): Promise<void>;
}

export function editorConfirm(steps: EditorConfirmSteps): ReviewConfirm {
  return {
    shaped: async () => ((await steps.ensureKey()) ? 'proceed' : 'cancel'),
    planned: async (plan) => {
      const { estimate } = plan;
      if (estimate.order.length > 0 && estimate.order.every((a) => estimate.perAgent[a]?.tooLarge)) {
        await steps.tooLargeForEveryModel();
        return 'cancel';
      }
      if (steps.confirmPlan && !(await steps.confirmPlan(plan))) return 'cancel';
      if (!(await steps.budgetAllows(estimate.costUsd, estimate.likelyUsd))) return 'cancel';
      await steps.proceeding(plan);
      return 'proceed';
    },
  };
}
