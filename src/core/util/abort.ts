/**
 * `promise`, or a rejection as soon as `signal` aborts, whichever comes first — so that a stalled stream or a
 * key store that never answers cannot hold a caller past cancellation. `whenAborted` runs once when the signal
 * wins (e.g. to close the stalled source) and gives the rejection reason (default: the signal's reason).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, whenAborted?: () => Error): Promise<T> {
  const reason = () => (whenAborted ? whenAborted() : abortError(signal));
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    // Through `onAbort`: every step of every agent of every batch waits on the review's one signal.
    const stop = onAbort(signal, () => reject(reason()));
    promise.then(
      (v) => {
        stop();
        resolve(v);
      },
      (e: unknown) => {
        stop();
        reject(e);
      },
    );
  });
}

/**
 * Why `signal` aborted, as an Error to reject with: its own reason when that is one (an `AbortReason`, the
 * DOMException of a plain `abort()` or `AbortSignal.timeout`), else an Error naming it.
 */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'aborted');
}

/** The handlers waiting on each signal through `onAbort`, called by the one listener it has. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `handler` when `signal` aborts; returns what stops waiting. However many requests wait on one signal (a
 * review's, the client's), the signal gets one listener: Node warns of a leak past ten ("MaxListenersExceeded"),
 * which a changes review of a few batches crosses and which the command line would print.
 */
export function onAbort(signal: AbortSignal, handler: () => void): () => void {
  let handlers = waiting.get(signal);
  if (!handlers) {
    const set = new Set<() => void>();
    handlers = set;
    waiting.set(signal, set);
    signal.addEventListener('abort', () => {
      waiting.delete(signal);
      for (const h of [...set]) h();
    }, { once: true });
  }
  handlers.add(handler);
  const mine = handlers;
  return () => mine.delete(handler);
}
