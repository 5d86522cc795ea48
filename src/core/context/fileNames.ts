import type { ContextBudget } from './budget';
import { addBlob, emptyFreshNames, readNames, symbolNames, type FreshNames } from './freshNames';
import type { IndexEntry } from './indexStore';
import type { ListedFile } from './listing';
import type { ContextThreads } from './contextThreads';
import { sharedCounter, take } from './sharedCounter';
import type { Segment } from './segment';

/**
 * The index's first level: what each blob may define and call (lexical.ts), and from it the candidates of a lookup
 * by name. Its segments (the stored one, and those the scanning thread posts) are looked up where they lie: only the
 * names a change uses are read. Names learnt in this thread (a parsed file's, or all of them without a scanning
 * thread) are kept by name until the index is saved.
 */

interface ScanOptions {
  root: string;
  maxFileBytes: number;
  budget?: ContextBudget | undefined;
  /** Symbols of a blob parsed in this process, whose names need no reading. */
  parsed: (hash: string) => IndexEntry | undefined;
  /** The threads that read the names of a repository's many unknown files; without, they are read here. */
  threads?: ContextThreads | undefined;
}

/** Files this thread takes at a time when it reads names with the threads: a few milliseconds' work between other work. */
const HERE_TAKES = 32;

export class FileNames {
  readonly fresh: FreshNames;
  /** Files read in this process to learn their names. */
  readCount = 0;
  /** Whether every listed file's names are known. */
  scanned = false;
  private segments: Segment[];
  private readonly found = new Map<string, readonly ListedFile[]>();
  private scanning: Promise<boolean> | undefined;
  /** Blobs the threads are reading. */
  private readonly pending = new Set<string>();
  /** The segments the threads read, not merged yet; and being merged into one. */
  private unmerged: readonly Segment[] = [];
  private merged: { of: readonly Segment[]; promise: Promise<Segment | undefined> } | undefined;
  private byHash: Map<string, number[]> | undefined;
  /** Places of listed files whose content another listed file has too. */
  private readonly shared = new Set<number>();
  private readonly slots = new WeakMap<Segment, Int32Array>();

  /** `previous`: this process's names of the repository (an index opened again): its segments and unsaved names are taken over. */
  constructor(private readonly files: readonly ListedFile[], stored: Segment | undefined, previous?: FileNames) {
    this.fresh = previous?.fresh ?? emptyFreshNames();
    this.segments = previous ? [...previous.segments] : stored ? [stored] : [];
  }

  /** The segments that hold names (the stored one first, then those read in this process and not saved yet). */
  get stored(): readonly Segment[] {
    return this.segments;
  }

  /**
   * Merges on a thread the segments the threads read (once the lookups are parsed: the merge then runs while the
   * batches are chosen here): the index is saved with one segment of names, which it copies as it is.
   */
  mergeScans(threads: ContextThreads): void {
    const of = this.unmerged;
    this.unmerged = [];
    if (of.length > 1) this.merged = { of, promise: threads.merge(of) };
  }

  /** The segments to save: those the threads read merged into one when they could, so that it is copied as it is. */
  async toSave(): Promise<readonly Segment[]> {
    const of = this.merged?.of ?? [];
    const merged = await this.merged?.promise;
    return merged ? [...this.segments.filter((s) => !of.includes(s)), merged] : this.segments;
  }

  /** Reads on from `segment`, which holds every name read so far (the index was saved). */
  adopt(segment: Segment): void {
    this.segments = [segment];
    this.merged = undefined;
    this.unmerged = [];
    const fresh = emptyFreshNames();
    Object.assign(this.fresh, fresh);
    this.found.clear();
  }

  /** How many listed files' names are not known (read by threads when they are many). */
  get unknown(): number {
    return this.scanned ? 0 : this.files.filter((f) => !this.knows(f.hash)).length;
  }

  /** Whether the names of the blob are known. */
  knows(hash: string): boolean {
    return this.fresh.ids.has(hash) || this.segments.some((s) => s.idOf(hash) !== undefined);
  }

  /** Keeps the names of a blob not known yet, from its symbols (a reviewed file parsed before its names were read). */
  learn(hash: string, entry: IndexEntry): void {
    // One the scanning thread is reading is known when it is done (else from its symbols then).
    if (this.knows(hash) || this.pending.has(hash)) return;
    addBlob(this.fresh, hash, symbolNames(entry));
    this.found.clear();
  }

