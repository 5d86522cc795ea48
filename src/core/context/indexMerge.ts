import { CHOSEN_KEPT, type ChosenContext } from './chosenMemo';
import type { FreshNames } from './freshNames';
import type { Posting, Segment } from './segment';
import { writeSegment } from './segmentWriter';

/**
 * The index written again: the segments it was read from (the stored one, those the scanning thread read, the one
 * another process saved meanwhile) and what this process learnt (names read, files parsed, identifiers kept). Names
 * are merged in their order, posting list by posting list: no map of every name is built. The first segment's blobs
 * keep their ids and the new ones come after them, so a name only it has is copied as it is (a review on the next
 * commit rewrites the lists of the names its changed files hold, and copies the rest). Blobs no longer listed are
 * kept (another checkout sharing the file may list them) until they outnumber the listed ones; then the index is
 * written without them.
 */

interface IndexParts {
  /** Segments whose blobs and names are kept (for the blobs `keep` accepts). */
  segments: readonly Segment[];
  /** Names read in this process (those of blobs that define and call nothing too). */
  fresh: FreshNames;
  /** Symbols of blobs parsed or decoded in this process, as stored; undefined for one that cannot be written. */
  symbols(hash: string): string | undefined;
  used: ReadonlyMap<string, string>;
  /** Context chosen in this process (chosenMemo.ts), oldest first. */
  chosen: ReadonlyMap<string, ChosenContext>;
  /** Whether the blob is listed in this checkout now. */
  listed(hash: string): boolean;
}

/** Each source's names in order, each with its posting list in the new ids (ascending). */
interface NameSource {
  readonly count: number;
  name(i: number): string;
  posting(i: number): Posting | undefined;
  /** The posting list as stored, when the new ids are the source's own. */
  raw?(i: number): Uint8Array;
}

/** `ids` in the new ids (those dropped left out), ascending; sorted only when `remap` does not keep their order. */
function remapped(ids: readonly number[], remap: Int32Array, ordered: boolean): number[] {
  const out: number[] = [];
  for (const id of ids) {
    const n = remap[id] ?? -1;
    if (n >= 0) out.push(n);
  }
  return ordered ? out : out.sort((a, b) => a - b);
}

/** Whether `remap` keeps the order of the ids it keeps. */
function keepsOrder(remap: Int32Array): boolean {
  let last = -1;
  for (const n of remap) {
    if (n < 0) continue;
    if (n < last) return false;
    last = n;
  }
  return true;
}

/** The union of ascending id lists, ascending, each id once. */
function union(lists: readonly (readonly number[])[]): number[] {
  if (lists.length === 1) return [...(lists[0] as readonly number[])];
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

function segmentSource(segment: Segment, newId: ReadonlyMap<string, number>): NameSource {
  const remap = Int32Array.from({ length: segment.blobCount }, (_, id) => newId.get(segment.hash(id)) ?? -1);
  const ordered = keepsOrder(remap);
  const map = (ids: readonly number[]) => remapped(ids, remap, ordered);
  const same = remap.every((n, id) => n === id);
  return {
    count: segment.nameCount,
    name: (i) => segment.name(i),
    posting: (i) => {
      const p = segment.postingAt(i);
      return p && { defines: map(p.defines), calls: map(p.calls) };
    },
    ...(same ? { raw: (i: number) => segment.rawPosting(i) } : {}),
  };
}

function freshSource(fresh: FreshNames, newId: ReadonlyMap<string, number>): NameSource {
  const names = [...fresh.defines.keys()];
  for (const name of fresh.calls.keys()) if (!fresh.defines.has(name)) names.push(name);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const remap = Int32Array.from(fresh.blobs, (h) => newId.get(h) ?? -1);
  const ordered = keepsOrder(remap);
  const map = (ids: readonly number[] | undefined) => remapped(ids ?? [], remap, ordered);
  return { count: names.length, name: (i) => names[i] as string, posting: (i) => ({ defines: map(fresh.defines.get(names[i] as string)), calls: map(fresh.calls.get(names[i] as string)) }) };
}

function* mergedNames(sources: readonly NameSource[]): Generator<[string, Posting | Uint8Array]> {
  const at = sources.map(() => 0);
  const current = sources.map((s) => (s.count > 0 ? s.name(0) : undefined));
  for (;;) {
    let least: string | undefined;
    let holders = 0;
    for (const name of current) {
      if (name === undefined) continue;
      if (least === undefined || name < least) {
        least = name;
        holders = 1;
      } else if (name === least) holders++;
    }
    if (least === undefined) return;
    const only = holders === 1 ? current.indexOf(least) : -1;
    const source = sources[only];
    if (source?.raw) {
      const i = at[only] as number;
      yield [least, source.raw(i)];
      at[only] = i + 1;
      current[only] = i + 1 < source.count ? source.name(i + 1) : undefined;
      continue;
    }
    const defines: number[][] = [];
    const calls: number[][] = [];
    sources.forEach((s, k) => {
      if (current[k] !== least) return;
      const i = at[k] as number;
      const p = s.posting(i);
      if (p) {
        defines.push(p.defines);
        calls.push(p.calls);
      }
      at[k] = i + 1;
      current[k] = i + 1 < s.count ? s.name(i + 1) : undefined;
    });
    yield [least, { defines: union(defines), calls: union(calls) }];
  }
}

/** The body of the index holding `parts`. */
export function mergeIndex(parts: IndexParts): Buffer {
  // The blobs in the order they were read: the first segment's, the others', then those read now.
  const all = new Set<string>();
  for (const segment of parts.segments) for (let id = 0; id < segment.blobCount; id++) all.add(segment.hash(id));
  for (const hash of parts.fresh.blobs) all.add(hash);
  let hashes = [...all];
  const listed = hashes.filter((h) => parts.listed(h));
  if (listed.length * 2 < hashes.length) hashes = listed;
  const newId = new Map(hashes.map((h, id) => [h, id]));
  const symbols = (id: number) => {
    const hash = hashes[id] as string;
    const mine = parts.symbols(hash);
    if (mine !== undefined) return mine;
    for (const segment of parts.segments) {
      const old = segment.idOf(hash);
      const bytes = old === undefined ? undefined : segment.symbolBytes(old);
      if (bytes && bytes.length > 0) return bytes;
    }
    return undefined;
  };
  const sources = [...parts.segments.map((s) => segmentSource(s, newId)), ...(parts.fresh.blobs.length > 0 ? [freshSource(parts.fresh, newId)] : [])];
  const used = new Map<string, string>();
  for (const segment of parts.segments) for (const [key, value] of segment.used) used.set(key, value);
  for (const [key, value] of parts.used) used.set(key, value);
  for (const key of used.keys()) if (!newId.has(key.slice(0, key.indexOf(' ')))) used.delete(key);
  // The context chosen: the others' first, then this process's, the most recent CHOSEN_KEPT of them.
  const chosen = new Map<string, ChosenContext>();
  for (const memo of [...parts.segments.map((s) => s.chosen), parts.chosen]) {
    for (const [key, value] of memo) {
      chosen.delete(key);
      chosen.set(key, value);
    }
  }
  for (const key of [...chosen.keys()].slice(0, Math.max(0, chosen.size - CHOSEN_KEPT))) chosen.delete(key);
  return writeSegment({ hashes, symbols, names: mergedNames(sources), used, chosen });
}
