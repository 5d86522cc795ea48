import type { AgentResult, ReviewEvent } from '../review/types';

/** What one agent has shown of its batches so far. */
interface AgentStream {
  /** `queued` and `started` told (once each, for the first batch that got there). */
  told: Set<ReviewEvent['type']>;
  /** The batch whose text is streaming into view; the ones after it are held until it ends. */
  shown: number;
  held: string[];
  /** Each batch's result, once it ended. */
  ended: (AgentResult | undefined)[];
  /** Whether each batch has shown text yet, and whether any has. */
  wrote: boolean[];
  anyText: boolean;
}

/**
 * The events of a changes review's batches (which run at once) told as ONE review's, so that a panel card or a
 * progress line shows each agent as one: it is queued and started once; its streamed text arrives batch after batch,
 * in batch order and joined as its combined result's text is joined (a batch that streams ahead of the one shown is
 * held back until that one ends, not interleaved with it); it ends once, when its last batch has ended
 * (`onAgentEnd`, with every batch's result). Findings and retries are told as they come.
 */
export class BatchEvents {
  private readonly agents = new Map<string, AgentStream>();

  constructor(
    private readonly batches: number,
    private readonly onEvent: (e: ReviewEvent) => void,
    private readonly onAgentEnd: (agent: string, results: AgentResult[]) => void,
  ) {}

  /** An event of batch `batch` (0-based), already in the whole review's ids. */
  take(event: ReviewEvent, batch: number): void {
    if (event.type === 'review-done') return;
    if (this.batches === 1) return this.onEvent(event);
    const s = this.stream(event.agent);
    switch (event.type) {
      case 'queued':
      case 'started':
        if (s.told.has(event.type)) return;
        s.told.add(event.type);
        return this.onEvent(event);
      case 'delta':
        if (batch === s.shown) this.show(s, batch, event);
        else if (batch > s.shown) s.held[batch] = (s.held[batch] ?? '') + event.text;
        return;
      case 'done':
      case 'failed':
      case 'cancelled':
        return this.end(s, batch, event);
      case 'retrying':
      case 'finding':
        return this.onEvent(event);
    }
  }

  private end(s: AgentStream, batch: number, event: Extract<ReviewEvent, { type: 'done' | 'failed' | 'cancelled' }>): void {
    s.ended[batch] = event.result;
    // The shown batch ended: the next ones come into view, whole if they ended meanwhile.
    while (s.shown < this.batches && s.ended[s.shown]) {
      s.shown++;
      const held = s.held[s.shown];
      s.held[s.shown] = '';
      if (held) this.show(s, s.shown, { type: 'delta', reviewId: event.reviewId, agent: event.agent, text: held });
    }
    const results = s.ended.filter((r): r is AgentResult => r !== undefined);
    if (results.length === this.batches) this.onAgentEnd(event.agent, results);
  }

  private show(s: AgentStream, batch: number, event: Extract<ReviewEvent, { type: 'delta' }>): void {
    if (event.text === '') return;
    const first = !s.wrote[batch];
    s.wrote[batch] = true;
    const text = first && s.anyText ? `\n\n${event.text}` : event.text;
    s.anyText = true;
    this.onEvent({ ...event, text });
  }

  private stream(agent: string): AgentStream {
    let s = this.agents.get(agent);
    if (!s) {
      s = { told: new Set(), shown: 0, held: [], ended: new Array<AgentResult | undefined>(this.batches).fill(undefined), wrote: [], anyText: false };
      this.agents.set(agent, s);
    }
    return s;
  }
}
