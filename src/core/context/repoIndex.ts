import { join } from 'node:path';
import type { Excluder } from '../prompt/exclude';
import type { LineRange } from '../review/types';
import type { ContextBudget } from './budget';
import { MAX_CALLERS, MAX_DEFINITIONS_PER_NAME } from './candidates';
import { fileSymbols, type Definition, type FileSymbols } from './extract';
import { readIndexFile, writeIndexFile } from './indexFile';
import { indexKey } from './indexKey';
import { mergeIndex } from './indexMerge';
import { decodeEntry, encodeEntry, type IndexEntry } from './indexStore';
import { FileNames, readableText } from './fileNames';
import { UsedIdentifiers } from './usedIdentifiers';
import { blobHash, listFiles, type ListedFile } from './listing';
import { nearestFirst } from './nearest';
import { Segment } from './segment';

/**
 * The repository's definitions and call sites, kept in the cache folder and keyed by blob hash: a file whose content
 * did not change is never read again. Two levels, both per blob:
 * - names: what each file may define and call, read off its text (lexical.ts) — every listed file, in one pass and
 *   in this process (no child process per file or per name): what a lookup's candidates are;
 * - symbols: what tree-sitter finds in the file, for the files a lookup reached.
 * Both are read from the stored segment (segment.ts) where they lie: a lookup reads the names it needs and the
 * symbols of the blobs it reaches. A lookup of a name near a reviewed file parses its candidates nearest first and
 * stops when the context has all it can use of that name (MAX_DEFINITIONS_PER_NAME and one more to tell an ambiguous
 * name, MAX_CALLERS call sites): the work depends on the change, not on the size of the repository. A small
 * repository is parsed whole.
 */

interface IndexOptions {
  root: string;
  /** Where the index is kept (a `context` folder is made in it); undefined keeps it in memory only. */
  cacheDir: string | undefined;
  excluder: Excluder;
  maxFileBytes: number;
}

/** A definition found in the index, with its file. */
interface FoundDefinition extends Definition {
  file: string;
  language: string;
}

/** A call site found in the index. */
interface FoundCall {
  file: string;
  language: string;
  name: string;
  line: number;
}

/** Unparsed files a repository may have and still be parsed whole on its first lookup. */
const SMALL_REPOSITORY = 64;
/** Candidates of one lookup parsed at most: a name that reads like a definition in many files that define no such thing. */
const MAX_REACHED = 24;

/** What an index holds besides its listing: kept when this process opens the repository's index again. */
interface IndexState {
  segment: Segment | undefined;
  /** Symbols parsed in this process and not saved yet, by blob hash. */
  parsed: Map<string, IndexEntry>;
  /** Symbols decoded from the segment, by blob hash. */
  decoded: Map<string, IndexEntry>;
  /** Blobs whose stored symbols do not decode: parsed again. */
  broken: Set<string>;
  used: UsedIdentifiers;
  dirty: boolean;
}

export class RepositoryIndex {
  private readonly names: FileNames;
  private readonly byPath: Map<string, ListedFile>;
  private parsedCount = 0;
  /** Whether a first lookup found the repository small and parsed it whole. */
  private small: boolean | undefined;
  /** Counts what changes a lookup's answer: a file parsed or learnt, a stored entry found broken, names read. */
  private generation = 0;
  private readonly answers = {
    definitions: new Map<string, { generation: number; value: readonly FoundDefinition[] }>(),
    calls: new Map<string, { generation: number; value: readonly FoundCall[] }>(),
  };

  private constructor(
    private readonly options: IndexOptions,
    private readonly files: readonly ListedFile[],
    private readonly state: IndexState,
    previous: RepositoryIndex | undefined,
  ) {
    this.byPath = new Map(files.map((f) => [f.path, f]));
    this.names = new FileNames(files, state.segment, previous?.names);
  }

  /**
   * The index of the repository (or folder) at `root`: its listing read now, its entries those of `previous` (this
   * process's index of it, openIndex.ts) or else the cache folder's; undefined when it cannot be listed.
   */
  static async open(options: IndexOptions, previous?: RepositoryIndex): Promise<RepositoryIndex | undefined> {
    const file = storeFile(options);
    const [listing, segment] = await Promise.all([listFiles(options.root, options.excluder), previous ? previous.state.segment : file ? readIndexFile(file) : undefined]);
    if (!listing) return undefined;
    const state: IndexState = previous?.state ?? { segment, parsed: new Map(), decoded: new Map(), broken: new Set(), used: new UsedIdentifiers(segment?.used), dirty: false };
    return new RepositoryIndex(options, listing.files, state, previous);
  }

  /** How many files the index may hold, and how many of them are parsed. */
  get size(): { files: number; indexed: number; parsedNow: number } {
    return { files: this.files.length, indexed: this.files.filter((f) => this.has(f.hash)).length, parsedNow: this.parsedCount };
  }

  /** Files read in this process to learn their names (what a run pays for the files that changed). */
  get readNow(): number {
    return this.names.readCount;
  }

