import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { scrubKey, scrubStrings } from '../redaction/redactor';
import type { AnswerStore, CachedAnswer } from './cache';
import { findingSchema } from '../domain/finding';

/**
 * Agent answers kept on disk across runs (the CLI's cache; CI jobs share it through a cached folder).
 *
 * One file per answer, `<dir>/answers-v1/<sha256 key>.json`, written to a temporary file and renamed into place,
 * so that a reader — in this process or any other — sees a whole entry or none, and many processes may write the
 * same or different keys at once. Reading an entry touches its modification time, which orders eviction: when the
 * folder grows past `maxBytes`, the least recently used entries go first. Files that are not entries (foreign
 * files, corrupted or truncated entries, entries of another format) are ignored and never served. Entries hold
 * the answer only: never the API key nor the gateway URL's credentials (given as `secrets`, they are replaced in
 * every stored string).
 */

export const DISK_CACHE_FOLDER = 'answers-v1';
const FORMAT = 'quorum-review-cache';
const VERSION = 1;
const KEY = /^[0-9a-f]{64}$/;
const ENTRY_NAME = /^([0-9a-f]{64})\.json$/;
const TEMP_NAME = /^[0-9a-f]{64}\.json\.[0-9a-f]+\.tmp$/;
/** Entries larger than this are not read (an answer is a few KB; the completion budget caps it far below). */
const MAX_ENTRY_BYTES = 8 * 1024 * 1024;
/** A temporary file older than this was left by a process that died before its rename. */
const STALE_TEMP_MS = 60 * 60_000;

const answerSchema = z.object({
  model: z.string().min(1),
  text: z.string(),
  findings: z.array(findingSchema),
  unparsed: z.boolean().optional(),
  improvedCode: z.string().optional(),
  replacements: z.array(z.object({ file: z.string(), startLine: z.number().int().positive(), endLine: z.number().int().positive(), code: z.string() })).optional(),
  rationale: z.string().optional(),
});

const entrySchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  key: z.string().regex(KEY),
  storedAt: z.number(),
  value: answerSchema,
});

interface DiskCacheOptions {
  /** The cache folder; entries go into its `answers-v1` sub-folder. */
  dir: string;
  /** Total size of the entries kept; least recently used ones are removed past it. Default 100 MB. */
  maxBytes?: number;
  /** Text that must never be written: the API key, the gateway URL's user name and password. */
  secrets?: readonly string[];
  now?: () => number;
}

interface DiskCacheStats {
  hits: number;
  misses: number;
  writes: number;
  /** Entries that could not be written (read-only or full disk): the review goes on without them. */
  writeErrors: number;
  evicted: number;
}

export class DiskCache implements AnswerStore {
  readonly folder: string;
  readonly stats: DiskCacheStats = { hits: 0, misses: 0, writes: 0, writeErrors: 0, evicted: 0 };
  private readonly maxBytes: number;
  private readonly secrets: string[];
  private readonly now: () => number;

  constructor(options: DiskCacheOptions) {
    this.folder = join(options.dir, DISK_CACHE_FOLDER);
    this.maxBytes = Math.max(0, options.maxBytes ?? 100 * 1024 * 1024);
    this.secrets = [...new Set((options.secrets ?? []).filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
    this.now = options.now ?? Date.now;
  }

  get(key: string, ttlMs: number): CachedAnswer | undefined {
    const entry = KEY.test(key) && ttlMs > 0 ? this.read(key) : undefined;
    if (!entry) {
      this.stats.misses += 1;
      return undefined;
    }
    const age = this.now() - entry.storedAt;
    if (age < 0 || age >= ttlMs) {
      this.stats.misses += 1;
      return undefined;
    }
    this.touch(key);
    this.stats.hits += 1;
    return entry.value;
  }

  set(key: string, value: CachedAnswer): void {
    if (!KEY.test(key)) return;
    const entry = { format: FORMAT, version: VERSION, key, storedAt: this.now(), value: this.scrub(value) };
    const file = this.pathOf(key);
    const temp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      writeFileSync(temp, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
      // The modification time is the last use, on the cache's clock (eviction compares it with touched entries).
      const t = new Date(entry.storedAt);
      utimesSync(temp, t, t);
      renameSync(temp, file);
      this.stats.writes += 1;
    } catch {
      this.stats.writeErrors += 1;
      removeQuietly(temp);
      return;
    }
    this.evict();
  }

  /** Removes the least recently used entries until the folder fits `maxBytes`, and temporary files left by dead processes. */
  evict(): void {
    let names: string[];
    try {
      names = readdirSync(this.folder);
    } catch {
      return;
    }
    const entries: { path: string; size: number; usedAt: number }[] = [];
    let total = 0;
    const now = this.now();
    for (const name of names) {
      const path = join(this.folder, name);
      if (TEMP_NAME.test(name)) {
        const info = statQuietly(path);
        if (info && now - info.mtimeMs > STALE_TEMP_MS) removeQuietly(path);
        continue;
      }
      if (!ENTRY_NAME.test(name)) continue;
      const info = statQuietly(path);
      if (!info) continue;
      entries.push({ path, size: info.size, usedAt: info.mtimeMs });
      total += info.size;
    }
    if (total <= this.maxBytes) return;
    entries.sort((a, b) => a.usedAt - b.usedAt);
    for (const e of entries) {
      if (total <= this.maxBytes) break;
      if (removeQuietly(e.path)) this.stats.evicted += 1;
      total -= e.size;
    }
  }

  private pathOf(key: string): string {
    return join(this.folder, `${key}.json`);
  }

  private read(key: string): z.infer<typeof entrySchema> | undefined {
    try {
      const path = this.pathOf(key);
      if (statSync(path).size > MAX_ENTRY_BYTES) return undefined;
      const parsed = entrySchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      return parsed.success && parsed.data.key === key ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private touch(key: string): void {
    try {
      const t = new Date(this.now());
      utimesSync(this.pathOf(key), t, t);
    } catch {
      // Evicted or replaced meanwhile: the answer read is still whole.
    }
  }

  /** `value` with every secret replaced, as it is written to disk. */
  private scrub(value: unknown): unknown {
    return this.secrets.length === 0 ? value : scrubStrings(value, (t) => scrubKey(t, this.secrets));
  }
}

/** The secrets of a gateway URL: its user name and password, decoded and as written. */
export function urlSecrets(url: string): string[] {
  try {
    const u = new URL(url);
    return [u.username, u.password, safeDecode(u.username), safeDecode(u.password)].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function statQuietly(path: string): { size: number; mtimeMs: number } | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

function removeQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
