/**
 * How the context's threads and the review's thread share a job's files (contextThreads.ts, scanWorker.ts): every
 * one is given the whole list and takes its next files from one counter in shared memory, so none waits for another's
 * share; a job is stopped by moving the counter to the end (no one takes another file, the files under way finish).
 */

export const sharedCounter = (): Int32Array => new Int32Array(new SharedArrayBuffer(4));

/** The place of the next `count` files, taken. */
export const take = (next: Int32Array, count: number): number => Atomics.add(next, 0, count);

/** Stops the job: `length` is its number of files. Returns it (a loop over places ends there). */
export const stopAt = (next: Int32Array, length: number): number => Atomics.store(next, 0, length);

/** The items this thread takes from `items`, `count` at a time, until none is left. */
export function* takenFrom<T>(items: readonly T[], next: Int32Array, count: number): Generator<T> {
  for (let from = take(next, count); from < items.length; from = take(next, count)) yield* items.slice(from, from + count);
}
