import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Excluder } from '../prompt/exclude';
import type { LineRange } from '../domain/lines';
import type { ContextBudget } from './budget';
import { MAX_CALLERS, MAX_DEFINITIONS_PER_NAME } from './candidates';
import { fileSymbols, type Definition, type FileSymbols } from './extract';
import { readIndexFile, writeIndexFile } from './indexFile';
import { decodeEntry, encodeEntry, type IndexEntry } from './indexStore';
import { FileNames, readableText } from './fileNames';
import { UsedIdentifiers } from './usedIdentifiers';
import { blobHash, listFiles, type ListedFile } from './listing';
import { nearestFirst } from './nearest';

/**
 * The repository's definitions and call sites, kept in the cache folder and keyed by blob hash: a file whose content
 * did not change is never read again. Two levels, both per blob:
 * - names: what each file may define and call, read off its text (lexical.ts) — every listed file, in one pass and
 *   in this process (no child process per file or per name): what a lookup's candidates are;
 * - symbols: what tree-sitter finds in the file, for the files a lookup reached (and, in the background, the rest).
 * A lookup of a name near a reviewed file parses its candidates nearest first and stops when the context has all it
 * can use of that name (MAX_DEFINITIONS_PER_NAME and one more to tell an ambiguous name, MAX_CALLERS call sites):
 * the work depends on the change, not on the size of the repository. A small repository is parsed whole.
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

export class RepositoryIndex {
  /** Symbols parsed in this process, or read from the store and decoded, by blob hash. */
  private readonly blobs = new Map<string, IndexEntry>();
  /** Symbols read from the store, as stored: decoded (into `blobs`) when a lookup needs them. */
  private readonly stored = new Map<string, string>();
  /** What each blob may define and call: the candidates of a lookup. */
  private readonly names = new FileNames();
  private readonly used = new UsedIdentifiers();
  private files: ListedFile[] = [];
  private byPath = new Map<string, ListedFile>();
  private dirty = false;
  private parsedCount = 0;
  /** Whether a first lookup found the repository small and parsed it whole. */
  private small: boolean | undefined;

  private constructor(private readonly options: IndexOptions) {}

  /**
   * The index of the repository (or folder) at `root`: its listing read now, its entries those of `previous` (this
   * process's index of it, openIndex.ts) or else the cache folder's; undefined when it cannot be listed.
   */
  static async open(options: IndexOptions, previous?: RepositoryIndex): Promise<RepositoryIndex | undefined> {
    const index = new RepositoryIndex(options);
    const file = index.storeFile();
    const [listing, stored] = await Promise.all([listFiles(options.root, options.excluder), previous ? undefined : file ? readIndexFile(file) : undefined]);
    if (!listing) return undefined;
    index.files = listing.files;
    index.byPath = new Map(listing.files.map((f) => [f.path, f]));
    for (const [hash, entry] of previous?.blobs ?? []) index.blobs.set(hash, entry);
    for (const [hash, entry] of previous?.stored ?? stored?.blobs ?? []) index.stored.set(hash, entry);
    for (const [hash, entry] of previous?.names.names ?? stored?.names ?? []) index.names.names.set(hash, entry);
    for (const [key, entry] of previous?.used.stored ?? stored?.used ?? []) index.used.stored.set(key, entry);
    // What `previous` had not saved yet is saved with this one.
    index.dirty = previous?.dirty ?? false;
    return index;
  }

  private storeFile(): string | undefined {
    if (!this.options.cacheDir) return undefined;
    const key = createHash('sha256').update(this.options.root).digest('hex').slice(0, 16);
    return join(this.options.cacheDir, 'context', `${key}.json`);
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
    const before = this.names.names.size;
    const done = await this.names.scan(this.files, (file) => readableText(this.options.root, file, this.options.maxFileBytes), (hash) => this.blobs.get(hash), { budget, signal });
    if (this.names.names.size !== before) this.dirty = true;
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
    return file && blobHash(bytes) === file.hash ? this.used.get(file.hash, lines) : undefined;
  }

  keepIdentifiers(path: string, bytes: Uint8Array, lines: readonly LineRange[], identifiers: readonly (readonly [string, number])[]): void {
    const file = this.byPath.get(path);
    if (file && blobHash(bytes) === file.hash && this.used.keep(file.hash, lines, identifiers)) this.dirty = true;
  }

  private async parse(file: ListedFile): Promise<void> {
    if (this.has(file.hash)) return;
    const text = readableText(this.options.root, file, this.options.maxFileBytes);
    this.take(file, (text !== undefined && (await fileSymbols(text, file.language).catch(() => undefined))) || { skipped: true });
    this.parsedCount++;
  }

  private take(file: ListedFile, entry: IndexEntry): void {
    this.blobs.set(file.hash, entry);
    this.dirty = true;
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

  private candidates(of: 'defines' | 'calls', name: string): readonly ListedFile[] {
    return this.names.candidates(this.files, of, name);
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
    const candidates = this.candidates(of, name);
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
    return this.blobs.has(hash) || this.stored.has(hash);
  }

  /** The blob's entry, decoded from the store on first use; one that does not decode is dropped (parsed again later). */
  private entryOf(hash: string): IndexEntry | undefined {
    const known = this.blobs.get(hash);
    if (known) return known;
    const stored = this.stored.get(hash);
    if (stored === undefined) return undefined;
    const entry = decodeEntry(stored);
    if (entry) this.blobs.set(hash, entry);
    else this.stored.delete(hash);
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
    return this.names.scanned ? this.candidates(of, name) : this.files;
  }

  /** Definitions named `name` in the parsed files. */
  definitions(name: string): readonly FoundDefinition[] {
    return this.universe('defines', name).flatMap((file) => this.definitionsIn(file, name));
  }

  /** Call sites of `name` in the parsed files. */
  calls(name: string): readonly FoundCall[] {
    return this.universe('calls', name).flatMap((file) => this.callsIn(file, name));
  }

  /** Writes the index (the entries of the files listed now, merged with what another process saved) when something was read or parsed since it was loaded. */
  async save(): Promise<void> {
    const file = this.storeFile();
    if (!file || !this.dirty) return;
    const listed = new Set(this.files.map((f) => f.hash));
    const blobs = new Map<string, string>();
    const names = new Map<string, string>();
    const used = this.used.of(listed);
    for (const hash of listed) {
      const entry = this.blobs.get(hash);
      const stored = this.stored.get(hash) ?? (entry && encodeEntry(entry));
      if (stored !== undefined) blobs.set(hash, stored);
      const named = this.names.names.get(hash);
      if (named !== undefined) names.set(hash, named);
    }
    if (await writeIndexFile(file, { blobs, names, used }, (hash) => listed.has(hash))) this.dirty = false;
  }
}
