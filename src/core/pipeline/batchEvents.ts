import { endEvent } from './agentResult';
import type { AgentResult } from '../domain/result';
import type { ReviewEvent } from '../domain/events';

/** What one agent has shown of its batches so far. */
interface AgentStream {
  /** `queued` and `started` told (once each, for the first batch that got there). */
  told: Set<ReviewEvent['type']>;
  /** The batch whose text is streaming into view, if one is; the others' text is held until it ends. */
  shown: number | undefined;
  held: Map<number, string>;
  /** Batches with held text, in the order their text began. */
  waiting: number[];
  /** Each batch's result, once it ended. */
  ended: (AgentResult | undefined)[];
  /** Batches whose text has been shown (their later text shows at once when they are the one shown). */
  wrote: Set<number>;
  /** Whether its end was told. */
  endTold: boolean;
}

/**
 * The events of a changes review's batches (which run at once) told as ONE review's, so that a panel card or a
 * progress line shows each agent as one: it is queued and started once; its streamed text arrives one batch at a
 * time — the first batch to answer streams into view, the others' text is held and shown, whole so far, when the one
 * shown ends, in the order they began to answer; never interleaved — and it ends once, when its last batch has ended,
 * with `combine` of every batch's result (the ended text is in batch order). Findings and retries are told as they
 * come.
 */
export class BatchEvents {
  private readonly agents = new Map<string, AgentStream>();

  constructor(
    private readonly batches: number,
    private readonly reviewId: string,
    private readonly onEvent: (e: ReviewEvent) => void,
    private readonly combine: (results: AgentResult[]) => AgentResult | undefined,
  ) {}

  /** Tells the end of each agent of `agents` (the whole review's results) that some batch never ended (cancelled before it started). */
  endUntold(agents: readonly AgentResult[]): void {
    if (this.batches === 1) return;
    for (const a of agents) this.tellEnd(this.stream(a.agent), a);
  }

  private tellEnd(s: AgentStream, result: AgentResult | undefined): void {
    if (!result || s.endTold) return;
    s.endTold = true;
    this.onEvent(endEvent(this.reviewId, result));
  }

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
        if (event.text === '') return;
        s.shown ??= batch;
        if (batch === s.shown) return this.show(s, batch, event);
        if (!s.held.has(batch)) s.waiting.push(batch);
        s.held.set(batch, (s.held.get(batch) ?? '') + event.text);
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
    // The shown batch ended: the held ones come into view in the order they began, whole if they ended meanwhile.
    while (s.shown !== undefined && s.ended[s.shown]) {
      s.shown = s.waiting.shift();
      if (s.shown === undefined) break;
      const held = s.held.get(s.shown) ?? '';
      s.held.delete(s.shown);
      this.show(s, s.shown, { type: 'delta', reviewId: event.reviewId, agent: event.agent, text: held });
    }
    const results = s.ended.filter((r): r is AgentResult => r !== undefined);
    if (results.length === this.batches) this.tellEnd(s, this.combine(results));
  }

  private show(s: AgentStream, batch: number, event: Extract<ReviewEvent, { type: 'delta' }>): void {
    if (event.text === '') return;
    const text = !s.wrote.has(batch) && s.wrote.size > 0 ? `\n\n${event.text}` : event.text;
    s.wrote.add(batch);
    this.onEvent({ ...event, text });
  }

  private stream(agent: string): AgentStream {
    let s = this.agents.get(agent);
    if (!s) {
      s = { told: new Set(), shown: undefined, held: new Map(), waiting: [], ended: new Array<AgentResult | undefined>(this.batches).fill(undefined), wrote: new Set(), endTold: false };
      this.agents.set(agent, s);
    }
    return s;
  }
}
