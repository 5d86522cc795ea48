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
 * `files` (sorted by path) by directory distance from a file at `near`, nearest first: as definitions (`near`
 * itself first, then each folder's files as listed) or as callers (`near` among the others; each folder's files to
 * be ordered by `localeCompare` of their paths, `byPath`, when a lookup reaches them), as select.ts ranks what it
 * found. A lookup reads the nearest few of a name's thousands of candidates: only the distances are worked out for
 * all of them.
 */
export function nearestGroups<T extends { path: string }>(files: readonly T[], near: string, as: 'definitions' | 'callers'): T[][] {
  const folderDistance = distanceFrom(near);
  const byDistance = new Map<number, T[]>();
  for (const file of files) {
    const d = as === 'definitions' && file.path === near ? -1 : folderDistance(file.path);
    const list = byDistance.get(d);
    if (list) list.push(file);
    else byDistance.set(d, [file]);
  }
  return [...byDistance.keys()].sort((a, b) => a - b).map((d) => byDistance.get(d) ?? []);
}

/** The order of callers at one distance. */
export const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
