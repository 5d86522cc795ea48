import * as vscode from 'vscode';
import type { RunOptions } from '../../core/review/pipeline';
import { soleRegion } from '../../core/review/target';
import type { ReviewEvent, ReviewSummary, ReviewTarget } from '../../core/review/types';
import { escapeLinkedText } from '../../shared/untrustedText';
import { REVIEW_RUNNING_CONTEXT } from '../commands';
import type { CostController } from '../cost/costController';
import type { ReviewSession } from './reviewSession';

/** How a review runs once planned: the pipeline on its plan, or (a review of changes) every batch of the plan. */
export type ReviewRun = (onEvent: (event: ReviewEvent) => void, at: RunOptions) => Promise<ReviewSummary>;

/**
 * Runs a session's planned review of `t` (its target as sent) under a cancellable progress notification that
 * counts the agents done (`agents`; a review of changes tells each agent's end once, over all its batches, as the
 * panel shows it); `before` is the first message (what a review of changes sends).
 */
export function runWithProgress(run: ReviewRun, session: ReviewSession, t: ReviewTarget, agents: number, onEvent: (event: ReviewEvent) => void, before?: string): Thenable<ReviewSummary> {
  const only = t.kind !== 'changes' ? soleRegion(t) : undefined;
  const title = escapeLinkedText(only ? vscode.l10n.t('Quorum: reviewing {0} lines {1}–{2}', only.file, only.startLine, only.endLine) : vscode.l10n.t('Quorum: reviewing {0}', t.label));
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const sub = token.onCancellationRequested(() => session.cancel());
    if (before) progress.report({ message: escapeLinkedText(before) });
    let settled = 0;
    try {
      return await run((event) => {
        onEvent(event);
        if (event.type !== 'done' && event.type !== 'failed' && event.type !== 'cancelled') return;
        settled++;
        progress.report({ increment: agents > 0 ? 100 / agents : 100, message: vscode.l10n.t('{0} of {1} agents done', settled, agents) });
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
