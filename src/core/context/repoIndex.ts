import { existsSync } from 'node:fs';
import type { LineRange } from '../domain/lines';
import type { ReviewTarget } from '../domain/target';
import type { ContextBudget } from './budget';
import { MAX_CALLERS, MAX_DEFINITIONS_PER_NAME } from './candidates';
import { ChosenMemo, type ChosenContext } from './chosenMemo';
import { ContextThreads } from './contextThreads';
import { sharedCounter, stopAt, take } from './sharedCounter';
import { fileSymbols, type FileSymbols } from './extract';
import { readIndexFile } from './indexFile';
import { saveIndex } from './indexSave';
import { SMALL_REPOSITORY, storeFile, type IndexOptions, type IndexState } from './indexOptions';
import type { IndexEntry } from './indexStore';
import { FileNames } from './fileNames';
import { readableText } from './freshNames';
import { UsedIdentifiers } from './usedIdentifiers';
import { blobHash, listFiles, type ListedFile } from './listing';
import { nearestFirst } from './nearest';
import { inRounds, Lookup, type Asked, type FoundCall, type FoundDefinition, type LookupFiles } from './lookup';
import { SymbolStore } from './symbolStore';
import { trackedFileCount } from './trackedFiles';

/**
 * The repository's definitions and call sites, kept in the cache folder and keyed by blob hash: a file whose content
 * did not change is never read again. Two levels, both per blob, read from the stored segment where they lie:
 * - names (fileNames.ts): what each file may define and call, read off its text (lexical.ts): a lookup's candidates;
 * - symbols (symbolStore.ts): what tree-sitter finds in the files a lookup reached.
 * A lookup (lookup.ts) parses its candidates nearest first and stops when the context has all it can use of the name:
 * the work follows the change, not the size of the repository. A first review of a large repository reads the names
 * and parses on threads of their own (contextThreads.ts). A small repository is parsed whole.
 */

export class RepositoryIndex {
  private readonly names: FileNames;
  private readonly byPath: Map<string, ListedFile>;
  private parsedCount = 0;
  private readonly memo: ChosenMemo;
  private threads: ContextThreads | undefined;
  /** Whether a first lookup found the repository small and parsed it whole. */
  private small: boolean | undefined;
  /** Counts what changes a lookup's answer: a file parsed or learnt, a stored entry found broken, names read. */
  private generation = 0;
  private readonly answers = new Map<string, { generation: number; value: readonly FoundDefinition[] }>();

  private constructor(
    private readonly options: IndexOptions,
    private readonly files: readonly ListedFile[],
    private readonly state: IndexState,
    previous: RepositoryIndex | undefined,
  ) {
    this.byPath = new Map(files.map((f) => [f.path, f]));
    this.names = new FileNames(files, state.symbols.stored, previous?.names);
    this.memo = new ChosenMemo(files, options.maxFileBytes, state.chosen);
  }

