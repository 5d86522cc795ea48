import { RepositoryIndex } from './repoIndex';

/**
 * The repository indexes of this process: a long-lived process (the MCP server, the editor's extension host) opens
 * an index again for each review, listing the repository anew (one git process) but keeping every entry it read
 * or parsed before; a process of its own (the command line) reads the cache folder's. Entries are by blob hash, so
 * what changed in the working tree since is read again, nothing else.
 */

/** Indexes kept at most (the most recently used). */
const KEPT = 4;
const kept = new Map<string, RepositoryIndex>();

export async function openIndex(options: Parameters<typeof RepositoryIndex.open>[0]): Promise<RepositoryIndex | undefined> {
  const key = `${options.root}\0${options.cacheDir ?? ''}`;
  const index = await RepositoryIndex.open(options, kept.get(key));
  kept.delete(key);
  if (!index) return undefined;
  kept.set(key, index);
  for (const old of kept.keys()) if (kept.size > KEPT) kept.delete(old);
  return index;
}
