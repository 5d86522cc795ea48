import * as z from 'zod';
import { chosenMemoSchema, type ChosenContext } from './chosenMemo';
import { isUsed } from './indexStore';

/**
 * The repository index as kept on disk, read where it lies: a lookup reads the few names a change uses (a binary
 * search of a sorted table) and the symbols of the blobs it reaches, never the whole index into maps (10 MB of JSON
 * and the maps of every name took a warm review of spring-boot 1.7 s of CPU).
 *
 * The body (after the header line that indexFile.ts checks): one line of JSON, the sizes of the sections
 * (`segmentSizes`, checked by zod), then the sections:
 * - `hashes`: each blob's SHA-1, 20 bytes, each once: its place is its id (kept in the order the blobs were read,
 *   so that the posting lists of a segment written again need no sorting);
 * - `symbolEnds`, `nameEnds`, `postingEnds`: u32 little-endian ends of each blob's symbols (as indexStore.ts writes
 *   them; empty: not parsed), of each name, and of each name's posting list in the sections after;
 * - `symbols` (UTF-8), `names` (ASCII, ascending), `postings`, and `memo` (JSON, checked by zod: the identifiers on
 *   reviewed files' changed lines by `<blob hash> <ranges>`, and the context chosen for batches, chosenMemo.ts).
 * A posting list: the number of blobs that may define the name, then their ids, then the ids of the blobs that may
 * call it to the list's end; ids ascending, each written as the difference from the one before, in LEB128.
 * Every blob of the table had its names read: one that defines and calls nothing (or was not read) is in no list.
 */

const segmentSizes = z.object({
  blobs: z.number().int().min(0),
  names: z.number().int().min(0),
  symbolBytes: z.number().int().min(0),
  nameBytes: z.number().int().min(0),
  postingBytes: z.number().int().min(0),
  memoBytes: z.number().int().min(0),
});
export type SegmentSizes = z.infer<typeof segmentSizes>;

const HASH_BYTES = 20;
const memoSchema = z.object({ used: z.record(z.string(), z.string()), chosen: chosenMemoSchema });

/** The blobs that may define and call a name, by id. */
export interface Posting {
  defines: number[];
  calls: number[];
}

/** Reads LEB128 numbers from `bytes` between `at` and `end`; undefined past the end or for an overlong one. */
class Varints {
  constructor(private readonly bytes: Buffer, public at: number, private readonly end: number) {}

  get done(): boolean {
    return this.at >= this.end;
  }

  next(): number | undefined {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.at >= this.end) return undefined;
      const b = this.bytes[this.at++] as number;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    return undefined;
  }

  /** `count` ids (or those to the end), each the difference from the one before; undefined when one is not below `limit`. */
  ids(count: number, limit: number): number[] | undefined {
    const out: number[] = [];
    let id = -1;
    while (count > 0 ? out.length < count : !this.done) {
      const delta = this.next();
      if (delta === undefined || (out.length > 0 && delta === 0)) return undefined;
      id += out.length === 0 ? delta + 1 : delta;
      if (id >= limit) return undefined;
      out.push(id);
    }
    return out;
  }
}

export class Segment {
  private readonly hashAt: number;
  private readonly symbolEndAt: number;
  private readonly nameEndAt: number;
  private readonly postingEndAt: number;
  private readonly symbolsAt: number;
  private readonly namesAt: number;
  private readonly postingsAt: number;
  /** Identifiers on reviewed files' changed lines, by `<blob hash> <ranges>` (usedIdentifiers.ts). */
  readonly used: ReadonlyMap<string, string>;
  /** Context chosen for batches, by key (chosenMemo.ts), oldest first. */
  readonly chosen: ReadonlyMap<string, ChosenContext>;
  private ids = new Map<string, number>();

  private constructor(private readonly bytes: Buffer, start: number, readonly sizes: SegmentSizes, memo: { used: Map<string, string>; chosen: Map<string, ChosenContext> }) {
    this.hashAt = start;
    this.symbolEndAt = this.hashAt + sizes.blobs * HASH_BYTES;
    this.nameEndAt = this.symbolEndAt + sizes.blobs * 4;
    this.postingEndAt = this.nameEndAt + sizes.names * 4;
    this.symbolsAt = this.postingEndAt + sizes.names * 4;
    this.namesAt = this.symbolsAt + sizes.symbolBytes;
    this.postingsAt = this.namesAt + sizes.nameBytes;
    this.used = memo.used;
    this.chosen = memo.chosen;
  }

