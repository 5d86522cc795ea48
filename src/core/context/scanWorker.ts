import { parentPort, workerData } from 'node:worker_threads';
import { isRecord } from '../../shared/guards';
import { fileSymbols } from './extract';
import { addBlob, emptyFreshNames, readableText, readNames } from './freshNames';
import { mergeIndex } from './indexMerge';
import { encodeEntry } from './indexStore';
import { Segment } from './segment';
import { takenFrom } from './sharedCounter';

/**
 * A context thread (contextThreads.ts starts them): the work of a first review in a large repository, off the
 * review's thread and on the machine's other cores. It answers one job at a time:
 * - `scan`: reads the names of the files it takes and posts them as a segment of names (segment.ts; no symbols),
 *   sorted and encoded here; when the job is stopped (the time budget is over) it posts what it read;
 * - `merge`: one segment of several (the scans of several threads);
 * - `parse`: the symbols of the files it takes (tree-sitter), as stored (indexStore.ts).
 * Every thread is given all of a job's files and takes the next ones from a counter they share (`next`), a few at a
 * time: a thread that meets larger files takes fewer, and none waits for another's share.
 * The bundles run it from dist/contextScan.js.
 */

export interface ThreadFile {
  path: string;
  hash: string;
  language: string;
}

/** A job; `id` is echoed in its answer. */
export type ThreadJob =
  | { id: number; type: 'scan'; files: ThreadFile[]; next: Int32Array }
  | { id: number; type: 'merge'; bodies: Uint8Array[] }
  | { id: number; type: 'parse'; files: ThreadFile[]; next: Int32Array };

/** An answer: a segment's body and the files read (`scan`, `merge`), or each parsed blob's stored symbols (`parse`). */
type ThreadAnswer = { id: number; body: Uint8Array; read: number } | { id: number; entries: [string, string][] };

/** The repository the thread works in, given when it starts. */
export interface ThreadSetup {
  root: string;
  maxFileBytes: number;
}

const asBody = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length);
const transferOf = (b: Uint8Array): ArrayBuffer[] => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? [b.buffer] : []);

/** Files a scanning thread takes at a time (a parsing one takes one). */
const SCAN_TAKES = 32;

function scan(setup: ThreadSetup, files: readonly ThreadFile[], next: Int32Array): { body: Uint8Array; read: number } {
  const fresh = emptyFreshNames();
  let read = 0;
  for (const file of takenFrom(files, next, SCAN_TAKES)) {
    if (!fresh.ids.has(file.hash)) addBlob(fresh, file.hash, readNames(setup.root, file, setup.maxFileBytes));
    read++;
  }
  return { body: asBody(mergeIndex({ segments: [], fresh, symbols: () => undefined, used: new Map(), chosen: new Map(), listed: () => true })), read };
}

function merge(bodies: readonly Uint8Array[]): Uint8Array | undefined {
  const segments = bodies.map((b) => Segment.read(Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
  if (segments.some((s) => !s)) return undefined;
  return asBody(mergeIndex({ segments: segments.flatMap((s) => s ?? []), fresh: emptyFreshNames(), symbols: () => undefined, used: new Map(), chosen: new Map(), listed: () => true }));
}

async function parse(setup: ThreadSetup, files: readonly ThreadFile[], next: Int32Array): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const file of takenFrom(files, next, 1)) {
    const text = readableText(setup.root, file.path, setup.maxFileBytes);
    const entry = encodeEntry((text !== undefined && (await fileSymbols(text, file.language).catch(() => undefined))) || { skipped: true });
    if (entry !== undefined) out.push([file.hash, entry]);
  }
  return out;
}

const isFile = (f: unknown): f is ThreadFile => isRecord(f) && typeof f.path === 'string' && typeof f.hash === 'string' && typeof f.language === 'string';
const filesOf = (v: unknown): ThreadFile[] | undefined => (Array.isArray(v) && v.every(isFile) ? v : undefined);

/** A job as posted, checked (it crossed a thread); undefined for anything else. */
function jobOf(m: unknown): ThreadJob | undefined {
  if (!isRecord(m) || typeof m.id !== 'number') return undefined;
  const files = filesOf(m.files);
  const next = m.next instanceof Int32Array ? m.next : undefined;
  if (m.type === 'scan' && files && next) return { id: m.id, type: 'scan', files, next };
  if (m.type === 'parse' && files && next) return { id: m.id, type: 'parse', files, next };
  if (m.type === 'merge' && Array.isArray(m.bodies) && m.bodies.every((b) => b instanceof Uint8Array)) return { id: m.id, type: 'merge', bodies: m.bodies };
  return undefined;
}

async function answer(setup: ThreadSetup, job: ThreadJob): Promise<{ answer: ThreadAnswer; transfer: ArrayBuffer[] } | undefined> {
  if (job.type === 'parse') return { answer: { id: job.id, entries: await parse(setup, job.files, job.next) }, transfer: [] };
  const done = job.type === 'scan' ? scan(setup, job.files, job.next) : { body: merge(job.bodies), read: 0 };
  return done.body ? { answer: { id: job.id, body: done.body, read: done.read }, transfer: transferOf(done.body) } : undefined;
}

const setup = isRecord(workerData) && typeof workerData.root === 'string' && typeof workerData.maxFileBytes === 'number' ? { root: workerData.root, maxFileBytes: workerData.maxFileBytes } : undefined;
if (parentPort && setup) {
  const port = parentPort;
  // One job at a time, in the order posted.
  let queue = Promise.resolve();
  port.on('message', (m: unknown) => {
    const job = jobOf(m);
    if (!job) return;
    queue = queue.then(async () => {
      const done = await answer(setup, job).catch(() => undefined);
      port.postMessage(done?.answer ?? { id: job.id, entries: [] }, done?.transfer ?? []);
    });
  });
}
