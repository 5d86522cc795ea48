import { join } from 'node:path';
import type { Excluder } from '../prompt/exclude';
import type { ChosenContext } from './chosenMemo';
import { indexKey } from './indexKey';
import type { SymbolStore } from './symbolStore';
import type { UsedIdentifiers } from './usedIdentifiers';

/** What a repository index (repoIndex.ts) is opened with, where it is kept, and what it holds besides its listing. */

export interface IndexOptions {
  root: string;
  /** Where the index is kept (a `context` folder is made in it); undefined keeps it in memory only. */
  cacheDir: string | undefined;
  excluder: Excluder;
  maxFileBytes: number;
}

/** Unparsed files a repository may have and still be parsed whole on its first lookup. */
export const SMALL_REPOSITORY = 64;
/** What an index holds besides its listing: kept when this process opens the repository's index again. */
export interface IndexState {
  /** Symbols, identifiers kept and context chosen (chosenMemo.ts); whether any is not saved yet. */
  symbols: SymbolStore;
  used: UsedIdentifiers;
  chosen: Map<string, ChosenContext>;
  dirty: boolean;
}

/** The index file of the repository at `options.root` in the cache folder; undefined without one. */
export function storeFile(options: IndexOptions): string | undefined {
  return options.cacheDir ? join(options.cacheDir, 'context', `${indexKey(options.root)}.idx`) : undefined;
}
