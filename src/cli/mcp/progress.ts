import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ReviewEstimate } from '../../core/domain/estimate';
import type { ReviewEvent } from '../../core/domain/events';
import { formatUsd } from '../../shared/format';

/** Characters per token, to turn an agent's likely answer length into how much of it has streamed. */
const CHARS_PER_TOKEN = 4;
/** A streaming agent counts for at most this much of its step until it ends. */
const STREAMING_SHARE = 0.9;

/**
 * Progress of one tool call as MCP `notifications/progress`, sent only when the request carried a progress
 * token: 0 of N agents once planned, then a step as each agent ends, and in between (at most every `everyMs`)
 * how far the streaming agents are into their likely answers — so a client that restarts its timeout on progress
 * keeps waiting for a long review. The value goes up with every notification, as the protocol asks. Messages name
 * agents (ids checked at the boundary) and Quorum's own figures, never model text.
 */
export class CallProgress {
  private ended = 0;
  private total = 0;
  private sent = -1;
  private lastAt = 0;
  private readonly streamed = new Map<string, number>();
  private likelyChars: Record<string, number> = {};
  /** The agents counted in the total: the planned ones, and the verifier when it joins after the merge. */
  private readonly counted = new Set<string>();
  /** The notifications sent and not yet written: the answer waits for them, so none arrives after it. */
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly token: string | number | undefined,
    private readonly send: (n: ServerNotification) => Promise<void>,
    private readonly log: (line: string) => void,
    private readonly options: { everyMs?: number; now?: () => number } = {},
  ) {}

  private value(): number {
    let partial = 0;
    for (const [agent, chars] of this.streamed) partial += Math.min(STREAMING_SHARE, chars / Math.max(1, this.likelyChars[agent] ?? 1));
    return Math.round((this.ended + partial) * 1000) / 1000;
  }

  private notify(message: string): void {
    if (this.token === undefined) return;
    const progress = this.value();
    if (progress <= this.sent) return;
    this.sent = progress;
    this.lastAt = (this.options.now ?? Date.now)();
    const params = { progressToken: this.token, progress, ...(this.total > 0 ? { total: this.total } : {}), message };
    const sent = this.send({ method: 'notifications/progress', params }).catch((e: unknown) => this.log(`could not send progress: ${e instanceof Error ? e.message : String(e)}`));
    this.pending = Promise.all([this.pending, sent]).then(() => undefined);
  }

  /** Resolves once every notification sent so far is written (a client drops progress that follows the answer). */
  settled(): Promise<void> {
    return this.pending;
  }

  planned(estimate: ReviewEstimate): void {
    this.total = estimate.order.length;
    for (const id of estimate.order) this.counted.add(id);
    this.likelyChars = Object.fromEntries(Object.entries(estimate.perAgent).map(([id, e]) => [id, e.likelyCompletionTokens * CHARS_PER_TOKEN]));
    this.notify(`reviewing with ${this.total} agent${this.total === 1 ? '' : 's'}; estimated ≈ ${formatUsd(estimate.likelyUsd)}`);
  }

  onEvent = (e: ReviewEvent): void => {
    if (e.type === 'queued') {
      if (this.total > 0 && !this.counted.has(e.agent)) {
        this.counted.add(e.agent);
        this.total += 1;
      }
      return;
    }
    if (e.type === 'delta') {
      this.streamed.set(e.agent, (this.streamed.get(e.agent) ?? 0) + e.text.length);
      if ((this.options.now ?? Date.now)() - this.lastAt >= (this.options.everyMs ?? 1000)) this.notify(`${e.agent} is answering`);
      return;
    }
    if (e.type !== 'done' && e.type !== 'failed' && e.type !== 'cancelled') return;
    this.streamed.delete(e.agent);
    this.ended += 1;
    this.notify(`${e.agent} ${e.type === 'done' ? `done: ${e.result.findings.length} finding${e.result.findings.length === 1 ? '' : 's'}` : e.type}`);
  };
}
