import * as vscode from 'vscode';
import type { ReviewPipeline } from '../../core/review/pipeline';
import { soleRegion } from '../../core/review/target';
import type { ReviewEvent, ReviewOptions, ReviewSummary } from '../../core/review/types';
import { escapeLinkedText } from '../../shared/untrustedText';
import type { ReviewSession } from './reviewSession';

/** Runs a session's review under a cancellable progress notification that counts the agents done. */
export function runWithProgress(pipeline: ReviewPipeline, session: ReviewSession, base: ReviewOptions, order: readonly string[], onEvent: (event: ReviewEvent) => void): Thenable<ReviewSummary> {
  const t = session.fullTarget;
  const only = t.kind !== 'changes' ? soleRegion(t) : undefined;
  const title = escapeLinkedText(only ? vscode.l10n.t('Quorum: reviewing {0} lines {1}–{2}', only.file, only.startLine, only.endLine) : vscode.l10n.t('Quorum: reviewing {0}', t.label));
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const sub = token.onCancellationRequested(() => session.cancel());
    let settled = 0;
    try {
      return await pipeline.run(t, { ...base, signal: session.abort.signal }, (event) => {
        onEvent(event);
        if (event.type !== 'done' && event.type !== 'failed' && event.type !== 'cancelled') return;
        settled++;
        progress.report({ increment: order.length > 0 ? 100 / order.length : 100, message: vscode.l10n.t('{0} of {1} agents done', settled, order.length) });
      });
    } finally {
      sub.dispose();
    }
  });
}
