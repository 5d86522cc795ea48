import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { scrubKey } from '../redaction/redactor';
import { withFileLock } from './lock';
import { outcomeRecordSchema, type OutcomeRecord } from './record';

/**
 * The outcome store of one repository: `<cache folder>/outcomes-v1/<hash of the root>.jsonl`, one JSON snapshot of
 * a record per line, the last snapshot of an id winning. Several processes share the folder (the fleet): every
 * write appends whole lines (O_APPEND, one write) under a lock file, so two writers at once lose nothing. A line
 * that is not a valid record (a torn write, a hand edit) is reported and the file rebuilt from the valid lines;
 * reading never throws.
 */

const OUTCOMES_FOLDER = 'outcomes-v1';

interface OutcomeRead {
  /** The latest snapshot of every record, in the order they were first written. */
  records: OutcomeRecord[];
  /** Lines that were not valid records: reported, and left out of the rebuilt file. */
  corrupt: number;
  /** The store could not be rebuilt or read (the records read are still given). */
  problem?: string;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The store's file for a repository root under a cache folder (the root as the file system names it, links resolved). */
export function outcomePath(dir: string, root: string): string {
  let real = root;
  try {
    real = realpathSync.native(root);
  } catch {
    // A root that is not there (any more) is known by the name given.
  }
  return join(dir, OUTCOMES_FOLDER, `${sha(real).slice(0, 32)}.jsonl`);
}

function parseLines(raw: string): { records: Map<string, OutcomeRecord>; valid: string[]; corrupt: number } {
  const records = new Map<string, OutcomeRecord>();
  const valid: string[] = [];
  let corrupt = 0;
  for (const line of raw.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      corrupt++;
      continue;
    }
    const parsed = outcomeRecordSchema.safeParse(json);
    if (!parsed.success) {
      corrupt++;
      continue;
    }
    records.delete(parsed.data.id);
    records.set(parsed.data.id, parsed.data);
    valid.push(line);
  }
  return { records, valid, corrupt };
}

/** Whether the file ends in a line break (a torn last line does not): the next write starts on a line of its own. */
function endsInBreak(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

export class OutcomeStore {
  readonly path: string;
  private readonly secrets: string[];

  constructor(options: { dir: string; root: string; secrets?: readonly (string | undefined)[] } | { path: string }) {
    this.path = 'path' in options ? options.path : outcomePath(options.dir, options.root);
    this.secrets = 'path' in options ? [] : (options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length > 0);
  }

  /** The store in the file `path` (to read it: `readOutcomeFolder`). */
  static atPath(path: string): OutcomeStore {
    return new OutcomeStore({ path });
  }

  private lock<T>(work: () => T): T {
    mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    return withFileLock(`${this.path}.lock`, work);
  }

  /** Every record's latest snapshot; a store with invalid lines is reported (`corrupt`) and rebuilt from the valid ones. */
  read(): OutcomeRead {
    let raw: string;
    try {
      raw = readFileSync(this.path, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? { records: [], corrupt: 0 } : { records: [], corrupt: 0, problem: `cannot read ${this.path}: ${code ?? String(e)}` };
    }
    const first = parseLines(raw);
    if (first.corrupt === 0) return { records: [...first.records.values()], corrupt: 0 };
    try {
      // Under the lock, read again (another writer may have appended since) and write the valid lines back.
      const rebuilt = this.lock(() => {
        const again = parseLines(readFileSync(this.path, 'utf8'));
        const temp = `${this.path}.${process.pid}.rebuild`;
        writeFileSync(temp, again.valid.map((l) => `${l}\n`).join(''), { mode: 0o600 });
        renameSync(temp, this.path);
        return again;
      });
      return { records: [...rebuilt.records.values()], corrupt: rebuilt.corrupt };
    } catch (e) {
      return { records: [...first.records.values()], corrupt: first.corrupt, problem: `cannot rebuild ${this.path}: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  /** Appends snapshots (one write, under the lock); false when they could not be written (nothing else is affected). */
  append(records: readonly OutcomeRecord[]): boolean {
    if (records.length === 0) return true;
    const body = records.map((r) => JSON.stringify(outcomeRecordSchema.parse({ ...r, title: scrubKey(r.title, this.secrets), ...(r.reason !== undefined ? { reason: scrubKey(r.reason, this.secrets) } : {}) })) + '\n').join('');
    try {
      this.lock(() => {
        const fd = openSync(this.path, 'a+', 0o600);
        try {
          writeSync(fd, endsInBreak(fd) ? body : `\n${body}`);
        } finally {
          closeSync(fd);
        }
      });
      return true;
    } catch {
      return false;
    }
  }
}

/** Every record of every repository's store in a cache folder (the editor's storage of one workspace). */
export function readOutcomeFolder(dir: string): OutcomeRead {
  let names: string[];
  try {
    names = readdirSync(join(dir, OUTCOMES_FOLDER)).filter((n) => /^[0-9a-f]{32}\.jsonl$/.test(n));
  } catch {
    return { records: [], corrupt: 0 };
  }
  const all: OutcomeRead = { records: [], corrupt: 0 };
  for (const name of names.sort()) {
    const read = OutcomeStore.atPath(join(dir, OUTCOMES_FOLDER, name)).read();
    all.records.push(...read.records);
    all.corrupt += read.corrupt;
    if (read.problem) all.problem = read.problem;
  }
  return all;
}