  /** Whether `path` is a file the review may send and the index holds. */
  holds(path: string): boolean {
    return this.byPath.has(path);
  }

  /**
   * The symbols the index holds for `path` when `bytes` are the content it listed there (its blob hash): a reviewed
   * file need not be queried again. Undefined when the file changed since, or is not indexed or not read.
   */
  symbolsAt(path: string, bytes: Uint8Array): FileSymbols | undefined {
    const file = this.byPath.get(path);
    return file && this.has(file.hash) && blobHash(bytes) === file.hash ? this.symbolsOf(file) : undefined;
  }

  /** Learns the names of every listed file not known yet; false when the budget or `signal` stopped it first. */
  async scan(budget?: ContextBudget, signal?: AbortSignal): Promise<boolean> {
    const before = this.names.fresh.blobs.length;
    const done = await this.names.scan((file) => readableText(this.options.root, file, this.options.maxFileBytes), (hash) => this.state.parsed.get(hash), { budget, signal });
    if (this.names.fresh.blobs.length !== before) {
      this.state.dirty = true;
      this.generation++;
    }
    return done;
  }

  /** Keeps the symbols of a reviewed file, parsed by its reader, when `bytes` are the content listed at `path`: it is not parsed again. */
  learn(path: string, bytes: Uint8Array, symbols: FileSymbols): void {
    const file = this.byPath.get(path);
    if (!file || this.has(file.hash) || blobHash(bytes) !== file.hash) return;
    this.take(file, { definitions: symbols.definitions, calls: symbols.calls, aliases: symbols.aliases });
  }

  /** The identifiers on `lines` of a reviewed file, kept by `keepIdentifiers` for this content; undefined when not kept. */
  identifiersAt(path: string, bytes: Uint8Array, lines: readonly LineRange[]): [string, number][] | undefined {
    const file = this.byPath.get(path);
    return file && blobHash(bytes) === file.hash ? this.state.used.get(file.hash, lines) : undefined;
  }

  keepIdentifiers(path: string, bytes: Uint8Array, lines: readonly LineRange[], identifiers: readonly (readonly [string, number])[]): void {
    const file = this.byPath.get(path);
    if (file && blobHash(bytes) === file.hash && this.state.used.keep(file.hash, lines, identifiers)) this.state.dirty = true;
  }

  private async parse(file: ListedFile): Promise<void> {
    if (this.has(file.hash)) return;
    const text = readableText(this.options.root, file, this.options.maxFileBytes);
    this.take(file, (text !== undefined && (await fileSymbols(text, file.language).catch(() => undefined))) || { skipped: true });
    this.parsedCount++;
  }

  private take(file: ListedFile, entry: IndexEntry): void {
    this.state.parsed.set(file.hash, entry);
    this.state.broken.delete(file.hash);
    this.generation++;
    this.names.learn(file.hash, entry);
    this.state.dirty = true;
  }

  /** A small repository is parsed whole on its first lookup (then every lookup is complete); true when it was. */
  private async parsedWhole(): Promise<boolean> {
    if (this.small === undefined) {
      const missing = this.files.filter((f) => !this.has(f.hash));
      this.small = missing.length <= SMALL_REPOSITORY;
      if (this.small) for (const file of missing) await this.parse(file);
    }
    return this.small;
  }

  /**
   * Parses, nearest to `near` first, the files that may define `name` until more of its definitions that `keep`
   * accepts are parsed than MAX_DEFINITIONS_PER_NAME: `definitions(name)` then ranks as if the whole repository were
   * parsed. Stops early when the budget is over.
   */
  async reachDefinitions(name: string, near: string, keep: (d: FoundDefinition) => boolean = () => true, budget?: ContextBudget): Promise<void> {
    await this.reach('defines', name, near, (file) => this.definitionsIn(file, name).filter(keep).length, MAX_DEFINITIONS_PER_NAME + 1, budget);
  }

  /** Parses, nearest to `near` first (not `near` itself), the files that may call `name` until MAX_CALLERS call sites are parsed. */
  async reachCalls(name: string, near: string, budget?: ContextBudget): Promise<void> {
    await this.reach('calls', name, near, (file) => (file.path === near ? 0 : this.callsIn(file, name).length), MAX_CALLERS, budget);
  }

  private async reach(of: 'defines' | 'calls', name: string, near: string, count: (file: ListedFile) => number, enough: number, budget: ContextBudget | undefined): Promise<void> {
    if ((await this.parsedWhole()) || !(await this.scan(budget))) return;
    const candidates = this.names.candidates(of, name);
    // Every candidate parsed (a warm index, a name already looked up): the lookup is complete as it is.
    if (candidates.every((f) => this.has(f.hash))) return;
    let found = 0;
    let reached = 0;
    for (const file of nearestFirst(candidates, near, of === 'defines' ? 'definitions' : 'callers')) {
      if (of === 'calls' && file.path === near) continue;
      // The same candidates are reached whatever was parsed before: a second review finds them parsed and stops where the first did.
      if (++reached > MAX_REACHED) return;
      if (!this.has(file.hash)) {
        if (budget?.over) return;
        await this.parse(file);
      }
      found += count(file);
      if (found >= enough) return;
    }
  }

