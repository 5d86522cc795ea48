import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * The default cache folder of the command line, the MCP server and the editor's context index: `$XDG_CACHE_HOME/quorum` (the XDG base-directory spec ignores a relative
 * value), else `~/.cache/quorum`.
 */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg && isAbsolute(xdg)) return join(xdg, 'quorum');
  const home = env.HOME?.trim() || homedir();
  return join(home, '.cache', 'quorum');
}