  /**
   * The index of the repository (or folder) at `root`: its listing read now, its entries those of `previous` (this
   * process's index of it, openIndex.ts) or else the cache folder's; undefined when it cannot be listed.
   */
  static async open(options: IndexOptions, previous?: RepositoryIndex): Promise<RepositoryIndex | undefined> {
    const file = storeFile(options);
    // A large repository never indexed here: its threads start while it is listed.
    const cold = !previous && !(file && existsSync(file)) && (trackedFileCount(options.root) ?? 0) > ContextThreads.WORTH;
    const early = cold ? ContextThreads.start({ root: options.root, maxFileBytes: options.maxFileBytes }) : undefined;
    const [listing, segment] = await Promise.all([listFiles(options.root, options.excluder), previous ? previous.state.symbols.stored : file ? readIndexFile(file) : undefined]);
    const state: IndexState = previous?.state ?? { symbols: new SymbolStore(segment), used: new UsedIdentifiers(segment?.used), chosen: new Map(), dirty: false };
    const index = listing && new RepositoryIndex(options, listing.files, state, previous);
    if (index && early && index.names.unknown > ContextThreads.WORTH) index.threads = early;
    else early?.close();
    return index;
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
  holds = (path: string): boolean => this.byPath.has(path);
  /**
   * The symbols the index holds for `path` when `bytes` are the content it listed there (its blob hash): a reviewed
   * file need not be queried again. Undefined when the file changed since, or is not indexed or not read.
   */
  symbolsAt(path: string, bytes: Uint8Array): FileSymbols | undefined {
    const file = this.byPath.get(path);
    return file && this.has(file.hash) && blobHash(bytes) === file.hash ? this.state.symbols.symbols(file.hash) : undefined;
  }

  /** Ends the index's threads once they are done, after they merged the names they read for the save. */
  release(): void {
    if (this.threads) this.names.mergeScans(this.threads);
    this.threads?.closeWhenIdle();
  }

  /** The context a review of this listing chose for `batch` before, when one was kept (chosenMemo.ts). */
  chosen(batch: ReviewTarget, maxTokens: number): ChosenContext | undefined {
    return this.memo.get(batch, maxTokens, this.state.symbols.stored);
  }

  keepChosen(batch: ReviewTarget, maxTokens: number, value: ChosenContext): void {
    this.memo.keep(batch, maxTokens, value);
    this.state.dirty = true;
  }

  /** Learns the names of every listed file not known yet; false when the budget stopped it first. */
  async scan(budget?: ContextBudget): Promise<boolean> {
    const before = this.names.fresh.blobs.length + this.names.stored.length;
    // Many files to read (a first review): on threads of their own, which then help parse.
    if (!this.threads && this.names.unknown > ContextThreads.WORTH) this.threads = ContextThreads.start({ root: this.options.root, maxFileBytes: this.options.maxFileBytes });
    const done = await this.names.scan({ root: this.options.root, maxFileBytes: this.options.maxFileBytes, budget, parsed: (hash) => this.state.symbols.parsedNow(hash), threads: this.threads });
    if (this.names.fresh.blobs.length + this.names.stored.length !== before) {
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
    const text = readableText(this.options.root, file.path, this.options.maxFileBytes);
    this.take(file, (text !== undefined && (await fileSymbols(text, file.language).catch(() => undefined))) || { skipped: true });
    this.parsedCount++;
  }

  private take(file: ListedFile, entry: IndexEntry): void {
    // A name that cannot be stored (a lone surrogate): the file counts as not read.
    const kept = this.state.symbols.take(file.hash, entry) ? entry : { skipped: true as const };
    if (kept !== entry) this.state.symbols.take(file.hash, kept);
    this.names.learn(file.hash, kept);
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
   * Parses, nearest to `near` first, the files that may define `name` until MAX_DEFINITIONS_PER_NAME of its
   * definitions that `keep` accepts are parsed: `definitions(name)` then ranks its nearest as if the whole repository
   * were parsed (whether there are more, `mayDefineMore` says). Stops early when the budget is over.
   */
  async reachDefinitions(name: string, near: string, keep: (d: FoundDefinition) => boolean = () => true, budget?: ContextBudget): Promise<boolean> {
    return this.reach({ of: 'defines', name, near, keep }, budget);
  }

  /** Parses, nearest to `near` first (not `near` itself), the files that may call `name` until MAX_CALLERS call sites are parsed. */
  async reachCalls(name: string, near: string, budget?: ContextBudget): Promise<boolean> {
    return this.reach({ of: 'calls', name, near }, budget);
  }

  private lookupOf(asked: Asked): { lookup: Lookup; files: LookupFiles } | undefined {
    const candidates = this.names.candidates(asked.of, asked.name);
    // Every candidate parsed (a warm index, a name already looked up): the lookup is complete as it is.
    if (candidates.every((f) => this.has(f.hash))) return undefined;
    const count = asked.of === 'defines' ? (file: ListedFile) => this.definitionsIn(file, asked.name).filter(asked.keep ?? (() => true)).length : (file: ListedFile) => this.callsIn(file, asked.name).length;
    const enough = asked.of === 'defines' ? MAX_DEFINITIONS_PER_NAME : MAX_CALLERS;
    return { lookup: new Lookup(candidates, asked.near, asked.of, enough), files: { parsed: (file) => this.has(file.hash), count } };
  }

  /** Parses what the lookup needs; false when the budget stopped it first. */
  private async reach(asked: Asked, budget: ContextBudget | undefined): Promise<boolean> {
    if (await this.parsedWhole()) return true;
    if (!(await this.scan(budget))) return false;
    const found = this.lookupOf(asked);
    for (let file = found?.lookup.next(found.files); found && file; file = found.lookup.next(found.files)) {
      if (budget?.over) return false;
      await this.parse(file);
    }
    return true;
  }

  /**
   * Parses what the lookups of each group (a batch's `asked`) need, on the index's threads, round after round (lookup.ts);
   * `ready` is told each group whose lookups are done, between rounds. Without threads or lookups, or when the names are not
   * read, nothing is done here (and no group is told).
   */
  async prefetch(groups: readonly (readonly Asked[])[], budget: ContextBudget | undefined, ready: (group: number) => void): Promise<void> {
    const threads = this.threads;
    if (!threads || groups.every((asked) => asked.length === 0) || !(await this.scan(budget)) || (await this.parsedWhole())) return;
    const pending = groups.flatMap((asked, group) => asked.flatMap((a) => this.lookupOf(a) ?? []).map((found) => ({ ...found, group })));
    await inRounds(pending, groups.length, budget, async (files) => {
      const next = sharedCounter();
      const asked = threads.parse(files.map(({ path, hash, language }) => ({ path, hash, language })), next);
      // At the deadline no thread takes another file (this one looks at it between its files, a timer while it waits).
      const deadline = budget && setTimeout(() => stopAt(next, files.length), budget.remainingMs);
      for (let i = take(next, 1); i < files.length; i = budget?.over ? stopAt(next, files.length) : take(next, 1)) await this.parse(files[i] as ListedFile);
      const parsed = await asked;
      clearTimeout(deadline);
      for (const file of files.filter((f) => !this.has(f.hash))) {
        const text = parsed.get(file.hash);
        // One the threads could not parse is parsed here (not one left when the deadline stopped the round).
        if (text !== undefined && this.state.symbols.take(file.hash, text)) this.parsedCount++;
        else if (!budget?.over) await this.parse(file);
        this.state.dirty = true;
      }
    }, ready);
  }

  /** Reads every name and parses every listed file not parsed yet: the whole index (the tests, the benchmark). */
  async complete(): Promise<void> {
    if (!(await this.scan())) return;
    for (const file of this.files) await this.parse(file);
  }

  /** Whether a file that may define `name` is not parsed: a definition besides those `definitions(name)` gives may be there. */
  mayDefineMore = (name: string): boolean => this.universe('defines', name).some((f) => !this.has(f.hash));

  /** Whether the blob is parsed (now or stored). */
  private has = (hash: string): boolean => this.state.symbols.has(hash);

  private definitionsIn(file: ListedFile, name: string): FoundDefinition[] {
    return this.state.symbols.definitionsNamed(file.hash, name).map((d) => ({ ...d, file: file.path, language: file.language }));
  }

  private callsIn(file: ListedFile, name: string): FoundCall[] {
    return this.state.symbols.callLines(file.hash, name).map((line) => ({ file: file.path, language: file.language, name, line }));
  }

  /** The files a lookup of `name` reads: the candidates when every file's names are known, else every file. */
  private universe(of: 'defines' | 'calls', name: string): readonly ListedFile[] {
    return this.names.scanned ? this.names.candidates(of, name) : this.files;
  }

  /** Definitions named `name` in the parsed files (remembered until a file is parsed: batches ask for the same names). */
  definitions(name: string): readonly FoundDefinition[] {
    const generation = this.generation + this.state.symbols.generation;
    const known = this.answers.get(name);
    if (known?.generation === generation) return known.value;
    const value = this.universe('defines', name).flatMap((file) => this.definitionsIn(file, name));
    this.answers.set(name, { generation, value });
    return value;
  }

  /** The `limit` call sites of `name` in the parsed files other than `near` that the context ranks first: nearest, then by path and line. */
  nearestCalls(name: string, near: string, limit: number): FoundCall[] {
    const among = this.universe('calls', name).filter((f) => f.path !== near);
    // The nearest files first, more of them while too few sites are found in them.
    for (let take = 4 * limit; ; take *= 4) {
      const out: FoundCall[] = [];
      const order = nearestFirst(among, near, 'callers', take);
      for (const file of order) {
        out.push(...this.callsIn(file, name).sort((a, b) => a.line - b.line));
        if (out.length >= limit) return out.slice(0, limit);
      }
      if (order.length >= among.length) return out;
    }
  }

  /**
   * Writes the index (the entries of the files listed now, merged with what another process saved) when something
   * was read or parsed since it was loaded; then reads on from what was written.
   */
  async save(): Promise<void> {
    const file = storeFile(this.options);
    if (!file || !this.state.dirty) return;
    const written = await saveIndex(file, { names: this.names, symbols: this.state.symbols, used: this.state.used.stored, chosen: this.state.chosen, files: this.files });
    if (!written) return;
    // What was saved is read from the segment now: the names read are let go.
    this.state.symbols.adopt(written);
    this.names.adopt(written);
    this.state.dirty = false;
  }
}