  /**
   * Learns the names of every listed file not known yet: on the scanning thread when there is one, else here (a few
   * hundred at a time, yielding between them); from its symbols when it was parsed. False when the budget stopped it
   * first (what was read is kept).
   */
  scan(options: ScanOptions): Promise<boolean> {
    if (this.scanned) return Promise.resolve(true);
    // One scan at a time: a lookup asking meanwhile waits for the one under way.
    this.scanning ??= this.scanAll(options).finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private async scanAll(options: ScanOptions): Promise<boolean> {
    const unknown = this.files.filter((f) => !this.knows(f.hash) && !options.parsed(f.hash));
    if (unknown.length > 0 && options.threads) await this.scanInThreads(unknown, options, options.threads);
    let since = 0;
    for (const file of this.files) {
      if (this.knows(file.hash)) continue;
      if (options.budget?.over) return false;
      this.readHere(file, options);
      if (++since % 256 === 0) await new Promise((r) => setImmediate(r));
    }
    this.found.clear();
    this.scanned = true;
    return true;
  }

  /** Learns the names of a file not known yet, on this thread: from its symbols when it was parsed, else read. */
  private readHere(file: ListedFile, options: ScanOptions): void {
    if (this.fresh.ids.has(file.hash)) return;
    const symbols = options.parsed(file.hash);
    if (symbols) addBlob(this.fresh, file.hash, symbolNames(symbols));
    else {
      addBlob(this.fresh, file.hash, readNames(options.root, file, options.maxFileBytes));
      this.readCount++;
    }
  }

  /**
   * Reads `files` on the threads, and here a few at a time between other work (the reviewed files being parsed),
   * until they are done or the budget is over; keeps what they read.
   */
  private async scanInThreads(files: readonly ListedFile[], options: ScanOptions, threads: ContextThreads): Promise<void> {
    const stop = new AbortController();
    const timer = options.budget ? setTimeout(() => stop.abort(), Math.max(0, options.budget.remainingMs)) : undefined;
    for (const f of files) this.pending.add(f.hash);
    try {
      const next = sharedCounter();
      const asked = threads.scan(files.map(({ path, hash, language }) => ({ path, hash, language })), stop.signal, next);
      for (let from = take(next, HERE_TAKES); from < files.length && !options.budget?.over; from = take(next, HERE_TAKES)) {
        await new Promise((r) => setImmediate(r));
        for (const file of files.slice(from, from + HERE_TAKES)) this.readHere(file, options);
      }
      const { segments, read } = await asked;
      this.segments.push(...segments);
      this.readCount += read;
      this.unmerged = segments;
    } finally {
      clearTimeout(timer);
      this.pending.clear();
      this.found.clear();
    }
  }

  /** The listed files whose content may define or call `name`, in path order. */
  candidates(of: 'defines' | 'calls', name: string): readonly ListedFile[] {
    const key = `${of} ${name}`;
    let out = this.found.get(key);
    if (!out) {
      const at: number[] = [];
      for (const id of this.fresh[of].get(name) ?? []) at.push(...(this.listed().get(this.fresh.blobs[id] as string) ?? []));
      for (const segment of this.segments) {
        const slots = this.slotsOf(segment);
        for (const id of segment.posting(name)?.[of] ?? []) {
          const first = slots[id] ?? -1;
          if (first < 0) continue;
          if (this.shared.has(first)) at.push(...(this.listed().get((this.files[first] as ListedFile).hash) ?? []));
          else at.push(first);
        }
      }
      // The listing is in path order: its places, in order, are the files in path order.
      at.sort((x, y) => x - y);
      out = at.filter((i, k) => k === 0 || at[k - 1] !== i).map((i) => this.files[i] as ListedFile);
      this.found.set(key, out);
    }
    return out;
  }

  /** The listed files' places by blob hash. */
  private listed(): Map<string, number[]> {
    if (!this.byHash) {
      const map = new Map<string, number[]>();
      this.files.forEach((file, i) => {
        const list = map.get(file.hash);
        if (list) {
          list.push(i);
          this.shared.add(list[0] as number);
        } else map.set(file.hash, [i]);
      });
      this.byHash = map;
    }
    return this.byHash;
  }

  /** For each blob of `segment`, the place of the first listed file with its content (-1: none is listed now). */
  private slotsOf(segment: Segment): Int32Array {
    let slots = this.slots.get(segment);
    if (!slots) {
      const listed = this.listed();
      slots = new Int32Array(segment.blobCount);
      for (let id = 0; id < segment.blobCount; id++) slots[id] = listed.get(segment.hash(id))?.[0] ?? -1;
      this.slots.set(segment, slots);
    }
    return slots;
  }
}
