import type { Attempted } from './answer';
import { AbortReason } from './failures';

/**
 * The idle watchdog of one attempt: aborts the attempt's controller with `AbortReason('idle')` when the
 * gateway sends nothing for the idle time. Every piece of data (headers, a chunk) kicks it.
 */
export class IdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seen = 0;

  constructor(
    private readonly controller: AbortController,
    private readonly idleMs: number,
    private readonly into: Attempted,
  ) {}

  /** Data arrived: start the idle time again. */
  readonly kick = (): void => {
    if (this.timer) clearTimeout(this.timer);
    // Once the answer has finished (and its usage came), a gateway that neither sends [DONE] nor closes the
    // response is not waited for a whole idle period.
    const finished = this.into.finish !== undefined && this.into.finish !== 'error';
    const window = !finished ? this.idleMs : this.into.usage ? Math.min(this.idleMs, 1000) : Math.min(this.idleMs, 5000);
    const armed = ++this.seen;
    this.timer = setTimeout(() => {
      // After a busy event loop, timers run before pending I/O: look once more after that I/O (setImmediate
      // runs after the poll phase) so that data already waiting in the socket is not mistaken for a stall.
      setImmediate(() => {
        if (this.seen === armed && !this.controller.signal.aborted) this.controller.abort(new AbortReason('idle'));
      });
    }, window);
  };

  /** The watchdog fired after the answer had finished: the gateway only failed to close the response. */
  firedAfterFinish(): boolean {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof AbortReason && reason.kind === 'idle' && this.into.finish !== undefined && this.into.finish !== 'error';
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
