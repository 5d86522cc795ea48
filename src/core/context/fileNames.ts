import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText, isBinary, looksGenerated, looksMinified, splitFileLines } from '../changes/skip';
import type { ContextBudget } from './budget';
import type { IndexEntry } from './indexStore';
import { lexicalNames } from './lexical';
import type { ListedFile } from './listing';
import type { Segment } from './segment';

/**
 * The index's first level: what each blob may define and call (lexical.ts), and from it the candidates of a lookup
 * by name. The blobs of the stored segment are looked up there (only the names a change uses are read); the others
 * are read in this process, in one pass, and kept by name until the index is saved.
 */

/**
 * The lines of a text's first 20,000 characters as `splitFileLines` gives them, or (when there are more than six) the
 * first seven: all that `looksGenerated` (five) and `looksMinified` (whether there are more than five) read.
 */
function headLines(text: string): string[] {
  const head = text.slice(0, 20_000).split(/\r?\n/, 7);
  if (head.length === 7) return head;
  return splitFileLines(head.join('\n'));
}

/** The file's text when the review may read it: not too large, binary, generated or minified. */
export function readableText(root: string, file: ListedFile, maxFileBytes: number): string | undefined {
  try {
    const bytes = readFileSync(join(root, file.path));
    if (bytes.length > maxFileBytes || isBinary(bytes)) return undefined;
    const text = decodeText(bytes);
    const head = headLines(text);
    return looksGenerated(head) || looksMinified(head) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** A name as the segment keeps it: the lexical pass's words (a symbol's name with other characters is not looked up). */
const KEPT_NAME = /^[\w$]+$/;

/**
 * Adds blob `id` to `name`'s list. A name new to the map is copied: the matched word is a slice of its file's text
 * and would keep all of it alive.
 */
function addTo(map: Map<string, number[]>, name: string, id: number): void {
  const list = map.get(name);
  if (list) {
    if (list[list.length - 1] !== id) list.push(id);
  } else if (KEPT_NAME.test(name)) map.set((` ${name}`).slice(1), [id]);
}

/** Names read in this process and not saved yet: the blobs read (their place in `blobs` is their id), and by name the ids of those that may define and call it. */
export interface FreshNames {
  blobs: string[];
  ids: Map<string, number>;
  defines: Map<string, number[]>;
  calls: Map<string, number[]>;
}

export class FileNames {
  readonly fresh: FreshNames;
  /** Files read in this process to learn their names. */
  readCount = 0;
  /** Whether every listed file's names are known. */
  scanned = false;
  private readonly found = new Map<string, readonly ListedFile[]>();
  private byHash: Map<string, ListedFile[]> | undefined;

  /** `previous`: this process's names of the repository (an index opened again), whose unsaved names it takes over. */
  constructor(private readonly files: readonly ListedFile[], private segment: Segment | undefined, previous?: FileNames) {
    this.fresh = previous?.fresh ?? { blobs: [], ids: new Map(), defines: new Map(), calls: new Map() };
  }

  /** Reads on from `segment`, which holds every name read so far (the index was saved). */
  adopt(segment: Segment): void {
    this.segment = segment;
    this.fresh.blobs.length = 0;
    this.fresh.ids.clear();
    this.fresh.defines.clear();
    this.fresh.calls.clear();
    this.found.clear();
  }

  /** Whether the names of the blob are known. */
  knows(hash: string): boolean {
    return this.fresh.ids.has(hash) || this.segment?.idOf(hash) !== undefined;
  }

  /** Keeps the names of a blob not known yet, from its symbols (a reviewed file parsed before its names were read). */
  learn(hash: string, entry: IndexEntry): void {
    if (this.knows(hash)) return;
    const id = this.add(hash);
    if ('skipped' in entry) return;
    for (const d of entry.definitions) addTo(this.fresh.defines, d.name, id);
    for (const [n] of entry.calls) addTo(this.fresh.calls, n, id);
  }

  /** The fresh id of a blob whose names are being read. */
  private add(hash: string): number {
    const id = this.fresh.blobs.length;
    this.fresh.blobs.push(hash);
    this.fresh.ids.set(hash, id);
    this.found.clear();
    return id;
  }

  /**
   * Learns the names of every listed file not known yet (a few hundred at a time, yielding between them): from its
   * symbols when parsed, else read with `read`. False when the budget or `signal` stopped it first.
   */
  async scan(read: (file: ListedFile) => string | undefined, parsed: (hash: string) => IndexEntry | undefined, stop: { budget?: ContextBudget | undefined; signal?: AbortSignal | undefined }): Promise<boolean> {
    if (this.scanned) return true;
    let since = 0;
    for (const file of this.files) {
      if (this.knows(file.hash)) continue;
      if (stop.budget?.over || stop.signal?.aborted) return false;
      const symbols = parsed(file.hash);
      if (symbols) this.learn(file.hash, symbols);
      else {
        const text = read(file);
        const id = this.add(file.hash);
        this.readCount++;
        if (text !== undefined) {
          const names = lexicalNames(text, file.language);
          for (const n of names.defines) addTo(this.fresh.defines, n, id);
          for (const n of names.calls) addTo(this.fresh.calls, n, id);
        }
      }
      if (++since % 256 === 0) await new Promise((r) => setImmediate(r));
    }
    this.found.clear();
    this.scanned = true;
    return true;
  }

  /** The listed files whose content may define or call `name`, in path order. */
  candidates(of: 'defines' | 'calls', name: string): readonly ListedFile[] {
    const key = `${of} ${name}`;
    let out = this.found.get(key);
    if (!out) {
      const hashes = new Set((this.fresh[of].get(name) ?? []).map((id) => this.fresh.blobs[id] as string));
      const posting = this.segment?.posting(name);
      for (const id of posting?.[of] ?? []) hashes.add((this.segment as Segment).hash(id));
      this.byHash ??= this.listedByHash();
      out = [...hashes].flatMap((h) => this.byHash?.get(h) ?? []).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      this.found.set(key, out);
    }
    return out;
  }

  private listedByHash(): Map<string, ListedFile[]> {
    const map = new Map<string, ListedFile[]>();
    for (const file of this.files) {
      const list = map.get(file.hash);
      if (list) list.push(file);
      else map.set(file.hash, [file]);
    }
    return map;
  }
}
