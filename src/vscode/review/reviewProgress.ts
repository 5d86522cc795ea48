import * as vscode from 'vscode';
import { type ReviewTarget, soleRegion } from '../../core/domain/target';
import type { ReviewEvent } from '../../core/domain/events';
import { REVIEW_RUNNING_CONTEXT } from '../commands';
import type { CostController } from '../cost/costController';
import type { Prompter } from '../prompter';
import type { ReviewSession } from './reviewSession';

/** A review's progress notification: told each event of the run, ended once the run is over. */
export interface ReviewProgress {
  onEvent(event: ReviewEvent): void;
  end(): void;
}

/**
 * Shows a session's review of `t` (its target as sent) in a cancellable progress notification (the prompter's:
 * its title and messages are made safe to show there) that counts the agents done (`agents`; a review of changes
 * tells each agent's end once, over all its batches, as the panel shows it) until `end`; `before` is the first
 * message (what a review of changes sends). Cancelling it cancels the session.
 */
export function showProgress(prompter: Pick<Prompter, 'progress'>, session: ReviewSession, t: ReviewTarget, agents: number, before?: string): ReviewProgress {
  const only = t.kind !== 'changes' ? soleRegion(t) : undefined;
  const title = only ? vscode.l10n.t('Quorum: reviewing {0} lines {1}–{2}', only.file, only.startLine, only.endLine) : vscode.l10n.t('Quorum: reviewing {0}', t.label);
  // What is reported before the notification's task has started waits for it.
  const early: { message?: string; increment?: number }[] = before ? [{ message: before }] : [];
  let report = (value: { message?: string; increment?: number }): void => {
    early.push(value);
  };
  let end = () => {};
  const ended = new Promise<void>((resolve) => (end = resolve));
  let settled = 0;
  void prompter.progress({ id: 'review.progress', title }, async (progress, token) => {
    const sub = token.onCancellationRequested(() => session.cancel());
    report = (value) => progress.report(value);
    for (const value of early.splice(0)) progress.report(value);
    try {
      await ended;
    } finally {
      sub.dispose();
    }
  });
  return {
    onEvent: (event) => {
      if (event.type !== 'done' && event.type !== 'failed' && event.type !== 'cancelled') return;
      settled++;
      report({ increment: agents > 0 ? 100 / agents : 100, message: vscode.l10n.t('{0} of {1} agents done', settled, agents) });
    },
    end: () => end(),
  };
}

/** Counts the running reviews: the context key that enables "Quorum: Cancel Review", and the cost display's busy state. */
export class RunningReviews {
  private count = 0;

  constructor(private readonly cost: Pick<CostController, 'reviewStarted' | 'reviewEnded'>) {
    void vscode.commands.executeCommand('setContext', REVIEW_RUNNING_CONTEXT, false);
  }

  change(delta: 1 | -1): void {
    this.count = Math.max(0, this.count + delta);
    if (delta > 0) this.cost.reviewStarted();
    else this.cost.reviewEnded();
    void vscode.commands.executeCommand('setContext', REVIEW_RUNNING_CONTEXT, this.count > 0);
  }
}
