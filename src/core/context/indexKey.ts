import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * Which index file a repository uses in the cache folder: the same wherever it is checked out. A CI runner clones
 * into another folder on every job (GitLab's `/builds/<runner>/<n>/group/project`), so the folder's path would find
 * no index where the restored cache put it; the repository's `origin` (read from its git config, no process, its
 * credentials and `.git` left out) is the same in every job. A repository without one is known by its folder. The
 * entries are by blob hash, so two checkouts of one repository may well share one file (the lock keeps it whole).
 */

/** The git directory that holds the config of the repository at `root` (a worktree's `.git` file names its own; `commondir` leads to the shared one). */
function configFile(root: string): string | undefined {
  let dir = join(root, '.git');
  try {
    if (statSync(dir).isFile()) {
      const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dir, 'utf8'))?.[1]?.trim();
      if (!gitdir) return undefined;
      dir = isAbsolute(gitdir) ? gitdir : join(root, gitdir);
      try {
        const common = readFileSync(join(dir, 'commondir'), 'utf8').trim();
        dir = isAbsolute(common) ? common : join(dir, common);
      } catch {
        // Not a worktree: its own config.
      }
    }
    return join(dir, 'config');
  } catch {
    return undefined;
  }
}

/** The `url` of `[remote "origin"]` in a git config's text. */
function originUrl(config: string): string | undefined {
  let inOrigin = false;
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inOrigin = /^\[remote\s+"origin"\]$/.test(line);
    else if (inOrigin) {
      const url = /^url\s*=\s*(.+)$/.exec(line)?.[1]?.trim();
      if (url) return url;
    }
  }
  return undefined;
}

/** A remote's URL without scheme, credentials, port-less differences of case or `.git`: `host/path`. */
export function normalizeRemote(url: string): string {
  let rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  rest = rest.replace(/^[^@/]*@/, '');
  // scp-like `git@host:group/project`.
  if (!url.includes('://')) rest = rest.replace(/^([^/:]+):/, '$1/');
  const slash = rest.indexOf('/');
  const host = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash);
  return `${host.toLowerCase()}${path.replace(/\/+$/, '').replace(/\.git$/, '')}`;
}

/** The index file's name for the repository at `root` (16 hex digits). */
export function indexKey(root: string): string {
  const config = configFile(root);
  let origin: string | undefined;
  try {
    origin = config ? originUrl(readFileSync(config, 'utf8')) : undefined;
  } catch {
    origin = undefined;
  }
  const identity = origin ? `origin ${normalizeRemote(origin)}` : `folder ${root}`;
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}
