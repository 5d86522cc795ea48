import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText, isBinary, looksGenerated, looksMinified, splitFileLines } from '../changes/skip';
import type { IndexEntry } from './indexStore';
import { lexicalNames } from './lexical';

/**
 * Names read in this run and not saved yet: what each blob may define and call (lexical.ts, or its symbols when it
 * was parsed first), by name. Filled on the scanning thread (scanWorker.ts) or, without one, in this one.
 */

/** The blobs read (a blob's place in `blobs` is its id), and by name the ids of those that may define and call it, ascending. */
export interface FreshNames {
  blobs: string[];
  ids: Map<string, number>;
  defines: Map<string, number[]>;
  calls: Map<string, number[]>;
}

export const emptyFreshNames = (): FreshNames => ({ blobs: [], ids: new Map(), defines: new Map(), calls: new Map() });

/**
 * The lines of a text's first 20,000 characters as `splitFileLines` gives them, or (when there are more than six) the
 * first seven: all that `looksGenerated` (five) and `looksMinified` (whether there are more than five) read.
 */
function headLines(text: string): string[] {
  const head = text.slice(0, 20_000).split(/\r?\n/, 7);
  if (head.length === 7) return head;
  return splitFileLines(head.join('\n'));
}

/** The text of the file at `path` when the review may read it: not too large, binary, generated or minified. */
export function readableText(root: string, path: string, maxFileBytes: number): string | undefined {
  try {
    const bytes = readFileSync(join(root, path));
    if (bytes.length > maxFileBytes || isBinary(bytes)) return undefined;
    const text = decodeText(bytes);
    const head = headLines(text);
    return looksGenerated(head) || looksMinified(head) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** A name as the segment keeps it: the lexical pass's words (a symbol's name with other characters is not looked up). */
const KEPT_NAME = /^[\w$]+$/;

/**
 * Adds blob `id` to `name`'s list. A name new to the map is copied: the matched word is a slice of its file's text
 * and would keep all of it alive.
 */
function addTo(map: Map<string, number[]>, name: string, id: number): void {
  const list = map.get(name);
  if (list) {
    if (list[list.length - 1] !== id) list.push(id);
  } else if (KEPT_NAME.test(name)) map.set(` ${name}`.slice(1), [id]);
}

/** Keeps that blob `hash` may define and call `names` (none: not read); its id. */
export function addBlob(fresh: FreshNames, hash: string, names: { defines: Iterable<string>; calls: Iterable<string> } | undefined): number {
  const id = fresh.blobs.length;
  fresh.blobs.push(hash);
  fresh.ids.set(hash, id);
  for (const n of names?.defines ?? []) addTo(fresh.defines, n, id);
  for (const n of names?.calls ?? []) addTo(fresh.calls, n, id);
  return id;
}

/** The names of a file read now: its lexical names, none when it may not be read. */
export function readNames(root: string, file: { path: string; language: string }, maxFileBytes: number): { defines: string[]; calls: string[] } | undefined {
  const text = readableText(root, file.path, maxFileBytes);
  return text === undefined ? undefined : lexicalNames(text, file.language);
}

/** The names of a parsed blob: those of its symbols. */
export function symbolNames(entry: IndexEntry): { defines: string[]; calls: string[] } | undefined {
  return 'skipped' in entry ? undefined : { defines: entry.definitions.map((d) => d.name), calls: entry.calls.map(([n]) => n) };
}
