import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorCode } from '../../shared/guards';
import { INDEX_VERSION } from './indexStore';
import { Segment } from './segment';

/**
 * The repository index as one file in the cache folder (`context/<key>.idx`, indexKey.ts), safe for a fleet of
 * processes on one cache folder and for a process killed half-way:
 * - the first line says what follows: `quorum-context-index <version> <bytes> <sha256>` of the body (segment.ts); a
 *   file whose body is shorter, longer or other than that (a torn write, a half-restored CI cache, a disk error) is
 *   not read at all: the index is rebuilt, never taken from it;
 * - a writer writes a temporary file of its own and renames it over the index (atomic on one file system), under a
 *   lock file, after merging what another process saved since: two writers lose neither's entries;
 * - a lock left by a killed process is taken over once it is older than STALE_LOCK_MS; a writer that cannot get the
 *   lock in LOCK_WAIT_MS does not save (the index is a cache: the next run reads and parses again).
 */

const MAGIC = 'quorum-context-index';
const LOCK_WAIT_MS = 3000;
const STALE_LOCK_MS = 30_000;
const HEADER = /^quorum-context-index (\d+) (\d+) ([0-9a-f]{64})$/;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The file's bytes for a body: the header line, then the body. */
export function encodeIndexFile(body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${MAGIC} ${INDEX_VERSION} ${body.length} ${sha256(body)}\n`), body]);
}

/** The segment of a file's bytes; undefined when its header does not match its body (torn, damaged), its version is another or its body is not a segment. */
export function decodeIndexFile(bytes: Buffer): Segment | undefined {
  const cut = bytes.indexOf(0x0a);
  if (cut < 0 || cut > 200) return undefined;
  const header = HEADER.exec(bytes.toString('latin1', 0, cut));
  if (!header || Number(header[1]) !== INDEX_VERSION) return undefined;
  const body = bytes.subarray(cut + 1);
  if (body.length !== Number(header[2]) || sha256(body) !== header[3]) return undefined;
  return Segment.read(body);
}

/** The index kept in `file`; undefined when there is none or it cannot be trusted. */
export async function readIndexFile(file: string): Promise<Segment | undefined> {
  try {
    return decodeIndexFile(await readFile(file));
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes the lock beside `file`; false when another writer holds it for longer than LOCK_WAIT_MS. */
async function lock(path: string): Promise<boolean> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await open(path, 'wx')).close();
      return true;
    } catch (e) {
      if (errorCode(e) !== 'EEXIST') return false;
    }
    try {
      if (Date.now() - (await stat(path)).mtimeMs > STALE_LOCK_MS) await unlink(path);
    } catch {
      // Released meanwhile.
    }
    if (Date.now() > until) return false;
    await sleep(10 + Math.random() * 20);
  }
}

/**
 * Saves into `file` the body `merge` makes of what the file holds now (another process's work, or undefined when
 * there is none or it cannot be trusted): under the lock, to a temporary file renamed over it. The body written, or
 * undefined when it could not be saved.
 */
export async function writeIndexFile(file: string, merge: (disk: Segment | undefined) => Buffer): Promise<Buffer | undefined> {
  const lockFile = `${file}.lock`;
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch {
    return undefined;
  }
  if (!(await lock(lockFile))) return undefined;
  const tmp = join(dirname(file), `.${randomBytes(6).toString('hex')}.${process.pid}.tmp`);
  try {
    const body = merge(await readIndexFile(file));
    await writeFile(tmp, encodeIndexFile(body));
    await rename(tmp, file);
    return body;
  } catch {
    await unlink(tmp).catch(() => undefined);
    return undefined;
  } finally {
    await unlink(lockFile).catch(() => undefined);
  }
}
