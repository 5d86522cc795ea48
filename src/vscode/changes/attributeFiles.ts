import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { RepositoryAttributeFiles } from '../../core/changes/attributes';
import { decodeText } from '../../core/changes/skip';
import { readConfigValue, type GitRepository } from './gitApi';

/**
 * The attribute files git reads for a whole repository besides its `.gitattributes`: `$GIT_DIR/info/attributes`
 * and the file `core.attributesFile` names. The extension never runs git itself: the setting comes from the Git
 * extension's API (`getConfig` reads the repository's own config, `getGlobalConfig` the user's), the files through
 * the workspace file system. Not seen: a `core.attributesFile` set only in the system config, in an included file
 * or in a worktree's own config (the API asks `git config --local` and `--global`, which do not follow includes).
 */

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return decodeText(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

const fileOrUnder = (base: vscode.Uri, path: string) => (isAbsolute(path) ? vscode.Uri.file(path) : vscode.Uri.joinPath(base, path));

/**
 * The git folder whose `info/` applies: `.git`, or the folder a `.git` file names (`gitdir: …`, a linked
 * worktree or a submodule), or that folder's `commondir` (a linked worktree shares its main repository's `info/`).
 */
async function commonGitDir(root: vscode.Uri): Promise<vscode.Uri | undefined> {
  const dotGit = vscode.Uri.joinPath(root, '.git');
  let gitDir = dotGit;
  try {
    if (((await vscode.workspace.fs.stat(dotGit)).type & vscode.FileType.File) !== 0) {
      const named = /^gitdir:\s*(.+?)\s*$/m.exec((await readText(dotGit)) ?? '')?.[1];
      if (!named) return undefined;
      gitDir = fileOrUnder(root, named);
    }
  } catch {
    return undefined;
  }
  const common = (await readText(vscode.Uri.joinPath(gitDir, 'commondir')))?.trim();
  return common ? fileOrUnder(gitDir, common) : gitDir;
}

/** Where `core.attributesFile` points (`~/` expanded, relative to the root), or git's default when it is not set. */
async function globalAttributesUri(repository: GitRepository): Promise<vscode.Uri | undefined> {
  const local = await readConfigValue(repository.getConfig?.('core.attributesFile'));
  const value = local || (await readConfigValue(repository.getGlobalConfig?.('core.attributesFile')));
  if (value) {
    if (value.startsWith('~/')) return vscode.Uri.joinPath(vscode.Uri.file(homedir()), value.slice(2));
    if (value.startsWith('~')) return undefined; // another user's home: not looked up
    return fileOrUnder(repository.rootUri, value);
  }
  const xdg = process.env.XDG_CONFIG_HOME;
  return xdg ? vscode.Uri.joinPath(vscode.Uri.file(xdg), 'git', 'attributes') : vscode.Uri.joinPath(vscode.Uri.file(homedir()), '.config', 'git', 'attributes');
}

export async function repositoryAttributeFiles(repository: GitRepository): Promise<RepositoryAttributeFiles> {
  const [global, info] = await Promise.all([
    globalAttributesUri(repository).then((uri) => (uri ? readText(uri) : undefined)),
    commonGitDir(repository.rootUri).then((dir) => (dir ? readText(vscode.Uri.joinPath(dir, 'info', 'attributes')) : undefined)),
  ]);
  return { ...(global !== undefined ? { global } : {}), ...(info !== undefined ? { info } : {}) };
}
