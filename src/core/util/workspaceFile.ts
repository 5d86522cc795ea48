import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';

/** Why a path named by a page or a model is not opened. */
type WorkspaceFileRefusal = 'outside' | 'missing';

/** Whether `path` is `folder` or lies under it (both absolute, same platform). */
function isUnder(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The absolute path of `file`, a path relative to `base`, when it names an existing file inside one of `folders`
 * (the workspace folders) — as written and once symbolic links are followed. Anything else is refused: an absolute
 * path, a `..` that climbs out, a link that points out, a file that is not there.
 */
export async function workspaceFile(base: string, file: string, folders: readonly string[]): Promise<{ path: string } | { refused: WorkspaceFileRefusal }> {
  if (file === '' || file.includes('\0') || isAbsolute(file) || /^[A-Za-z]:|^[\\/]/.test(file)) return { refused: 'outside' };
  const path = resolve(base, file);
  if (!folders.some((f) => isUnder(resolve(f), path))) return { refused: 'outside' };
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { refused: 'missing' };
  }
  const realFolders = await Promise.all(folders.map((f) => realpath(f).catch(() => resolve(f))));
  return realFolders.some((f) => isUnder(f, real)) ? { path } : { refused: 'outside' };
}
