/**
 * `promise`, or a rejection as soon as `signal` aborts, whichever comes first — so that a stalled stream or a
 * key store that never answers cannot hold a caller past cancellation. `onAbort` runs once when the signal
 * wins (e.g. to close the stalled source) and gives the rejection reason (default: the signal's reason).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, onAbort?: () => unknown): Promise<T> {
  const reason = () => (onAbort ? onAbort() : signal.reason);
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(reason());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(e);
      },
    );
  });
}
