/** Streamed text re-renders a card at most this often (10 times a second; state changes are immediate). */
const STREAM_INTERVAL_MS = 100;
/** Main-thread time a frame may spend on cards with streamed text before leaving the rest to the next. */
const FRAME_BUDGET_MS = 6;
/**
 * At most this many cards' streamed text per frame (the four built-in agents in one frame; more custom agents
 * take more frames). Two per frame cost more than they saved: one more style/layout/paint pass per tick.
 */
const STREAM_CARDS_PER_FRAME = 4;

/**
 * The one clock that streamed text goes out on: every STREAM_INTERVAL_MS all cards with new text update
 * together, so the page is styled, laid out and painted once per interval, not once per card and again for its
 * scroll. State changes do not wait for it. A tick's cards go out within a frame's budget; those the budget
 * leaves over go next frame, within the same tick.
 */
export class StreamClock {
  /** Cards with streamed text waiting for the next tick. */
  private readonly due = new Set<string>();
  /** When the clock last ticked (performance.now()). */
  private tickAt = -Infinity;
  /** A tick is being rendered (cards the frame budget left over go out next frame). */
  private ticking = false;
  /** Cards the current tick has updated (each once: new text after that waits for the next tick). */
  private readonly done = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private frameStart = 0;
  private updates = 0;
  private leftOver = false;

  /** `wake`: asks for a frame (when the next tick is due for cards that wait). */
  constructor(private readonly wake: () => void) {}

  /** A frame starts: when the clock ticks, the cards that waited for it are added to `agents`, the frame's cards. */
  startFrame(now: number, agents: Set<string>): void {
    this.frameStart = now;
    this.updates = 0;
    this.leftOver = false;
    if (now - this.tickAt < STREAM_INTERVAL_MS) return;
    this.tickAt = now;
    for (const id of this.due) agents.add(id);
    this.due.clear();
    this.done.clear();
    this.ticking = true;
  }

  /**
   * Whether a card whose only news is streamed text is drawn in this frame: `now`; `tick` (it waits for the
   * next tick); `frame` (this tick's budget for this frame is spent: the next frame draws it).
   */
  admit(id: string): 'now' | 'tick' | 'frame' {
    if (!this.ticking || this.done.has(id)) {
      this.due.add(id);
      return 'tick';
    }
    if (this.updates >= STREAM_CARDS_PER_FRAME || performance.now() - this.frameStart > FRAME_BUDGET_MS) {
      this.leftOver = true;
      return 'frame';
    }
    this.updates++;
    return 'now';
  }

  /** This frame left cards of the current tick for the next frame. */
  get deferred(): boolean {
    return this.leftOver;
  }

  /** A card was drawn in this frame. */
  drawn(id: string): void {
    if (this.ticking) this.done.add(id);
  }

  /** The frame's cards are drawn: the tick ends unless some wait for the next frame; a frame is asked for the next tick. */
  endFrame(): void {
    if (!this.leftOver) this.ticking = false;
    if (this.due.size === 0 || this.timer !== undefined) return;
    const wait = Math.max(0, STREAM_INTERVAL_MS - (performance.now() - this.tickAt));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wake();
    }, wait);
  }

  /** A new page (a snapshot): nothing waits. */
  reset(): void {
    this.due.clear();
    this.done.clear();
    this.ticking = false;
  }
}
