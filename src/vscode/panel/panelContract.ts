import type * as vscode from 'vscode';
import type { CostEstimate } from '../../core/domain/estimate';
import type { ReviewEvent } from '../../core/domain/events';
import type { TargetInfo } from '../../core/domain/target';
import type { ChangeCounts } from '../../core/report/viewEvents';
import type { ContextView, PrivacyView, ToolsView } from '../../shared/protocol';
import type { HiddenReason } from '../../shared/reviewCodes';

/**
 * What the review panel sees of one running or finished review. The review controller owns sessions;
 * the panel only reads them; its page's buttons run the extension's commands (panelCommands.ts).
 */
export interface ReviewSessionHandle {
  readonly id: string;
  /** Identifies the reviewed target (document URI + line range): one panel per target, reused on re-run. */
  readonly targetKey: string;
  /** The reviewed document (the first file's, for a review of several files). */
  readonly uri: vscode.Uri;
  readonly target: TargetInfo;
  /** Lines added and removed, for a review of changes. */
  readonly counts?: ChangeCounts;
  /** The estimate made before anything was sent. */
  readonly estimate: CostEstimate | undefined;
  readonly startedAt: number;
  /** Every event so far, in order (for snapshots). */
  events(): readonly ReviewEvent[];
  readonly onEvent: vscode.Event<ReviewEvent>;
  readonly isDone: boolean;
  /** Repository rules used and left out, secrets redacted: shown in the panel's header. */
  readonly privacy?: PrivacyView;
  /** The code sent read-only with the reviewed code (definitions, callers, enclosing signatures): shown in the panel's header. */
  readonly context?: ContextView;
  /** The project's tool results sent with the review ("tools: 3 results from eslint, ts"): shown in the panel's header. */
  readonly tools?: ToolsView;
  /** Findings the noise controls hide (minimum confidence and severity, dismissed in the project), with why. */
  readonly hidden?: ReadonlyMap<string, HiddenReason>;
  /** "Dismiss in this project" is offered. */
  readonly projectDismiss?: boolean;
}

/** The review panels, as the controller sees them. */
export interface ReviewPanelsLike {
  show(session: ReviewSessionHandle): void;
  /** Fires with a target key when the user closes that target's panel. */
  readonly onDidClose: vscode.Event<string>;
  /** Shows in the review's panel that these findings' fixes were applied, or that they were dismissed. */
  resolved(sessionId: string, findingIds: readonly string[], how: 'applied' | 'dismissed'): void;
}
