import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorCode } from '../../shared/guards';
import { INDEX_VERSION, isEntry, isNames, isUsed, storeSchema } from './indexStore';

/**
 * The repository index as one file in the cache folder (`context/<key of the root>.json`), safe for a fleet of
 * processes on one cache folder and for a process killed half-way:
 * - the first line says what follows: `quorum-context-index <version> <bytes> <sha256>` of the JSON body; a file
 *   whose body is shorter, longer or other than that (a torn write, a half-restored CI cache, a disk error) is not
 *   read at all: the index is rebuilt, never taken from it;
 * - a writer writes a temporary file of its own and renames it over the index (atomic on one file system), under a
 *   lock file, after merging what another process saved since: two writers lose neither's entries;
 * - a lock left by a killed process is taken over once it is older than STALE_LOCK_MS; a writer that cannot get the
 *   lock in LOCK_WAIT_MS does not save (the index is a cache: the next run parses again).
 */

const MAGIC = 'quorum-context-index';
const LOCK_WAIT_MS = 3000;
const STALE_LOCK_MS = 30_000;

/** What the file holds: each blob's symbols and names as stored (see indexStore.ts), by blob hash. */
interface StoredIndex {
  blobs: Map<string, string>;
  names: Map<string, string>;
  used: Map<string, string>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The file's text for these entries: the header line, then the JSON body. */
export function encodeIndexFile(stored: StoredIndex): string {
  const body = JSON.stringify({ version: INDEX_VERSION, blobs: Object.fromEntries(stored.blobs), names: Object.fromEntries(stored.names), used: Object.fromEntries(stored.used) });
  return `${MAGIC} ${INDEX_VERSION} ${Buffer.byteLength(body)} ${sha256(body)}\n${body}`;
}

/** The entries of a file's text; undefined when its header does not match its body (torn, damaged) or its version is another. An entry without the form of one is left out on its own. */
export function decodeIndexFile(text: string): StoredIndex | undefined {
  const cut = text.indexOf('\n');
  const header = /^quorum-context-index (\d+) (\d+) ([0-9a-f]{64})$/.exec(text.slice(0, cut));
  if (!header || Number(header[1]) !== INDEX_VERSION) return undefined;
  const body = text.slice(cut + 1);
  if (Buffer.byteLength(body) !== Number(header[2]) || sha256(body) !== header[3]) return undefined;
  let parsed;
  try {
    parsed = storeSchema.safeParse(JSON.parse(body));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const blobs = new Map(Object.entries(parsed.data.blobs).filter(([, e]) => isEntry(e)));
  const names = new Map(Object.entries(parsed.data.names).filter(([, e]) => isNames(e)));
  const used = new Map(Object.entries(parsed.data.used).filter(([, e]) => isUsed(e)));
  return { blobs, names, used };
}

/** The index kept in `file`; undefined when there is none or it cannot be trusted. */
export async function readIndexFile(file: string): Promise<StoredIndex | undefined> {
  try {
    return decodeIndexFile(await readFile(file, 'utf8'));
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
 * Saves `mine` into `file`: under the lock, what the file holds now (another process's work) is merged in for the
 * blobs `keep` accepts (the files listed now), then written whole to a temporary file and renamed over it. False
 * when it could not be saved.
 */
export async function writeIndexFile(file: string, mine: StoredIndex, keep: (hash: string) => boolean): Promise<boolean> {
  const lockFile = `${file}.lock`;
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch {
    return false;
  }
  if (!(await lock(lockFile))) return false;
  const tmp = join(dirname(file), `.${randomBytes(6).toString('hex')}.${process.pid}.tmp`);
  try {
    const disk = await readIndexFile(file);
    const merged: StoredIndex = { blobs: new Map(), names: new Map(), used: new Map() };
    for (const part of ['blobs', 'names', 'used'] as const) {
      // `used` is keyed by "<blob hash> <ranges>".
      for (const [key, entry] of disk?.[part] ?? []) if (keep(key.split(' ')[0] ?? key)) merged[part].set(key, entry);
      for (const [hash, entry] of mine[part]) merged[part].set(hash, entry);
    }
    await writeFile(tmp, encodeIndexFile(merged));
    await rename(tmp, file);
    return true;
  } catch {
    await unlink(tmp).catch(() => undefined);
    return false;
  } finally {
    await unlink(lockFile).catch(() => undefined);
  }
}
