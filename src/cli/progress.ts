import { applyReviewEvent, emptyReviewState, type ReviewState } from '../core/review/reviewState';
import type { AgentResult, ReviewEvent } from '../core/review/types';
import { formatUsd } from './format';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

function finished(r: AgentResult): string {
  const time = `${(r.latencyMs / 1000).toFixed(1)}s`;
  if (r.status === 'cancelled') return 'cancelled';
  if (r.status === 'error') return `failed: ${r.error?.code ?? 'error'}${r.error?.message ? ` - ${r.error.message}` : ''}`;
  const what = r.unparsed ? 'answer kept as text' : r.improvedCode !== undefined ? 'improved code' : `${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}`;
  return `done${r.cached ? ' (cached)' : ''}: ${what}, ${time}, ${formatUsd(r.costUsd)}`;
}

/**
 * Progress on stderr: one line per agent state change; on a terminal also a live line with what each agent
 * has streamed so far, redrawn at most every `redrawMs`.
 */
export class ProgressReporter {
  private readonly state: ReviewState = emptyReviewState();
  private live = '';
  private lastDraw = 0;

  constructor(
    private readonly out: ProgressStream,
    private readonly options: { redrawMs?: number; now?: () => number } = {},
  ) {}

  private get tty(): boolean {
    return this.out.isTTY === true;
  }

  line(text: string): void {
    this.clearLive();
    this.out.write(`quorum: ${text}\n`);
    this.drawLive(true);
  }

  onEvent = (e: ReviewEvent): void => {
    applyReviewEvent(this.state, e);
    switch (e.type) {
      case 'queued':
        this.line(`[${e.agent}] queued (${e.model})`);
        break;
      case 'started':
        this.line(`[${e.agent}] started (${e.model})`);
        break;
      case 'done':
      case 'failed':
      case 'cancelled':
        this.line(`[${e.agent}] ${finished(e.result)}`);
        break;
      case 'delta':
        this.drawLive(false);
        break;
      case 'retrying':
        this.line(e.reason === 'fallback'
          ? `[${e.agent}] ${e.code}; trying the fallback model ${e.model}`
          : `[${e.agent}] ${e.code}; retrying (attempt ${e.attempt})`);
        break;
      case 'review-done':
        this.clearLive();
        break;
      case 'finding':
        break;
    }
  };

  /** Clears the live line (before the result is printed or the process ends). */
  close(): void {
    this.clearLive();
  }

  private clearLive(): void {
    if (this.tty && this.live) this.out.write('\r\x1b[K');
    this.live = '';
  }

  private drawLive(force: boolean): void {
    if (!this.tty || this.state.done) return;
    const now = (this.options.now ?? Date.now)();
    if (!force && now - this.lastDraw < (this.options.redrawMs ?? 100)) return;
    this.lastDraw = now;
    const parts = this.state.order.map((id) => {
      const a = this.state.agents[id];
      if (!a) return id;
      if (a.status === 'running') return `${id} ${a.text.length} chars`;
      return `${id} ${a.status}`;
    });
    const columns = (this.out as { columns?: number }).columns ?? 100;
    const text = parts.join(' · ').slice(0, Math.max(10, columns - 1));
    if (this.live) this.out.write('\r\x1b[K');
    this.out.write(text);
    this.live = text;
  }
}
