import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * How core reads a repository's own files (rules, project agents, `.quorumignore`): paths relative to the
 * repository root with `/` separators. The CLI reads the disk; the extension passes VS Code's workspace file
 * system; tests use temporary folders.
 */
export interface RepoFs {
  /** The file's text, or undefined when it does not exist (or is not a readable file). */
  readText(path: string): Promise<string | undefined>;
  /** Names of the entries of a folder, or an empty list when there is no such folder. */
  list(dir: string): Promise<string[]>;
}

/** Largest repository file Quorum reads as rules or an agent: more is not a prompt anyone wrote by hand. */
export const MAX_REPO_FILE_BYTES = 256 * 1024;

export function nodeRepoFs(root: string): RepoFs {
  return {
    async readText(path) {
      try {
        const bytes = await readFile(join(root, ...path.split('/')));
        if (bytes.length > MAX_REPO_FILE_BYTES || bytes.includes(0)) return undefined;
        return bytes.toString('utf8');
      } catch {
        return undefined;
      }
    },
    async list(dir) {
      try {
        return (await readdir(join(root, ...dir.split('/')), { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
      } catch {
        return [];
      }
    },
  };
}
