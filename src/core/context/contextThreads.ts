import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { isRecord } from '../../shared/guards';
import type { ThreadFile, ThreadJob, ThreadSetup } from './scanWorker';
import { Segment } from './segment';
import { sharedCounter, stopAt } from './sharedCounter';

/**
 * The context's threads (scanWorker.ts): a first review of a large repository reads every file's names (spring-boot:
 * 8,600 files, 31 MB, about a second of CPU) and parses several hundred files; threads of their own do that work on
 * the machine's other cores while this thread parses the reviewed files, then reads and parses with them (each
 * thread, this one included, takes the next files from a shared counter). None is started on a machine of one core
 * or where no script can be found (the work is then done here).
 */

/** Threads started at most: the machine's cores but one (this thread reads and parses with them), two at most. */
const THREADS = 2;
/**
 * A thread's heap: a young generation of a few megabytes (a scan makes much short-lived garbage; V8's default lets
 * each thread's heap grow by tens of megabytes, and a review's peak memory is counted), and a ceiling on the old one
 * (a thread over it ends, and what it had to do is done here).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 192 };
/** Threads with nothing to do for this long are ended. */
const IDLE_MS = 1000;
/** After a stop, how long a scan may take to hand over what it read before its thread is ended without. */
const STOP_GRACE_MS = 1000;

/** The threads' script: the bundle's, or the source's when run from the sources under tsx (the tests, the benchmarks). */
function script(): string | undefined {
  const bundled = join(__dirname, 'contextScan.js');
  if (existsSync(bundled)) return bundled;
  const source = join(__dirname, 'scanWorker.ts');
  return existsSync(source) && process.execArgv.some((a) => a.includes('tsx')) ? source : undefined;
}

type Job = ThreadJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

/** One thread and its answers by job id. */
class Thread {
  private next = 0;
  private readonly waiting = new Map<number, (answer: Record<string, unknown> | undefined) => void>();
  private dead = false;

  constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (m: unknown) => {
      if (!isRecord(m) || typeof m.id !== 'number') return;
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    });
    const fail = () => {
      this.dead = true;
      for (const done of this.waiting.values()) done(undefined);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
  }

  ask(job: Job, transfer: ArrayBuffer[] = []): Promise<Record<string, unknown> | undefined> {
    if (this.dead) return Promise.resolve(undefined);
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ ...job, id }, transfer);
    });
  }

  close(): void {
    this.dead = true;
    void this.worker.terminate();
  }
}


const segmentOf = (m: Record<string, unknown> | undefined) => (m && m.body instanceof Uint8Array ? Segment.read(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength)) : undefined);

export class ContextThreads {
  /** Files whose names are to be read that make threads worth starting. */
  static readonly WORTH = 256;
  private busy = 0;
  private closing = false;
  private idle: NodeJS.Timeout | undefined;

  private constructor(private readonly threads: Thread[]) {}

  /** The threads for the repository at `setup.root`; undefined when none can be started. */
  static start(setup: ThreadSetup): ContextThreads | undefined {
    const file = script();
    const count = Math.min(THREADS, availableParallelism() - 1);
    if (!file || count === 0) return undefined;
    try {
      return new ContextThreads(Array.from({ length: count }, () => new Thread(new Worker(file, { workerData: setup, resourceLimits: RESOURCE_LIMITS }))));
    } catch {
      return undefined;
    }
  }

  get size(): number {
    return this.threads.length;
  }

  /**
   * The names of `files`, read by the threads (each takes the next files from `next` while there are some; the caller
   * may take some too): their segments, and the files read. `stop` asks them to end early (they then give what they
   * read). A thread that fails gives nothing (what it took is not read).
   */
  async scan(files: readonly ThreadFile[], stop: AbortSignal, next = sharedCounter()): Promise<{ segments: Segment[]; read: number }> {
    const asked = this.threads.map((t) => this.track(t.ask({ type: 'scan', files: [...files], next })));
    let grace: NodeJS.Timeout | undefined;
    const onStop = () => {
      stopAt(next, files.length);
      grace = setTimeout(() => this.close(), STOP_GRACE_MS);
    };
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop);
    try {
      const answers = await Promise.all(asked);
      const segments = answers.map(segmentOf).filter((s): s is Segment => s !== undefined);
      const read = answers.reduce((n, m) => n + (segmentOf(m) && typeof m?.read === 'number' ? m.read : 0), 0);
      return { segments, read };
    } finally {
      clearTimeout(grace);
      stop.removeEventListener('abort', onStop);
    }
  }

  /** One segment of `segments`, merged on a thread; undefined when it fails. */
  async merge(segments: readonly Segment[]): Promise<Segment | undefined> {
    const thread = this.threads[0];
    return thread && segmentOf(await this.track(thread.ask({ type: 'merge', bodies: segments.map((s) => new Uint8Array(s.body)) })));
  }

  /**
   * The stored symbols of the `files` the threads parsed (each takes the next file from `next` while there are some;
   * the caller may take some too), by blob hash.
   */
  async parse(files: readonly ThreadFile[], next = sharedCounter()): Promise<Map<string, string>> {
    const shares = this.threads.slice(0, files.length).map((t) => this.track(t.ask({ type: 'parse', files: [...files], next })));
    const answers = await Promise.all(shares);
    const out = new Map<string, string>();
    for (const m of answers) {
      if (!m || !Array.isArray(m.entries)) continue;
      for (const e of m.entries) if (Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string') out.set(e[0], e[1]);
    }
    return out;
  }

  close(): void {
    for (const t of this.threads) t.close();
  }

  /** Ends the threads once they have answered what they were asked. */
  closeWhenIdle(): void {
    this.closing = true;
    if (this.busy === 0) this.close();
  }

  /** Counts `asked` among the jobs in flight; threads idle for IDLE_MS are ended (an index nobody released). */
  private track<T>(asked: Promise<T>): Promise<T> {
    this.busy++;
    clearTimeout(this.idle);
    return asked.finally(() => {
      this.busy--;
      if (this.busy > 0) return;
      if (this.closing) this.close();
      else this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
    });
  }
}