  /** The segment in `body`; undefined when its sizes, its tables' order or its offsets do not hold (never read as truth). */
  static read(body: Buffer): Segment | undefined {
    const cut = body.indexOf(0x0a);
    if (cut < 0) return undefined;
    let sizes: SegmentSizes;
    try {
      const parsed = segmentSizes.safeParse(JSON.parse(body.toString('utf8', 0, cut)));
      if (!parsed.success) return undefined;
      sizes = parsed.data;
    } catch {
      return undefined;
    }
    const start = cut + 1;
    const length = sizes.blobs * (HASH_BYTES + 4) + sizes.names * 8 + sizes.symbolBytes + sizes.nameBytes + sizes.postingBytes + sizes.memoBytes;
    if (body.length !== start + length) return undefined;
    let memo: { used: Map<string, string>; chosen: Map<string, ChosenContext> };
    try {
      const parsed = memoSchema.safeParse(JSON.parse(body.toString('utf8', body.length - sizes.memoBytes)));
      if (!parsed.success) return undefined;
      memo = { used: new Map(Object.entries(parsed.data.used).filter(([, v]) => isUsed(v))), chosen: new Map(Object.entries(parsed.data.chosen)) };
    } catch {
      return undefined;
    }
    const segment = new Segment(body, start, sizes, memo);
    return segment.wellFormed() ? segment : undefined;
  }

  /** Whether each blob is there once and every table's ends rise within its section. */
  private wellFormed(): boolean {
    const { blobs, names, symbolBytes, nameBytes, postingBytes } = this.sizes;
    const ids = new Map<string, number>();
    for (let i = 0; i < blobs; i++) ids.set(this.hash(i), i);
    if (ids.size !== blobs) return false;
    this.ids = ids;
    const rising = (at: number, count: number, max: number) => {
      let last = 0;
      for (let i = 0; i < count; i++) {
        const end = this.bytes.readUInt32LE(at + i * 4);
        if (end < last || end > max) return false;
        last = end;
      }
      return count === 0 || last === max;
    };
    return rising(this.symbolEndAt, blobs, symbolBytes) && rising(this.nameEndAt, names, nameBytes) && rising(this.postingEndAt, names, postingBytes);
  }

  /** The segment as stored (handed to a thread to merge). */
  get body(): Buffer {
    return this.bytes;
  }

  /** Whether `other` holds the same bytes (the file this process read is the one on disk still). */
  equals(other: Segment): boolean {
    return this.bytes.equals(other.bytes);
  }

  get blobCount(): number {
    return this.sizes.blobs;
  }

  get nameCount(): number {
    return this.sizes.names;
  }

  /** The hash of blob `id`, in hex. */
  hash(id: number): string {
    return this.bytes.toString('hex', this.hashAt + id * HASH_BYTES, this.hashAt + (id + 1) * HASH_BYTES);
  }

  /** The id of a blob by its hash; undefined when the segment does not hold it. */
  idOf(hash: string): number | undefined {
    return this.ids.get(hash);
  }

  private end(table: number, i: number): number {
    return i < 0 ? 0 : this.bytes.readUInt32LE(table + i * 4);
  }

  /** Whether blob `id` was parsed (its symbols are kept). */
  parsed(id: number): boolean {
    return this.end(this.symbolEndAt, id) > this.end(this.symbolEndAt, id - 1);
  }

  /** Blob `id`'s symbols as stored; undefined when it was not parsed. */
  symbols(id: number): string | undefined {
    const start = this.end(this.symbolEndAt, id - 1);
    const end = this.end(this.symbolEndAt, id);
    return end > start ? this.bytes.toString('utf8', this.symbolsAt + start, this.symbolsAt + end) : undefined;
  }

  /** Blob `id`'s symbols as stored, as bytes (copied when the index is written again). */
  symbolBytes(id: number): Buffer {
    return this.bytes.subarray(this.symbolsAt + this.end(this.symbolEndAt, id - 1), this.symbolsAt + this.end(this.symbolEndAt, id));
  }

  /** Name `i` of the table (ascending). */
  name(i: number): string {
    return this.bytes.toString('latin1', this.namesAt + this.end(this.nameEndAt, i - 1), this.namesAt + this.end(this.nameEndAt, i));
  }

  /** The blobs that may define and call `name`; undefined when none may (or its list does not decode). */
  posting(name: string): Posting | undefined {
    let lo = 0;
    let hi = this.sizes.names - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.name(mid);
      if (at === name) return this.postingAt(mid);
      if (at < name) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The posting list of name `i` as stored (copied when the index is written again with the same ids). */
  rawPosting(i: number): Buffer {
    return this.bytes.subarray(this.postingsAt + this.end(this.postingEndAt, i - 1), this.postingsAt + this.end(this.postingEndAt, i));
  }

  /** The posting list of name `i`. */
  postingAt(i: number): Posting | undefined {
    const reader = new Varints(this.bytes, this.postingsAt + this.end(this.postingEndAt, i - 1), this.postingsAt + this.end(this.postingEndAt, i));
    const count = reader.next();
    if (count === undefined) return undefined;
    const defines = count === 0 ? [] : reader.ids(count, this.sizes.blobs);
    const calls = reader.done ? [] : reader.ids(0, this.sizes.blobs);
    return defines && calls ? { defines, calls } : undefined;
  }
}
