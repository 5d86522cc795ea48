import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { languageOfFile } from '../domain/fileLanguage';
import { run as runGit } from '../changes/gitCli';
import { skipByName } from '../changes/skip';
import type { Excluder } from '../prompt/exclude';
import { grammarOf } from '../syntax/languages';

/**
 * The files the repository index may hold, with their blob hashes: only files the review may send (a language with a
 * grammar, not excluded by `.quorumignore` or the privacy globs, not a lockfile). One git process lists a repository;
 * a folder outside git is walked and hashed as git would.
 */

/** Files of a folder outside git that the index lists at most. */
const MAX_FOLDER_FILES = 2000;

/** A file the index may hold: its path, blob hash and language. */
export interface ListedFile {
  path: string;
  hash: string;
  language: string;
}

interface Listing {
  /** Sorted by path. */
  files: ListedFile[];
  /** False for a folder outside git. */
  git: boolean;
}

/** The blob hash git gives these bytes (`git hash-object`). */
export function blobHash(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * The output of `git ls-files -t -s -m -o -z`: the blob hash of each index entry (a submodule left out), and the
 * paths changed in the working tree (modified, deleted: tagged `C`) or untracked (`?`), whose content is hashed
 * as it is now.
 */
function readListing(out: Buffer): { hashes: Map<string, string>; changed: Set<string> } {
  const hashes = new Map<string, string>();
  const changed = new Set<string>();
  for (const line of out.toString('utf8').split('\0')) {
    if (line === '') continue;
    // "? path" for an untracked file; "T mode hash stage<TAB>path" for an index entry, T its tag.
    if (line.startsWith('? ')) {
      changed.add(line.slice(2));
      continue;
    }
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [tag, mode, hash] = line.slice(0, tab).split(' ');
    const path = line.slice(tab + 1);
    if (tag === 'C') changed.add(path);
    else if (mode !== '160000' && hash) hashes.set(path, hash);
  }
  return { hashes, changed };
}

/** The file hashed as git would; undefined when it cannot be read (deleted, gone while listed). */
async function hashed(root: string, path: string, language: string): Promise<ListedFile | undefined> {
  try {
    return { path, hash: blobHash(await readFile(join(root, path))), language };
  } catch {
    return undefined;
  }
}

const byPath = (a: ListedFile, b: ListedFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function mayHold(path: string, excluder: Excluder): string | undefined {
  const language = languageOfFile(path);
  if (!grammarOf(language) || skipByName(path) || excluder.match(path)) return undefined;
  return language;
}

/**
 * Lists a repository's files with git's blob hashes for clean files and computed ones for changed files. One git
 * process lists them all (`ls-files -t`: each index entry tagged, a changed or deleted one listed again as `C`, an
 * untracked one as `?`); outside git, the folder. Undefined when neither can be read.
 */
export async function listFiles(root: string, excluder: Excluder): Promise<Listing | undefined> {
  let listed: Buffer;
  try {
    listed = await runGit(root, ['-c', 'core.quotePath=false', 'ls-files', '-t', '-s', '-m', '-o', '--exclude-standard', '-z']);
  } catch {
    return listFolder(root, excluder);
  }
  const { hashes, changed } = readListing(listed);
  const files: ListedFile[] = [];
  for (const [path, hash] of hashes) {
    if (changed.has(path)) continue;
    const language = mayHold(path, excluder);
    if (language) files.push({ path, hash, language });
  }
  // A changed file by its content now (one deleted in the working tree is gone).
  await Promise.all(
    [...changed].map(async (path) => {
      const language = mayHold(path, excluder);
      const file = language && (await hashed(root, path, language));
      if (file) files.push(file);
    }),
  );
  return { files: files.sort(byPath), git: true };
}

/** Outside git (a folder of its own, like an eval case): its files (hidden folders and node_modules left out, at most MAX_FOLDER_FILES), each hashed as git would. */
async function listFolder(root: string, excluder: Excluder): Promise<Listing | undefined> {
  let entries: string[];
  try {
    entries = (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
      .filter((p) => !p.split('/').some((part) => part.startsWith('.') || part === 'node_modules'));
  } catch {
    return undefined;
  }
  const files: ListedFile[] = [];
  for (const path of entries.slice(0, MAX_FOLDER_FILES)) {
    const language = mayHold(path, excluder);
    const file = language && (await hashed(root, path, language));
    if (file) files.push(file);
  }
  return { files: files.sort(byPath), git: false };
}
