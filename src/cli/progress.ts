import type { AgentResult, AgentStatus } from '../core/domain/result';
import type { ReviewEvent } from '../core/domain/events';
import { formatUsd } from '../shared/format';
import { field } from '../shared/guards';
import { terminalText } from '../shared/untrustedText';

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
  /** What the live line shows of each agent, in queue order: its state and how much it has streamed. */
  private readonly agents = new Map<string, { status: AgentStatus; chars: number }>();
  private done = false;
  private live = '';
  private lastDraw = 0;

  constructor(
    private readonly out: ProgressStream,
    private readonly options: { redrawMs?: number; now?: () => number } = {},
  ) {}

  private get tty(): boolean {
    return this.out.isTTY === true;
  }

  /** One line of progress; what it names (files, models, a gateway's error) is shown as text, not as terminal controls. */
  line(text: string): void {
    this.clearLive();
    this.out.write(`quorum: ${terminalText(text)}\n`);
    this.drawLive(true);
  }

  onEvent = (e: ReviewEvent): void => {
    switch (e.type) {
      case 'queued':
        this.agents.set(e.agent, { status: 'queued', chars: 0 });
        this.line(`[${e.agent}] queued (${e.model})`);
        break;
      case 'started':
        this.agents.set(e.agent, { status: 'running', chars: 0 });
        this.line(`[${e.agent}] started (${e.model})`);
        break;
      case 'done':
      case 'failed':
      case 'cancelled':
        this.agents.set(e.agent, { status: e.result.status, chars: e.result.text.length });
        this.line(`[${e.agent}] ${finished(e.result)}`);
        break;
      case 'delta': {
        const a = this.agents.get(e.agent);
        if (a) a.chars += e.text.length;
        this.drawLive(false);
        break;
      }
      case 'retrying':
        this.line(e.reason === 'fallback'
          ? `[${e.agent}] ${e.code}; trying the fallback model ${e.model}`
          : `[${e.agent}] ${e.code}; retrying (attempt ${e.attempt})${e.waitMs !== undefined && e.waitMs > 0 ? ` in ${(e.waitMs / 1000).toFixed(1)} s` : ''}`);
        break;
      case 'review-done':
        this.done = true;
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
    if (!this.tty || this.done) return;
    const now = (this.options.now ?? Date.now)();
    if (!force && now - this.lastDraw < (this.options.redrawMs ?? 100)) return;
    this.lastDraw = now;
    const parts = [...this.agents].map(([id, a]) => (a.status === 'running' ? `${id} ${a.chars} chars` : `${id} ${a.status}`));
    const width = field(this.out, 'columns');
    const columns = typeof width === 'number' ? width : 100;
    // Agent ids are checked at the boundary; shown as text all the same, like every other line here.
    const text = terminalText(parts.join(' · ')).slice(0, Math.max(10, columns - 1));
    if (this.live) this.out.write('\r\x1b[K');
    this.out.write(text);
    this.live = text;
  }
}
