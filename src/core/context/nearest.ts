/** How near two files of a repository are, for the context: the reviewed file's own folder first, then its neighbours. */

/**
 * Directory distance from `near` to a path (0 in the same folder), worked out once per folder: a lookup ranks
 * hundreds of candidates against one reviewed file.
 */
export function distanceFrom(near: string): (path: string) => number {
  const folders = new Map<string, number>();
  const from = near.split('/').slice(0, -1);
  return (path) => {
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    let d = folders.get(folder);
    if (d === undefined) {
      const parts = folder.split('/').slice(0, -1);
      let i = 0;
      while (i < parts.length && i < from.length && parts[i] === from[i]) i++;
      d = parts.length - i + (from.length - i);
      folders.set(folder, d);
    }
    return d;
  };
}

/**
 * `files` (sorted by path) in the order the context ranks them for a file at `near`: as definitions (`near` itself
 * first, then by directory distance, then as listed) or as callers (by directory distance, then by `localeCompare`
 * of their paths), as select.ts ranks what it found.
 */
export function nearestFirst<T extends { path: string }>(files: readonly T[], near: string, as: 'definitions' | 'callers'): T[] {
  const folderDistance = distanceFrom(near);
  const keyed = files.map((file, i) => ({ file, i, d: as === 'definitions' && file.path === near ? -1 : folderDistance(file.path) }));
  keyed.sort(as === 'definitions' ? (a, b) => a.d - b.d || a.i - b.i : (a, b) => a.d - b.d || a.file.path.localeCompare(b.file.path));
  return keyed.map((k) => k.file);
}
