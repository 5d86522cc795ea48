import * as vscode from 'vscode';
import type { CostEstimate, ReviewEvent, ReviewSummary, ReviewTarget } from '../../core/review/types';
import type { PrivacyView } from '../../shared/protocol';
import type { SecretVault } from '../../core/prompt/secrets';
import type { ReviewSessionHandle } from './session';

/** One review: its target, its events so far, and the means to cancel it. */
export class ReviewSession implements ReviewSessionHandle, vscode.Disposable {
  readonly startedAt = Date.now();
  private readonly log: ReviewEvent[] = [];
  private readonly emitter = new vscode.EventEmitter<ReviewEvent>();
  readonly onEvent = this.emitter.event;
  readonly abort = new AbortController();
  private done = false;
  summary: ReviewSummary | undefined;
  /** Finding ids of single agents that the merge folded into another finding → that finding's id. */
  readonly aliases = new Map<string, string>();
  /** Rules and redactions of this review, for the panel. */
  privacy: PrivacyView | undefined;
  /** The values behind this review's secret placeholders: fixes put them back before they are applied. */
  vault: SecretVault | undefined;

  constructor(
    readonly id: string,
    readonly targetKey: string,
    readonly uri: vscode.Uri,
    /** The full target, text included: the lines as they read when the review started. */
    readonly fullTarget: ReviewTarget,
    readonly estimate: CostEstimate | undefined,
    readonly noCache: boolean,
  ) {}

  get target(): Omit<ReviewTarget, 'text'> {
    const { text: _text, ...rest } = this.fullTarget;
    void _text;
    return rest;
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

  push(event: ReviewEvent): void {
    if (this.done) return;
    this.log.push(event);
    if (event.type === 'review-done') {
      this.summary = event.summary;
      this.done = true;
    }
    this.emitter.fire(event);
  }

  /** The original text of file lines `start..end` (1-based, within the target). */
  originalLines(start: number, end: number): string {
    const lines = this.fullTarget.text.split(/\r\n|\r|\n/);
    return lines.slice(start - this.fullTarget.startLine, end - this.fullTarget.startLine + 1).join('\n');
  }

  cancel(): void {
    if (!this.abort.signal.aborted) this.abort.abort();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
