import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText, isBinary, looksGenerated, looksMinified, splitFileLines } from '../changes/skip';
import type { ContextBudget } from './budget';
import { encodeNames, namesOf, type IndexEntry } from './indexStore';
import { lexicalNames } from './lexical';
import type { ListedFile } from './listing';

/**
 * The index's first level: what each blob may define and call (lexical.ts), for every listed file, and from it the
 * candidates of a lookup by name. Read in one pass in this process; a blob already known (stored, or parsed) is not
 * read again.
 */

type ByName = Map<string, ListedFile[]>;

function addTo(map: ByName, name: string, file: ListedFile): void {
  const list = map.get(name);
  if (!list) map.set(name, [file]);
  else if (list[list.length - 1] !== file) list.push(file);
}

/** The file's text when the review may read it: not too large, binary, generated or minified. */
export function readableText(root: string, file: ListedFile, maxFileBytes: number): string | undefined {
  try {
    const bytes = readFileSync(join(root, file.path));
    if (bytes.length > maxFileBytes || isBinary(bytes)) return undefined;
    const text = decodeText(bytes);
    const head = splitFileLines(text.slice(0, 20_000));
    return looksGenerated(head) || looksMinified(head) ? undefined : text;
  } catch {
    return undefined;
  }
}

export class FileNames {
  /** Each blob's names as stored (indexStore.ts). */
  readonly names = new Map<string, string>();
  /** Files read in this process to learn their names. */
  readCount = 0;
  /** Whether every listed file's names are known. */
  scanned = false;
  private lexical: { defines: ByName; calls: ByName } | undefined;

  /**
   * Learns the names of every file of `files` not known yet (a few hundred at a time, yielding between them): from
   * its symbols when parsed, else read with `read`. False when the budget or `signal` stopped it first.
   */
  async scan(files: readonly ListedFile[], read: (file: ListedFile) => string | undefined, parsed: (hash: string) => IndexEntry | undefined, stop: { budget?: ContextBudget | undefined; signal?: AbortSignal | undefined }): Promise<boolean> {
    if (this.scanned) return true;
    let since = 0;
    for (const file of files) {
      if (this.names.has(file.hash)) continue;
      if (stop.budget?.over || stop.signal?.aborted) return false;
      const symbols = parsed(file.hash);
      let names: string;
      if (symbols) names = encodeNames('skipped' in symbols ? undefined : { defines: symbols.definitions.map((d) => d.name), calls: symbols.calls.map(([n]) => n) });
      else {
        const text = read(file);
        names = encodeNames(text === undefined ? undefined : lexicalNames(text, file.language));
        this.readCount++;
      }
      this.names.set(file.hash, names);
      this.lexical = undefined;
      if (++since % 256 === 0) await new Promise((r) => setImmediate(r));
    }
    this.scanned = true;
    return true;
  }

  /** The files of `files` (sorted by path) that may define or call `name`, in path order; the map is made once. */
  candidates(files: readonly ListedFile[], of: 'defines' | 'calls', name: string): readonly ListedFile[] {
    if (!this.lexical) {
      const defines: ByName = new Map();
      const calls: ByName = new Map();
      for (const file of files) {
        const stored = this.names.get(file.hash);
        if (stored === undefined) continue;
        for (const n of namesOf(stored, 'defines')) addTo(defines, n, file);
        for (const n of namesOf(stored, 'calls')) addTo(calls, n, file);
      }
      this.lexical = { defines, calls };
    }
    return this.lexical[of].get(name) ?? [];
  }
}
