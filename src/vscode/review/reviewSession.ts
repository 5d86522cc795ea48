import * as vscode from 'vscode';
import type { ShapedReview } from '../../core/prompt/shape';
import { type ReviewTarget, targetInfo, type TargetInfo } from '../../core/domain/target';
import { zeroTotals } from '../../core/domain/totals';
import type { CostEstimate } from '../../core/domain/estimate';
import type { ReviewEvent } from '../../core/domain/events';
import type { ReviewSummary } from '../../core/domain/result';
import type { ChangeCounts } from '../../core/report/viewEvents';
import type { ContextView, PrivacyView, ToolsView } from '../../shared/protocol';
import type { SecretVault } from '../../core/redaction/redactor';
import type { NoiseFilter } from '../../core/review/noise';
import type { HiddenReason } from '../../shared/reviewCodes';
import { judgeNoise, originalLinesOf, regionIndexOf } from './sessionFindings';
import type { ReviewSessionHandle } from '../panel/panelContract';
import type { TargetRef } from './reviewTarget';

/** What a session is made of: the review's id, target and estimate, and the controls it runs under. */
interface ReviewSessionInit {
  id: string;
  /** What is reviewed, typed (its `key()` names the panel). */
  ref: TargetRef;
  uri: vscode.Uri;
  /** The full target, text included: the lines as they read when the review started. */
  fullTarget: ReviewTarget;
  estimate: CostEstimate | undefined;
  noCache: boolean;
  /** The document of each reviewed file (by the regions' `file`); `uri` for files not listed. */
  uris?: ReadonlyMap<string, vscode.Uri> | undefined;
  counts?: ChangeCounts | undefined;
  /** The noise controls this review runs under; none: every finding is shown. */
  noise?: NoiseFilter | undefined;
  /** "Dismiss in this project" is offered for this review's findings (a trusted local workspace folder). */
  projectDismiss?: boolean;
  /** Cancels the review (the signal its run was given); a new one when absent. */
  abort?: AbortController;
}

/** One review: its target, its events so far, and the means to cancel it. */
export class ReviewSession implements ReviewSessionHandle, vscode.Disposable {
  readonly startedAt = Date.now();
  private readonly log: ReviewEvent[] = [];
  private readonly emitter = new vscode.EventEmitter<ReviewEvent>();
  readonly onEvent = this.emitter.event;
  readonly abort: AbortController;
  private done = false;
  summary: ReviewSummary | undefined;
  /** Finding ids of single agents that the merge folded into another finding → that finding's id. */
  readonly aliases = new Map<string, string>();
  /** Rules and redactions of this review, for the panel. */
  privacy: PrivacyView | undefined;
  /** The context sent with this review, for the panel's header. */
  context: ContextView | undefined;
  /** The project's tool results sent with this review, for the panel's header. */
  tools: ToolsView | undefined;
  /** The values behind this review's secret placeholders: fixes put them back before they are applied. */
  vault: SecretVault | undefined;
  /** The noise controls this review runs under; none: every finding is shown. */
  readonly noise: NoiseFilter | undefined;
  /** Findings the noise controls hide now, with why: kept out of the Problems panel, counted in the review panel. */
  readonly hidden = new Map<string, HiddenReason>();
  readonly projectDismiss: boolean;
  readonly id: string;
  readonly ref: TargetRef;
  readonly targetKey: string;
  readonly uri: vscode.Uri;
  readonly fullTarget: ReviewTarget;
  readonly estimate: CostEstimate | undefined;
  readonly noCache: boolean;
  readonly counts: ChangeCounts | undefined;
  private readonly uris: ReadonlyMap<string, vscode.Uri>;

  constructor(init: ReviewSessionInit) {
    this.id = init.id;
    this.ref = init.ref;
    this.targetKey = init.ref.key();
    this.uri = init.uri;
    this.fullTarget = init.fullTarget;
    this.estimate = init.estimate;
    this.noCache = init.noCache;
    this.uris = init.uris ?? new Map();
    this.counts = init.counts;
    this.noise = init.noise;
    this.projectDismiss = init.projectDismiss === true;
    this.abort = init.abort ?? new AbortController();
    this.target = targetInfo(init.fullTarget);
  }

  readonly target: TargetInfo;

  /** The document of a reviewed file. */
  uriOf(file: string): vscode.Uri {
    return this.uris.get(file) ?? this.uri;
  }

  /** The index of the region of `file` that holds lines start..end (or, failing that, line start); -1 when none. */
  regionIndex(file: string, start: number, end: number): number {
    return regionIndexOf(this.fullTarget.regions, file, start, end);
  }

  get isDone(): boolean {
    return this.done;
  }

  get cancelled(): boolean {
    return this.abort.signal.aborted;
  }

  events(): readonly ReviewEvent[] {
    return this.log;
  }

  /**
   * Applies the noise controls to an event before it is pushed: a streamed finding is judged on its own, and the
   * review's own split of the merged findings (on `review-done`) replaces those judgements. True when `hidden` changed.
   */
  noteNoise(event: ReviewEvent): boolean {
    return this.noise !== undefined && !this.done && judgeNoise(this.hidden, this.noise, event);
  }

  push(event: ReviewEvent): void {
    if (this.done) return;
    this.log.push(event);
    if (event.type === 'review-done') {
      this.summary = event.summary;
      this.done = true;
    }
    this.emitter.fire(event);
  }

  /** The original text of file lines `start..end` (1-based, within region `index` of the target). */
  originalLines(index: number, start: number, end: number): string {
    return originalLinesOf(this.fullTarget.regions[index], start, end);
  }

  /** Records how the prompts were shaped (rules, redactions, the secrets' vault); returns the rules used and dropped. */
  shapedBy(shaped: ShapedReview, rules: { used: string[]; dropped: string[] }): { used: string[]; dropped: string[] } {
    this.privacy = { rules: rules.used, rulesDropped: rules.dropped, redactions: shaped.redactions.map(({ kind, line, endLine, file }) => ({ kind, line, endLine, ...(file ? { file } : {}) })) };
    this.vault = shaped.vault;
    return rules;
  }

  /** Ends a review that could not run (Quorum failed before any agent did): an empty summary. */
  abandon(): void {
    const totals = zeroTotals();
    const summary = { reviewId: this.id, target: this.target, agents: [], findings: [], totals, cancelled: this.cancelled, elapsedMs: Date.now() - this.startedAt };
    this.push({ type: 'review-done', reviewId: this.id, summary });
  }

  cancel(): void {
    if (!this.abort.signal.aborted) this.abort.abort();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
