import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { languageOfFile } from '../agents/fileLanguage';
import { run as runGit } from '../changes/gitCli';
import { decodeText, isBinary, looksGenerated, looksMinified, skipByName, splitFileLines } from '../changes/skip';
import type { Excluder } from '../prompt/exclude';
import { fileSymbols, type Definition, type FileSymbols } from './extract';
import { decodeEntry, encodeEntry, entryNames, INDEX_VERSION, isEntry, storeSchema, type IndexEntry } from './indexStore';
import { grammarOf } from './languages';

/**
 * The repository's definitions and call sites, per file, built on first use and kept in the cache folder. Entries
 * are keyed by the file's git blob hash: a file whose content did not change is never parsed again. Only files the
 * review may send are listed: a language with a grammar, not excluded (`.quorumignore`, privacy globs), not a
 * lockfile, minified, generated, binary or too large. A lookup parses the files it needs that are not indexed yet
 * (found with `git grep`), so the first review of a repository gets its context before the whole index exists.
 */

/** Files of a folder outside git that the index lists at most. */
const MAX_FOLDER_FILES = 2000;

/** A file the index may hold: its path, blob hash and language. */
interface ListedFile {
  path: string;
  hash: string;
  language: string;
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

interface IndexOptions {
  root: string;
  /** Where the index is kept (a `context` folder is made in it); undefined keeps it in memory only. */
  cacheDir: string | undefined;
  excluder: Excluder;
  maxFileBytes: number;
}

/** The blob hash git gives these bytes (`git hash-object`). */
function blobHash(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Names a lookup can grep for safely. */
const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;
/**
 * Words that start a definition in one of the indexed languages: a name after one of them, and after modifiers,
 * a type or a Go receiver, may be defined there. `const`, `let` and `var` count only at the start of a line
 * (top-level), or every local would match.
 */
const DEFINING_WORDS = 'def|function|func|fn|class|struct|interface|type|enum|trait|module|impl|record|static|public|private|protected|internal|macro_rules';

const escapeName = (n: string) => n.replace(/\$/g, '\\$');

/** A line that reads like the definition of one of `names` in one of the indexed languages. */
function definingLine(names: readonly string[]): RegExp {
  const any = names.map(escapeName).join('|');
  const upper = names.filter((n) => /^[A-Z]/.test(n)).map(escapeName).join('|');
  return new RegExp(
    [
      `\\b(?:${DEFINING_WORDS})\\s+(?:[\\w<>,.*&?:$]+\\s+|\\([^)]*\\)\\s*)*(?:${any})\\b`,
      `\\b(?:${any})\\s*\\([^)]*\\)\\s*(?:\\{|throws\\b|->|:|$)`,
      `^(?:export\\s+)?(?:const|let|var)\\s+(?:${any})\\b`,
      `^(?:${any})\\s*=`,
      ...(upper ? [`^\\s*(?:${upper})\\s*=`] : []),
    ].join('|'),
  );
}

/**
 * The output of `git ls-files -t -s -m -o -z`: the blob hash of each index entry (a submodule left out), and the
 * paths changed in the working tree (modified, deleted: tagged `C`) or untracked (`?`), whose content is hashed
 * as it is now.
 */
function readListing(out: Buffer): { hashes: Map<string, string>; changed: Set<string> } {
  const hashes = new Map<string, string>();
  const changed = new Set<string>();
  for (const line of out.toString('utf8').split('\0')) {
    if (line === '') continue;
    // "? path" for an untracked file; "T mode hash stage<TAB>path" for an index entry, T its tag.
    if (line.startsWith('? ')) {
      changed.add(line.slice(2));
      continue;
    }
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [tag, mode, hash] = line.slice(0, tab).split(' ');
    const path = line.slice(tab + 1);
    if (tag === 'C') changed.add(path);
    else if (mode !== '160000' && hash) hashes.set(path, hash);
  }
  return { hashes, changed };
}

export class RepositoryIndex {
  /** Entries parsed in this process, or read from the store and decoded, by blob hash. */
  private readonly blobs = new Map<string, IndexEntry>();
  /** Entries read from the store, as stored: decoded (into `blobs`) when a lookup needs one. */
  private readonly stored = new Map<string, string>();
  private files: ListedFile[] = [];
  private byPath = new Map<string, ListedFile>();
  private dirty = false;
  private parsedCount = 0;
  /** False for a folder outside git: lookups parse every file (there is no git grep). */
  private git = true;
  /** Definitions and call sites by name, over the indexed files; each made on first use, dropped when a file is parsed. */
  private namedDefinitions: Map<string, ListedFile[]> | undefined;
  private namedCalls: Map<string, ListedFile[]> | undefined;

  private constructor(private readonly options: IndexOptions) {}

  /** The index of the repository (or folder) at `root`: its listing read now, its stored entries loaded; undefined when it cannot be read. */
  static async open(options: IndexOptions): Promise<RepositoryIndex | undefined> {
    const index = new RepositoryIndex(options);
    const [listed] = await Promise.all([index.list(), index.load()]);
    return listed ? index : undefined;
  }

  private storeFile(): string | undefined {
    if (!this.options.cacheDir) return undefined;
    const key = createHash('sha256').update(this.options.root).digest('hex').slice(0, 16);
    return join(this.options.cacheDir, 'context', `${key}.json`);
  }

  private async load(): Promise<void> {
    const file = this.storeFile();
    if (!file) return;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return;
    }
    try {
      const parsed = storeSchema.safeParse(JSON.parse(text));
      if (!parsed.success) return;
      // An entry that does not have the form of one is left out: its file is parsed again.
      for (const [hash, stored] of Object.entries(parsed.data.blobs)) if (isEntry(stored)) this.stored.set(hash, stored);
    } catch {
      // A damaged index is rebuilt.
    }
  }

  /**
   * Lists the files the index may hold with their blob hashes: git's for clean files, computed for changed ones.
   * One git process lists them all (`ls-files -t`: each index entry tagged, a changed or deleted one listed again
   * as `C`, an untracked one as `?`): a process started from a large heap costs milliseconds of its own.
   */
  private async list(): Promise<boolean> {
    const { root } = this.options;
    let listed: Buffer;
    try {
      listed = await runGit(root, ['-c', 'core.quotePath=false', 'ls-files', '-t', '-s', '-m', '-o', '--exclude-standard', '-z']);
    } catch {
      return this.listFolder();
    }
    const { hashes, changed } = readListing(listed);
    const files: ListedFile[] = [];
    for (const [path, hash] of hashes) {
      if (changed.has(path)) continue;
      const language = this.mayHold(path);
      if (language) files.push({ path, hash, language });
    }
    await Promise.all(
      [...changed].map(async (path) => {
        const language = this.mayHold(path);
        if (!language) return;
        try {
          files.push({ path, hash: blobHash(await readFile(join(root, path))), language });
        } catch {
          // Deleted in the working tree.
        }
      }),
    );
    this.take(files);
    return true;
  }

  private mayHold(path: string): string | undefined {
    const language = languageOfFile(path);
    if (!grammarOf(language) || skipByName(path) || this.options.excluder.match(path)) return undefined;
    return language;
  }

  private take(files: ListedFile[]): void {
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.files = files;
    this.byPath = new Map(files.map((f) => [f.path, f]));
  }

  /**
   * Outside git (a folder of its own, like an eval case): its files (hidden folders and node_modules left out, at
   * most MAX_FOLDER_FILES), each hashed as git would.
   */
  private async listFolder(): Promise<boolean> {
    const { root } = this.options;
    let entries: string[];
    try {
      entries = (await readdir(root, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
        .filter((p) => !p.split('/').some((part) => part.startsWith('.') || part === 'node_modules'));
    } catch {
      return false;
    }
    const files: ListedFile[] = [];
    for (const path of entries.slice(0, MAX_FOLDER_FILES)) {
      const language = this.mayHold(path);
      if (!language) continue;
      try {
        files.push({ path, hash: blobHash(await readFile(join(root, path))), language });
      } catch {
        // Gone while listed.
      }
    }
    this.git = false;
    this.take(files);
    return true;
  }

  /** How many files the index may hold, and how many of them are parsed. */
  get size(): { files: number; indexed: number; parsedNow: number } {
    return { files: this.files.length, indexed: this.files.filter((f) => this.has(f.hash)).length, parsedNow: this.parsedCount };
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

  private async parse(file: ListedFile): Promise<void> {
    if (this.has(file.hash)) return;
    let entry: IndexEntry = { skipped: true };
    try {
      const bytes = await readFile(join(this.options.root, file.path));
      if (bytes.length <= this.options.maxFileBytes && !isBinary(bytes)) {
        const text = decodeText(bytes);
        const head = splitFileLines(text.slice(0, 20_000));
        if (!looksGenerated(head) && !looksMinified(head)) {
          const symbols: FileSymbols | undefined = await fileSymbols(text, file.language);
          if (symbols) entry = symbols;
        }
      }
    } catch {
      entry = { skipped: true };
    }
    this.blobs.set(file.hash, entry);
    this.namedDefinitions = undefined;
    this.namedCalls = undefined;
    this.parsedCount++;
    this.dirty = true;
  }

  /** The lines (of files not indexed yet) that hold one of `names` as a word, by file: one `git grep -F` over the working tree. */
  private async unindexedLines(names: readonly string[]): Promise<Map<ListedFile, string[]>> {
    const missing = new Map(this.files.filter((f) => !this.has(f.hash)).map((f) => [f.path, f]));
    const out = new Map<ListedFile, string[]>();
    if (missing.size === 0 || names.length === 0) return out;
    let found: Buffer;
    try {
      found = await runGit(this.options.root, ['-c', 'core.quotePath=false', 'grep', '--untracked', '-I', '-z', '-n', '-w', '-F', ...names.flatMap((n) => ['-e', n])]);
    } catch {
      // Exit 1: no file holds any of them.
      return out;
    }
    // Each line: path NUL line-number NUL text.
    for (const line of found.toString('utf8').split('\n')) {
      const first = line.indexOf('\0');
      const second = first < 0 ? -1 : line.indexOf('\0', first + 1);
      if (second < 0) continue;
      const file = missing.get(line.slice(0, first));
      if (!file) continue;
      const lines = out.get(file);
      if (lines) lines.push(line.slice(second + 1));
      else out.set(file, [line.slice(second + 1)]);
    }
    return out;
  }

  /**
   * Parses the files not indexed yet that may define one of `definitions` (a line that reads like its definition in
   * one of the languages: a keyword before it, a parameter list and a body after it, or a top-level assignment) or
   * call one of `called`; a lookup of those names is then complete without indexing the whole repository. A small
   * repository is parsed whole instead.
   */
  async reach(definitions: readonly string[], called: readonly string[] = []): Promise<void> {
    const names = definitions.filter((n) => IDENTIFIER_NAME.test(n));
    const calls = called.filter((n) => IDENTIFIER_NAME.test(n));
    if (names.length + calls.length === 0) return;
    const missing = this.files.filter((f) => !this.has(f.hash));
    if (missing.length <= 64 || !this.git) {
      for (const file of missing) await this.parse(file);
      return;
    }
    const defines = definingLine(names);
    const calling = new Set(calls);
    const callsIn = (line: string) => calls.length > 0 && (line.match(/[A-Za-z_$][\w$]*/g) ?? []).some((w) => calling.has(w));
    for (const [file, lines] of await this.unindexedLines([...new Set([...names, ...calls])])) {
      if (lines.some((l) => defines.test(l) || callsIn(l))) await this.parse(file);
    }
  }

  /** Parses every file not indexed yet (a few at a time, yielding between them); stops when `signal` aborts. */
  async complete(signal?: AbortSignal): Promise<void> {
    for (const file of this.files) {
      if (signal?.aborted) return;
      if (this.has(file.hash)) continue;
      await this.parse(file);
      if (this.parsedCount % 32 === 0) await new Promise((r) => setImmediate(r));
    }
  }

  /** Whether the blob is indexed (parsed now or stored). */
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

  /** The names `file` defines or calls: from its entry when decoded, else read off the stored text. */
  private namesIn(file: ListedFile, of: 'definitions' | 'calls'): readonly string[] {
    const entry = this.blobs.get(file.hash);
    if (entry) return 'skipped' in entry ? [] : of === 'definitions' ? entry.definitions.map((d) => d.name) : entry.calls.map(([name]) => name);
    const stored = this.stored.get(file.hash);
    return stored === undefined ? [] : entryNames(stored, of);
  }

  /**
   * The indexed files by the names they define or call, made on the first lookup after a parse: a lookup is then
   * one map read and the decoding of the few entries it names, whatever the size of the repository.
   */
  private filesByName(of: 'definitions' | 'calls'): Map<string, ListedFile[]> {
    const known = of === 'definitions' ? this.namedDefinitions : this.namedCalls;
    if (known) return known;
    const map = new Map<string, ListedFile[]>();
    for (const file of this.files) {
      for (const name of this.namesIn(file, of)) {
        const list = map.get(name);
        if (!list) map.set(name, [file]);
        else if (list[list.length - 1] !== file) list.push(file);
      }
    }
    if (of === 'definitions') this.namedDefinitions = map;
    else this.namedCalls = map;
    return map;
  }

  /** Definitions named `name` in the indexed files. */
  definitions(name: string): readonly FoundDefinition[] {
    return (this.filesByName('definitions').get(name) ?? []).flatMap((file) =>
      (this.symbolsOf(file)?.definitions ?? []).filter((d) => d.name === name).map((d) => ({ ...d, file: file.path, language: file.language })),
    );
  }

  /** Call sites of `name` in the indexed files. */
  calls(name: string): readonly FoundCall[] {
    return (this.filesByName('calls').get(name) ?? []).flatMap((file) =>
      (this.symbolsOf(file)?.calls ?? []).filter(([n]) => n === name).map(([, line]) => ({ file: file.path, language: file.language, name, line })),
    );
  }

  /** Writes the index (only the entries of files listed now) when something was parsed since it was read. */
  async save(): Promise<void> {
    const file = this.storeFile();
    if (!file || !this.dirty) return;
    const blobs: Record<string, string> = {};
    for (const f of this.files) {
      const entry = this.blobs.get(f.hash);
      const stored = this.stored.get(f.hash) ?? (entry && encodeEntry(entry));
      if (stored !== undefined) blobs[f.hash] = stored;
    }
    try {
      await mkdir(join(file, '..'), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify({ version: INDEX_VERSION, blobs }));
      await rename(tmp, file);
      this.dirty = false;
    } catch {
      // The index is a cache: a folder that cannot be written leaves the next run to parse again.
    }
  }
}
