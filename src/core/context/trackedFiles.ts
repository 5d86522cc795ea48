import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * How many files git tracks in the repository at `root`, from the header of its index file (git's
 * Documentation/gitformat-index.txt: the signature "DIRC", a 4-byte version, then the 4-byte number of entries, all
 * big-endian): twelve bytes read, no git process. Undefined when `root` has no readable index (not a repository's
 * top folder, a version git does not write).
 */
export function trackedFileCount(root: string): number | undefined {
  try {
    const header = Buffer.alloc(12);
    const fd = openSync(join(gitDir(root), 'index'), 'r');
    try {
      if (readSync(fd, header, 0, 12, 0) !== 12) return undefined;
    } finally {
      closeSync(fd);
    }
    const version = header.readUInt32BE(4);
    return header.toString('latin1', 0, 4) === 'DIRC' && version >= 2 && version <= 4 ? header.readUInt32BE(8) : undefined;
  } catch {
    return undefined;
  }
}

/** The repository's git folder: `.git`, or where a `.git` file points (a linked worktree, a submodule). */
function gitDir(root: string): string {
  const dotGit = join(root, '.git');
  if (statSync(dotGit).isDirectory()) return dotGit;
  const pointed = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
  if (!pointed) throw new Error('not a git folder');
  return isAbsolute(pointed) ? pointed : join(root, pointed);
}
