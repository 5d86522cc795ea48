import * as vscode from 'vscode';
import type { ReviewPipeline } from '../../core/review/pipeline';
import { soleRegion } from '../../core/review/target';
import type { ReviewPlan } from '../../core/review/plan';
import type { ReviewEvent, ReviewSummary } from '../../core/review/types';
import { escapeLinkedText } from '../../shared/untrustedText';
import { REVIEW_RUNNING_CONTEXT } from '../commands';
import type { CostController } from '../cost/costController';
import type { ReviewSession } from './reviewSession';

/** Runs a session's planned review (its target as sent) under a cancellable progress notification that counts the agents done. */
export function runWithProgress(pipeline: ReviewPipeline, session: ReviewSession, plan: ReviewPlan, onEvent: (event: ReviewEvent) => void): Thenable<ReviewSummary> {
  const t = plan.target;
  const order = plan.estimate.order;
  const only = t.kind !== 'changes' ? soleRegion(t) : undefined;
  const title = escapeLinkedText(only ? vscode.l10n.t('Quorum: reviewing {0} lines {1}–{2}', only.file, only.startLine, only.endLine) : vscode.l10n.t('Quorum: reviewing {0}', t.label));
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const sub = token.onCancellationRequested(() => session.cancel());
    let settled = 0;
    try {
      return await pipeline.run(plan, (event) => {
        onEvent(event);
        if (event.type !== 'done' && event.type !== 'failed' && event.type !== 'cancelled') return;
        settled++;
        progress.report({ increment: order.length > 0 ? 100 / order.length : 100, message: vscode.l10n.t('{0} of {1} agents done', settled, order.length) });
      }, { signal: session.abort.signal });
    } finally {
      sub.dispose();
    }
  });
}

/** Counts the running reviews: the context key that enables "Quorum: Cancel Review", and the cost display's busy state. */
export class RunningReviews {
  private count = 0;

  constructor(private readonly cost: CostController) {
    void vscode.commands.executeCommand('setContext', REVIEW_RUNNING_CONTEXT, false);
  }

  change(delta: 1 | -1): void {
    this.count = Math.max(0, this.count + delta);
    if (delta > 0) this.cost.reviewStarted();
    else this.cost.reviewEnded();
    void vscode.commands.executeCommand('setContext', REVIEW_RUNNING_CONTEXT, this.count > 0);
  }
}
