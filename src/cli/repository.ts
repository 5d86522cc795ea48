import { statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The repository a reviewed file belongs to: the nearest folder above it that holds `.git` or `.quorum`.
 * Its rules, agents and `.quorumignore` apply; paths in rules and ignore files are relative to it.
 */
export function findRepositoryRoot(file: string): string | undefined {
  let dir = dirname(resolve(file));
  for (;;) {
    for (const marker of ['.git', '.quorum']) {
      try {
        statSync(join(dir, marker));
        return dir;
      } catch {
        // not here
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `file` relative to `root` with `/` separators, or undefined when it is outside. */
export function relativeToRoot(root: string, file: string): string | undefined {
  const rel = relative(root, resolve(file));
  if (rel === '' || rel.startsWith('..') || resolve(rel) === rel) return undefined;
  return rel.split(sep).join('/');
}
