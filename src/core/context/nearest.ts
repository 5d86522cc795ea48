/** How near two files of a repository are, for the context: the reviewed file's own folder first, then its neighbours. */

/** Directory distance between two paths: 0 in the same folder. */
export function distance(a: string, b: string): number {
  const pa = a.split('/').slice(0, -1);
  const pb = b.split('/').slice(0, -1);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.length - i + (pb.length - i);
}

/**
 * `files` (sorted by path) in the order the context ranks them for a file at `near`: as definitions (`near` itself
 * first, then by directory distance, then as listed) or as callers (by directory distance, then by `localeCompare`
 * of their paths), as select.ts ranks what it found.
 */
export function nearestFirst<T extends { path: string }>(files: readonly T[], near: string, as: 'definitions' | 'callers'): T[] {
  const folders = new Map<string, number>();
  const from = near.split('/').slice(0, -1);
  // Files of one folder are as near as each other: the distance is worked out once per folder.
  const folderDistance = (path: string) => {
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
  const keyed = files.map((file, i) => ({ file, i, d: as === 'definitions' && file.path === near ? -1 : folderDistance(file.path) }));
  keyed.sort(as === 'definitions' ? (a, b) => a.d - b.d || a.i - b.i : (a, b) => a.d - b.d || a.file.path.localeCompare(b.file.path));
  return keyed.map((k) => k.file);
}