  /** Reads the names of the rest and parses every file not parsed yet (yielding between them); stops when `signal` aborts. */
  async complete(signal?: AbortSignal): Promise<void> {
    if (!(await this.scan(undefined, signal))) return;
    for (const file of this.files) {
      if (signal?.aborted) return;
      if (this.has(file.hash)) continue;
      await this.parse(file);
      if (this.parsedCount % 32 === 0) await new Promise((r) => setImmediate(r));
    }
  }

  /** Whether the blob is parsed (now or stored). */
  private has(hash: string): boolean {
    if (this.state.parsed.has(hash) || this.state.decoded.has(hash)) return true;
    const id = this.state.broken.has(hash) ? undefined : this.state.segment?.idOf(hash);
    return id !== undefined && this.state.segment?.parsed(id) === true;
  }

  /** The blob's entry, decoded from the segment on first use; one that does not decode is dropped (parsed again later). */
  private entryOf(hash: string): IndexEntry | undefined {
    const known = this.state.parsed.get(hash) ?? this.state.decoded.get(hash);
    if (known) return known;
    const id = this.state.broken.has(hash) ? undefined : this.state.segment?.idOf(hash);
    const stored = id === undefined ? undefined : this.state.segment?.symbols(id);
    if (stored === undefined) return undefined;
    const entry = decodeEntry(stored);
    if (entry) this.state.decoded.set(hash, entry);
    else {
      this.state.broken.add(hash);
      this.generation++;
    }
    return entry;
  }

  private symbolsOf(file: ListedFile): FileSymbols | undefined {
    const entry = this.entryOf(file.hash);
    return entry && !('skipped' in entry) ? entry : undefined;
  }

  private definitionsIn(file: ListedFile, name: string): FoundDefinition[] {
    return (this.symbolsOf(file)?.definitions ?? []).filter((d) => d.name === name).map((d) => ({ ...d, file: file.path, language: file.language }));
  }

  private callsIn(file: ListedFile, name: string): FoundCall[] {
    return (this.symbolsOf(file)?.calls ?? []).filter(([n]) => n === name).map(([, line]) => ({ file: file.path, language: file.language, name, line }));
  }

  /** The files a lookup of `name` reads: the candidates when every file's names are known, else every file. */
  private universe(of: 'defines' | 'calls', name: string): readonly ListedFile[] {
    return this.names.scanned ? this.names.candidates(of, name) : this.files;
  }

  /** Definitions named `name` in the parsed files. */
  definitions(name: string): readonly FoundDefinition[] {
    return this.remembered(this.answers.definitions, name, () => this.universe('defines', name).flatMap((file) => this.definitionsIn(file, name)));
  }

  /** Call sites of `name` in the parsed files. */
  calls(name: string): readonly FoundCall[] {
    return this.remembered(this.answers.calls, name, () => this.universe('calls', name).flatMap((file) => this.callsIn(file, name)));
  }

  /** A lookup's answer, kept until a file is parsed or read (batches ask for the same names). */
  private remembered<T>(answers: Map<string, { generation: number; value: T }>, name: string, find: () => T): T {
    const generation = this.generation;
    const known = answers.get(name);
    if (known && known.generation === generation) return known.value;
    const value = find();
    answers.set(name, { generation, value });
    return value;
  }

  /**
   * Writes the index (the entries of the files listed now, merged with what another process saved) when something
   * was read or parsed since it was loaded; then reads on from what was written.
   */
  async save(): Promise<void> {
    const file = storeFile(this.options);
    if (!file || !this.state.dirty) return;
    const listed = new Set(this.files.map((f) => f.hash));
    const mine = this.state.segment;
    const body = await writeIndexFile(file, (disk) =>
      mergeIndex({
        segments: [...(mine ? [mine] : []), ...(disk && !(mine && disk.equals(mine)) ? [disk] : [])],
        fresh: this.names.fresh,
        symbols: (hash) => {
          const entry = this.state.parsed.get(hash);
          return entry && encodeEntry(entry);
        },
        used: this.state.used.stored,
        keep: (hash) => listed.has(hash),
      }),
    );
    const written = body && Segment.read(body);
    if (!written) return;
    // What was saved is read from the segment now: the maps of names read and symbols parsed are let go.
    this.state.segment = written;
    for (const [hash, entry] of this.state.parsed) this.state.decoded.set(hash, entry);
    this.state.parsed.clear();
    this.names.adopt(written);
    this.state.dirty = false;
  }
}

function storeFile(options: IndexOptions): string | undefined {
  return options.cacheDir ? join(options.cacheDir, 'context', `${indexKey(options.root)}.idx`) : undefined;
}
