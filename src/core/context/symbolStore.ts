import type { Definition, FileSymbols } from './extract';
import { decodeEntry, encodeEntry, type IndexEntry } from './indexStore';
import type { Segment } from './segment';
import { StoredEntry } from './storedEntry';

/**
 * The index's second level: each blob's symbols (what tree-sitter found in it), from the stored segment or parsed in
 * this process, both kept as stored (indexStore.ts) and read where they lie (storedEntry.ts): a first review of a
 * large repository parses a thousand files, whose symbols as objects held 50 MB.
 */
export class SymbolStore {
  /** Symbols parsed in this process, as stored, by blob hash. */
  private readonly parsed = new Map<string, string>();
  /** Stored entries read so far, by blob hash. */
  private readonly views = new Map<string, StoredEntry | 'skipped'>();
  /** Blobs whose stored symbols do not decode: parsed again. */
  private readonly broken = new Set<string>();
  /** Counts what changes an answer: a blob parsed or learnt, a stored entry found broken. */
  generation = 0;

  constructor(private segment: Segment | undefined) {}

  /** The segment the stored symbols are read from. */
  get stored(): Segment | undefined {
    return this.segment;
  }

  /** Reads on from `segment`, which holds what was parsed so far (the index was saved). */
  adopt(segment: Segment): void {
    this.segment = segment;
  }

  /** Whether the blob's symbols are known (parsed now, or stored and not found broken). */
  has(hash: string): boolean {
    if (this.views.has(hash)) return true;
    const id = this.broken.has(hash) ? undefined : this.segment?.idOf(hash);
    return id !== undefined && this.segment?.parsed(id) === true;
  }

  /** Keeps the symbols of a blob parsed now, as stored (`entry` encoded, or as a thread encoded it); false when they cannot be stored. */
  take(hash: string, entry: IndexEntry | string): boolean {
    const text = typeof entry === 'string' ? entry : encodeEntry(entry);
    const view = text === undefined ? undefined : StoredEntry.of(text);
    if (text === undefined || !view) return false;
    this.parsed.set(hash, text);
    this.views.set(hash, view);
    this.broken.delete(hash);
    this.generation++;
    return true;
  }

  /** Symbols parsed in this process (their names need no reading). */
  parsedNow(hash: string): IndexEntry | undefined {
    const text = this.parsed.get(hash);
    return text === undefined ? undefined : decodeEntry(text);
  }

  /** The blob's entry as it is to be written (undefined: not parsed in this process). */
  encoded(hash: string): string | undefined {
    return this.parsed.get(hash);
  }

  /** The stored entry of a blob, read on first use; one that does not decode is dropped (its file is parsed again). */
  private view(hash: string): StoredEntry | 'skipped' | undefined {
    const known = this.views.get(hash);
    if (known) return known;
    const id = this.broken.has(hash) ? undefined : this.segment?.idOf(hash);
    const text = id === undefined ? undefined : this.segment?.symbols(id);
    if (text === undefined) return undefined;
    const view = StoredEntry.of(text);
    if (view) this.views.set(hash, view);
    else {
      this.broken.add(hash);
      this.generation++;
    }
    return view;
  }

  /** The blob's definitions named `name`. */
  definitionsNamed(hash: string, name: string): Definition[] {
    const view = this.view(hash);
    return view && view !== 'skipped' ? view.definitionsNamed(name) : [];
  }

  /** The lines of the blob that call `name`. */
  callLines(hash: string, name: string): number[] {
    const view = this.view(hash);
    return view && view !== 'skipped' ? view.callLines(name) : [];
  }

  /** All of the blob's symbols; undefined when not known or not read (skipped). */
  symbols(hash: string): FileSymbols | undefined {
    const view = this.view(hash);
    return view && view !== 'skipped' ? view.symbols() : undefined;
  }
}
