/** How near two files of a repository are, for the context: the reviewed file's own folder first, then its neighbours. */

/** Distances by path from each reviewed file (a review looks up dozens of names near each, among the same candidates). */
const fromFile = new Map<string, Map<string, number>>();
/** Reviewed files whose distances are kept at most. */
const KEPT = 64;

/** Folders in `path` (its slashes). */
function depth(path: string): number {
  let n = 0;
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) n++;
  return n;
}

/** Directory distance between the folders of `near` and `path` (0 in the same folder), without splitting either. */
function folderDistance(near: string, nearDepth: number, path: string): number {
  // Folders both paths start with: each '/' up to which they are the same.
  let common = 0;
  for (let i = 0; i < near.length && i < path.length && near[i] === path[i]; i++) if (near[i] === '/') common++;
  return nearDepth - common + (depth(path) - common);
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
  const nearDepth = depth(near);
  return (path) => {
    let d = distances.get(path);
    if (d === undefined) {
      d = folderDistance(near, nearDepth, path);
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
  const d = new Int32Array(files.length);
  // How many files lie at each distance (a handful of distances), then the smallest distance within which `limit` do.
  const counts: number[] = [];
  files.forEach((f, i) => {
    const x = as === 'definitions' && f.path === near ? 0 : distance(f.path) + 1;
    d[i] = x;
    counts[x] = (counts[x] ?? 0) + 1;
  });
  let within = counts.length;
  for (let x = 0, seen = 0; x < counts.length; x++) {
    seen += counts[x] ?? 0;
    if (seen >= limit) {
      within = x;
      break;
    }
  }
  const nearest: { file: T; i: number; d: number }[] = [];
  files.forEach((file, i) => {
    if ((d[i] ?? 0) <= within) nearest.push({ file, i, d: d[i] ?? 0 });
  });
  nearest.sort(as === 'definitions' ? (a, b) => a.d - b.d || a.i - b.i : (a, b) => a.d - b.d || a.file.path.localeCompare(b.file.path));
  return nearest.slice(0, limit).map((k) => k.file);
}
