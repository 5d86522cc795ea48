import pLimit from 'p-limit';
import * as vscode from 'vscode';
import { attributesOf, type ChangeAttributes } from '../../core/changes/attributes';
import { headerPath } from '../../core/changes/gitPath';
import { decodeText } from '../../core/changes/skip';
import { unifiedDiffOfTexts } from '../../core/changes/textDiff';
import { BaseCommits } from '../../core/changes/baseCommit';
import type { ChangeRequest, DiffSource } from '../../core/changes/types';
import { relativePath } from '../privacy/promptShaper';
import { repositoryAttributeFiles } from './attributeFiles';
import { GitStatus, readBytes, readChanges, readCommit, readMergeBase, readPatch, type GitChange, type GitRepository } from './gitApi';

/** Git's empty tree: what a repository without commits is compared with. */
/** Git calls at once for one review's files. */
const PARALLEL = 4;


/**
 * The last commit as one argument of `git diff` (`diffWith` passes its ref through): `BASE..HEAD`. Not the API's
 * `diffBetween`, which asks for `BASE...HEAD`: that needs a merge base, and the empty tree (a first commit's
 * base) is a tree, not a commit.
 */
function lastCommitRange(base: string): string {
  return `${base}..HEAD`;
}

/** A changed file of the request, repository-relative. */
interface ListedChange {
  path: string;
  oldPath?: string;
  kind: 'added' | 'modified' | 'deleted' | 'renamed';
}

/**
 * The changes of a request through the built-in Git extension's API (the extension never runs git itself):
 * the list of changed files, then each file's patch, read by the same core parser as the command line's
 * `git diff`. A renamed file, which the API cannot diff across its two paths, is diffed from its two texts.
 */
export class GitApiSource implements DiffSource {
  readonly root: string;

  constructor(readonly repository: GitRepository) {
    this.root = repository.rootUri.fsPath;
  }

  /** A repository-relative path (forward slashes) of a URI in the repository; undefined outside it. */
  relative(uri: vscode.Uri): string | undefined {
    return relativePath(this.repository.rootUri, uri);
  }

  uriOf(path: string): vscode.Uri {
    return vscode.Uri.joinPath(this.repository.rootUri, ...path.split('/'));
  }

  private fsPath(path: string): string {
    return this.uriOf(path).fsPath;
  }

  private async commitOf(ref: string): Promise<{ hash: string; parents: string[] } | undefined> {
    try {
      return readCommit(await this.repository.getCommit(ref));
    } catch {
      return undefined;
    }
  }

  /** The commit (or empty tree) each request's changes start from, through the Git extension. */
  private readonly bases = new BaseCommits({
    head: async () => (this.repository.state.HEAD?.commit ? (await this.commitOf('HEAD'))?.hash : undefined),
    firstParent: async (commit) => (await this.commitOf(commit))?.parents[0],
    commit: async (ref) => (await this.commitOf(ref))?.hash,
    mergeBase: async (a, b) => readMergeBase(await this.repository.getMergeBase(a, b)),
  });

  /** The changed files of the request (tracked ones; untracked files come from `untracked`). */
  private async list(request: ChangeRequest, base: string): Promise<ListedChange[]> {
    const raw =
      request.kind === 'staged' ? await this.repository.diffIndexWith(base)
      : request.kind === 'last-commit' ? await this.repository.diffWith(lastCommitRange(base))
      : await this.repository.diffWith(base);
    const out: ListedChange[] = [];
    for (const c of readChanges(raw)) {
      const listed = this.listed(c);
      if (listed) out.push(listed);
    }
    return out;
  }

  private listed(c: GitChange): ListedChange | undefined {
    const path = this.relative(c.renameUri ?? c.uri);
    if (!path) return undefined;
    if (c.status === GitStatus.INDEX_RENAMED || c.status === GitStatus.INTENT_TO_RENAME) {
      const oldPath = this.relative(c.originalUri);
      return oldPath && oldPath !== path ? { path, oldPath, kind: 'renamed' } : { path, kind: 'modified' };
    }
    if (c.status === GitStatus.DELETED || c.status === GitStatus.INDEX_DELETED) return { path: this.relative(c.originalUri) ?? path, kind: 'deleted' };
    if (c.status === GitStatus.INDEX_ADDED) return { path, kind: 'added' };
    return { path, kind: 'modified' };
  }

