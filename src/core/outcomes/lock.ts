import { closeSync, openSync, rmSync, statSync } from 'node:fs';

/**
 * A lock between processes sharing a folder (the fleet's cache folder): a lock file created with O_EXCL, removed
 * when done. A lock older than `staleMs` belonged to a process that died holding it and is taken over.
 */

const WAIT_STEP_MS = 5;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function tryCreate(path: string): boolean {
  try {
    closeSync(openSync(path, 'wx', 0o600));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

function isStale(path: string, staleMs: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

/** Runs `work` holding the lock `path`; throws when it cannot be had within `timeoutMs`. */
export function withFileLock<T>(path: string, work: () => T, options: { timeoutMs?: number; staleMs?: number } = {}): T {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const staleMs = options.staleMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  while (!tryCreate(path)) {
    if (isStale(path, staleMs)) rmSync(path, { force: true });
    else if (Date.now() > deadline) throw new Error(`the lock ${path} is held by another process`);
    else sleep(WAIT_STEP_MS);
  }
  try {
    return work();
  } finally {
    rmSync(path, { force: true });
  }
}
