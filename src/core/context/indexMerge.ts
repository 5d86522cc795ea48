import type { FreshNames } from './fileNames';
import type { Posting, Segment } from './segment';
import { writeSegment } from './segmentWriter';

/**
 * The index written again: the segments it was read from (this process's, and the one another process saved
 * meanwhile) and what this process learnt (names read, files parsed, identifiers kept), for the blobs listed now.
 * Names are merged in their order, posting list by posting list: no map of every name is built.
 */

interface IndexParts {
  /** Segments whose blobs and names are kept (for the blobs `keep` accepts). */
  segments: readonly Segment[];
  /** Names read in this process (those of blobs that define and call nothing too). */
  fresh: FreshNames;
  /** Symbols of blobs parsed or decoded in this process, as stored; undefined for one that cannot be written. */
  symbols(hash: string): string | undefined;
  used: ReadonlyMap<string, string>;
  keep(hash: string): boolean;
}

/** Each source's names in order, each with its posting list in the new ids (ascending). */
interface NameSource {
  readonly count: number;
  name(i: number): string;
  posting(i: number): Posting | undefined;
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
  return {
    count: segment.nameCount,
    name: (i) => segment.name(i),
    posting: (i) => {
      const p = segment.postingAt(i);
      return p && { defines: map(p.defines), calls: map(p.calls) };
    },
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

function* mergedNames(sources: readonly NameSource[]): Generator<[string, Posting]> {
  const at = sources.map(() => 0);
  const current = sources.map((s) => (s.count > 0 ? s.name(0) : undefined));
  for (;;) {
    let least: string | undefined;
    for (const name of current) if (name !== undefined && (least === undefined || name < least)) least = name;
    if (least === undefined) return;
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
  // The blobs in the order they were read: this segment's, another process's, then those read now.
  const all = new Set<string>();
  for (const segment of parts.segments) for (let id = 0; id < segment.blobCount; id++) all.add(segment.hash(id));
  for (const hash of parts.fresh.blobs) all.add(hash);
  const hashes = [...all].filter((h) => parts.keep(h));
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
  const sources = [...parts.segments.map((s) => segmentSource(s, newId)), freshSource(parts.fresh, newId)];
  const used = new Map<string, string>();
  for (const segment of parts.segments) for (const [key, value] of segment.used) used.set(key, value);
  for (const [key, value] of parts.used) used.set(key, value);
  for (const key of used.keys()) if (!newId.has(key.slice(0, key.indexOf(' ')))) used.delete(key);
  return writeSegment({ hashes, symbols, names: mergedNames(sources), used });
}