  /** One file's patch, as git writes it (through the API), or made from its two texts for a rename. */
  private async patch(request: ChangeRequest, base: string, c: ListedChange): Promise<string> {
    if (c.kind === 'deleted') {
      const [a, b] = [headerPath(`a/${c.path}`), headerPath(`b/${c.path}`)];
      return `diff --git ${a} ${b}\ndeleted file mode 100644\n--- ${a}\n+++ /dev/null\n`;
    }
    if (c.kind === 'renamed' && c.oldPath) {
      const [before, after] = await Promise.all([this.bytes(base, c.oldPath), this.read(request, c.path)]);
      const binary = (b: Uint8Array | undefined) => !b || b.subarray(0, 8192).includes(0);
      if (binary(before) || binary(after) || !before || !after) {
        return `diff --git ${headerPath(`a/${c.oldPath}`)} ${headerPath(`b/${c.path}`)}\nrename from ${headerPath(c.oldPath)}\nrename to ${headerPath(c.path)}\n`;
      }
      return unifiedDiffOfTexts(c.oldPath, c.path, decodeText(before), decodeText(after));
    }
    const path = this.fsPath(c.path);
    const raw =
      request.kind === 'staged' ? await this.repository.diffIndexWith(base, path)
      : request.kind === 'last-commit' ? await this.repository.diffWith(lastCommitRange(base), path)
      : await this.repository.diffWith(base, path);
    const text = readPatch(raw);
    return text.endsWith('\n') || text === '' ? text : text + '\n';
  }

  /**
   * The extension's view of the repository (its untracked files) may lag behind the disk: its status is refreshed
   * once per source, before the diff and the untracked files (read at once) are taken.
   */
  private refreshed: Promise<void> | undefined;
  private refresh(): Promise<void> {
    this.refreshed ??= this.repository.status();
    return this.refreshed;
  }

  async diff(request: ChangeRequest): Promise<string> {
    await this.refresh();
    const base = await this.bases.of(request);
    const listed = await this.list(request, base);
    const limit = pLimit(PARALLEL);
    const patches = await Promise.all(listed.map((c) => limit(() => this.patch(request, base, c))));
    return patches.join('');
  }

  /**
   * Whether the user hid untracked files from the Source Control view (`git.untrackedChanges: hidden`): then they
   * are left out of the review too — Quorum does not send files the user chose not to see as changes.
   */
  untrackedHidden(): boolean {
    return vscode.workspace.getConfiguration('git', this.repository.rootUri).get<string>('untrackedChanges') === 'hidden';
  }

  async untracked(request: ChangeRequest): Promise<string[]> {
    if (request.kind === 'staged' || request.kind === 'last-commit' || this.untrackedHidden()) return [];
    await this.refresh();
    const { workingTreeChanges, untrackedChanges } = this.repository.state;
    const all = [...readChanges(workingTreeChanges), ...readChanges(untrackedChanges ?? [])];
    const paths = all.filter((c) => c.status === GitStatus.UNTRACKED).flatMap((c) => this.relative(c.uri) ?? []);
    return [...new Set(paths)];
  }

  private async bytes(ref: string, path: string): Promise<Uint8Array | undefined> {
    try {
      return readBytes(await this.repository.buffer(ref, this.fsPath(path)));
    } catch {
      return undefined;
    }
  }

  async read(request: ChangeRequest, path: string): Promise<Uint8Array | undefined> {
    if (request.kind === 'staged') return this.bytes('', path);
    if (request.kind === 'last-commit') return this.bytes('HEAD', path);
    try {
      return await vscode.workspace.fs.readFile(this.uriOf(path));
    } catch {
      return undefined;
    }
  }

  async symlinks(paths: readonly string[]): Promise<Set<string>> {
    const isLink = (p: string) => Promise.resolve(vscode.workspace.fs.stat(this.uriOf(p))).then((s) => (s.type & vscode.FileType.SymbolicLink) !== 0, () => false);
    const links = await Promise.all(paths.map(isLink));
    return new Set(paths.filter((_, i) => links[i]));
  }

  /**
   * From the `.gitattributes` files of the new side, root to each file's folder, with `core.attributesFile` below
   * them and `.git/info/attributes` above, as git reads them (the API has no `check-attr`): see `attributesOf` and
   * `attributeFiles.ts` for what is and is not read.
   */
  async attributes(paths: readonly string[], request: ChangeRequest): Promise<ChangeAttributes> {
    // The repository-wide files (git config reads, a stat) are read while the folders' files are.
    return attributesOf(paths, async (file) => {
      const bytes = await this.read(request, file);
      return bytes ? decodeText(bytes) : undefined;
    }, repositoryAttributeFiles(this.repository));
  }
}
