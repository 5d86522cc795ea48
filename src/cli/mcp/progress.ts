import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ReviewEvent } from '../../core/review/types';
import { formatUsd } from '../../shared/format';

/**
 * Progress of one tool call as MCP `notifications/progress`, sent only when the request carried a progress
 * token: 0 of N agents once planned, then one step as each agent ends (the value goes up with every notification); messages name
 * agents (ids checked at the boundary) and Quorum's own figures, never model text.
 */
export class CallProgress {
  private done = 0;
  private total = 0;
  /** Agents queued so far: the verifier joins after the merge, and the total grows with it. */
  private readonly queued = new Set<string>();

  constructor(
    private readonly token: string | number | undefined,
    private readonly send: (n: ServerNotification) => Promise<void>,
    private readonly log: (line: string) => void,
  ) {}

  private notify(message: string): void {
    if (this.token === undefined) return;
    const params = { progressToken: this.token, progress: this.done, ...(this.total > 0 ? { total: this.total } : {}), message };
    this.send({ method: 'notifications/progress', params }).catch((e: unknown) => this.log(`could not send progress: ${e instanceof Error ? e.message : String(e)}`));
  }

  planned(agents: number, likelyUsd: number): void {
    this.total = agents;
    this.notify(`reviewing with ${agents} agent${agents === 1 ? '' : 's'}; estimated ≈ ${formatUsd(likelyUsd)}`);
  }

  onEvent = (e: ReviewEvent): void => {
    if (e.type === 'queued') {
      this.queued.add(e.agent);
      this.total = Math.max(this.total, this.queued.size);
      return;
    }
    if (e.type !== 'done' && e.type !== 'failed' && e.type !== 'cancelled') return;
    // The protocol wants the value to go up with every notification: one per agent's end.
    this.done += 1;
    this.notify(`${e.agent} ${e.type === 'done' ? `done: ${e.result.findings.length} finding${e.result.findings.length === 1 ? '' : 's'}` : e.type}`);
  };
}
