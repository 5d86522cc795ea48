import pLimit from 'p-limit';
import { abortError } from '../util/abort';

/**
 * The one concurrency queue of the client: a p-limit queue (first come, first served across all callers) whose
 * slots are held from admission until the answer has been read, resized when the setting changes.
 */
export class Slots {
  private readonly limit: ReturnType<typeof pLimit>;
  queued = 0;
  inFlight = 0;

  constructor(concurrency: number) {
    this.limit = pLimit(Math.max(1, concurrency));
  }

  /** Takes a slot; resolves to its release function (calling it twice is harmless). Rejects when `signal` aborts first. */
  acquire(signal: AbortSignal, concurrency: number): Promise<() => void> {
    const wanted = Math.max(1, concurrency);
    if (this.limit.concurrency !== wanted) this.limit.concurrency = wanted;
    this.queued++;
    return new Promise<() => void>((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        if (settled) return;
        settled = true;
        this.queued--;
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void this.limit(
        () =>
          new Promise<void>((release) => {
            signal.removeEventListener('abort', onAbort);
            if (settled) {
              release();
              return;
            }
            settled = true;
            this.queued--;
            this.inFlight++;
            let released = false;
            resolve(() => {
              if (released) return;
              released = true;
              this.inFlight--;
              release();
            });
          }),
      );
      if (signal.aborted) onAbort();
    });
  }

  /** Drops what is still queued (their callers are rejected by their own abort signals). */
  clear(): void {
    this.limit.clearQueue();
  }
}
