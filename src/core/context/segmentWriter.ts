import type { ChosenContext } from './chosenMemo';
import type { Posting, SegmentSizes } from './segment';

/** Writes a segment (segment.ts): its blobs, each one's symbols, the names' posting lists and the identifiers kept. */

/** Bytes appended to a buffer that grows as needed. */
class Bytes {
  private buffer = Buffer.allocUnsafe(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }

  text(s: string, encoding: 'utf8' | 'latin1'): void {
    this.room(Buffer.byteLength(s, encoding));
    this.length += this.buffer.write(s, this.length, encoding);
  }

  varint(n: number): void {
    this.room(5);
    let v = n;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.length++] = v;
  }

  u32(n: number): void {
    this.room(4);
    this.length = this.buffer.writeUInt32LE(n, this.length);
  }

  get content(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function ids(out: Bytes, list: readonly number[]): void {
  let last = -1;
  for (const id of list) {
    out.varint(last < 0 ? id : id - last);
    last = id;
  }
}

interface SegmentParts {
  /** The blobs' hashes, hex, each once: a blob's place is its id. */
  hashes: readonly string[];
  /** Blob `id`'s symbols as stored; undefined when not parsed. */
  symbols(id: number): Uint8Array | string | undefined;
  /** Each name (ASCII, ascending, once) with its blobs by id (ascending), or its posting list as stored; a name no blob may define or call is left out. */
  names: Iterable<[string, Posting | Uint8Array]>;
  used: ReadonlyMap<string, string>;
  chosen: ReadonlyMap<string, ChosenContext>;
}

/** The body of an index file holding `parts`. */
export function writeSegment(parts: SegmentParts): Buffer {
  const symbolEnds = new Bytes();
  const symbols = new Bytes();
  parts.hashes.forEach((_, id) => {
    const s = parts.symbols(id);
    if (typeof s === 'string') symbols.text(s, 'utf8');
    else if (s) symbols.bytes(s);
    symbolEnds.u32(symbols.length);
  });
  const hashBytes = Buffer.from(parts.hashes.join(''), 'hex');
  const nameEnds = new Bytes();
  const postingEnds = new Bytes();
  const names = new Bytes();
  const postings = new Bytes();
  let nameCount = 0;
  for (const [name, posting] of parts.names) {
    if (posting instanceof Uint8Array) postings.bytes(posting);
    else {
      if (posting.defines.length === 0 && posting.calls.length === 0) continue;
      postings.varint(posting.defines.length);
      ids(postings, posting.defines);
      ids(postings, posting.calls);
    }
    names.text(name, 'latin1');
    nameEnds.u32(names.length);
    postingEnds.u32(postings.length);
    nameCount++;
  }
  const memo = Buffer.from(JSON.stringify({ used: Object.fromEntries(parts.used), chosen: Object.fromEntries(parts.chosen) }));
  const sizes: SegmentSizes = { blobs: parts.hashes.length, names: nameCount, symbolBytes: symbols.length, nameBytes: names.length, postingBytes: postings.length, memoBytes: memo.length };
  return Buffer.concat([Buffer.from(`${JSON.stringify(sizes)}\n`), hashBytes, symbolEnds.content, nameEnds.content, postingEnds.content, symbols.content, names.content, postings.content, memo]);
}
