/** How near two files of a repository are, for the context: the reviewed file's own folder first, then its neighbours. */

/** Distances by path from each reviewed file (a review looks up dozens of names near each, among the same candidates). */
const fromFile = new Map<string, Map<string, number>>();
/** Reviewed files whose distances are kept at most. */
const KEPT = 64;

/** Directory distance between the folders of `near` and `path`: 0 in the same folder. */
function folderDistance(near: string, path: string): number {
  const a = near.split('/');
  const b = path.split('/');
  let i = 0;
  while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
  return a.length - 1 - i + (b.length - 1 - i);
}

/** Directory distance from `near` to a path (0 in the same folder), each worked out once. */
export function distanceFrom(near: string): (path: string) => number {
  let known = fromFile.get(near);
  if (!known) {
    if (fromFile.size >= KEPT) fromFile.clear();
    known = new Map();
    fromFile.set(near, known);
  }
  const distances = known;
  return (path) => {
    let d = distances.get(path);
    if (d === undefined) {
      d = folderDistance(near, path);
      distances.set(path, d);
    }
    return d;
  };
}

/**
 * The first `limit` of `files` (sorted by path) in the order the context ranks them for a file at `near`: as
 * definitions (`near` itself first, then by directory distance, then as listed) or as callers (by directory distance,
 * then by `localeCompare` of their paths), as select.ts ranks what it found. A lookup reads the nearest few of a
 * name's thousands of candidates: only the distances of all are worked out, and only the nearest are ordered.
 */
export function nearestFirst<T extends { path: string }>(files: readonly T[], near: string, as: 'definitions' | 'callers', limit: number): T[] {
  const distance = distanceFrom(near);
  const d = files.map((f) => (as === 'definitions' && f.path === near ? -1 : distance(f.path)));
  // The smallest distance within which `limit` files lie: only those are ordered.
  const counts = new Map<number, number>();
  for (const x of d) counts.set(x, (counts.get(x) ?? 0) + 1);
  let within = Infinity;
  let seen = 0;
  for (const x of [...counts.keys()].sort((p, q) => p - q)) {
    seen += counts.get(x) ?? 0;
    if (seen >= limit) {
      within = x;
      break;
    }
  }
  const nearest = files.map((file, i) => ({ file, i, d: d[i] ?? 0 })).filter((k) => k.d <= within);
  nearest.sort(as === 'definitions' ? (a, b) => a.d - b.d || a.i - b.i : (a, b) => a.d - b.d || a.file.path.localeCompare(b.file.path));
  return nearest.slice(0, limit).map((k) => k.file);
}
