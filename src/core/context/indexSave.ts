import type { ChosenContext } from './chosenMemo';
import type { FileNames } from './fileNames';
import { writeIndexFile } from './indexFile';
import { mergeIndex } from './indexMerge';
import type { ListedFile } from './listing';
import { Segment } from './segment';
import type { SymbolStore } from './symbolStore';

/** What an index saves: its names and symbols (read from its segments and learnt in this process), its memos, its listing. */
interface SavedIndex {
  names: FileNames;
  symbols: SymbolStore;
  used: ReadonlyMap<string, string>;
  chosen: ReadonlyMap<string, ChosenContext>;
  files: readonly ListedFile[];
}

/**
 * Writes the index into `file`, merged (under the lock) with what another process saved since this one read it; the
 * segment written, undefined when it could not be saved.
 */
export async function saveIndex(file: string, index: SavedIndex): Promise<Segment | undefined> {
  const listed = new Set(index.files.map((f) => f.hash));
  const mine = index.symbols.stored;
  const segments = await index.names.toSave();
  const body = await writeIndexFile(file, (disk) =>
    mergeIndex({
      segments: [...segments, ...(disk && !(mine && disk.equals(mine)) ? [disk] : [])],
      fresh: index.names.fresh,
      symbols: (hash) => index.symbols.encoded(hash),
      used: index.used,
      chosen: index.chosen,
      listed: (hash) => listed.has(hash),
    }),
  );
  return body && Segment.read(body);
}
