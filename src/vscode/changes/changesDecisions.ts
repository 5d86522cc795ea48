import type { ChangeRequest } from '../../core/changes/types';
import type { SkippedFile } from '../../core/domain/target';

/**
 * What the changes commands decide, apart from how they ask and say it: which group picked files belong to and
 * what they review, which repository a command reads, when a review of many files asks first, and why there is
 * nothing to review. Plain TypeScript (no `vscode` at run time), unit-tested without VS Code; the commands turn
 * each answer into a quick pick, a question or a message.
 */

/** The Source Control view's group a file was picked in: Staged Changes, or Changes / Untracked Changes. */
export type ScmGroup = 'index' | 'working-tree';

const CHANGES_KEY_PREFIX = 'quorum-changes:';

/** A changes review's panel key (`ChangesTarget.key()`), from its query. */
export function changesKey(params: URLSearchParams): string {
  return CHANGES_KEY_PREFIX + params.toString();
}

/** The query of a changes review's key; undefined for other keys. */
export function changesKeyParams(key: string): URLSearchParams | undefined {
  return isChangesKey(key) ? new URLSearchParams(key.slice(CHANGES_KEY_PREFIX.length)) : undefined;
}

/** Whether a panel's key names a review of changes. */
export function isChangesKey(key: string): boolean {
  return key.startsWith(CHANGES_KEY_PREFIX);
}

/**
 * The group a resource state of the Git extension belongs to (its `resourceGroupType`: 0 merge, 1 index,
 * 2 working tree, 3 untracked); undefined for other states.
 */
export function groupOfState(state: object): ScmGroup | undefined {
  const type = 'resourceGroupType' in state ? state.resourceGroupType : undefined;
  return type === 1 ? 'index' : type === 2 || type === 3 ? 'working-tree' : undefined;
}

/**
 * What files picked in the Source Control view review: their staged changes when every one was picked in Staged
 * Changes, else their uncommitted changes (which include what is staged; `mixed` says both groups were picked).
 * `path` is the file's repository-relative path (undefined outside the repository: left out); each file once.
 */
export function pickedFilesReview(picks: readonly { group: ScmGroup; path: string | undefined }[]): { request: ChangeRequest; only: string[]; mixed: boolean } {
  const staged = picks.length > 0 && picks.every((p) => p.group === 'index');
  return {
    request: { kind: staged ? 'staged' : 'uncommitted' },
    only: [...new Set(picks.flatMap((p) => p.path ?? []))],
    mixed: !staged && picks.some((p) => p.group === 'index'),
  };
}

/** A repository's root as the picker compares it (a `vscode.Uri`). */
interface RootLike {
  toString(): string;
  readonly path: string;
}

/** Which repository a command reads: the one holding the hint, the only one, none, or one the user picks. */
type RepositoryChoice<R> = { kind: 'holding' | 'only'; repository: R } | { kind: 'none' } | { kind: 'ask'; repositories: R[] };

/**
 * The repository that holds `hint` (a Source Control view's root, a picked file; the innermost of nested
 * repositories), else the only one open; none open, or several and no hint inside one: the user is asked.
 */
export function chooseRepository<R extends { readonly rootUri: RootLike }>(repositories: readonly R[], hint?: { toString(): string }): RepositoryChoice<R> {
  if (hint) {
    const at = hint.toString();
    const holding = repositories
      .filter((r) => at === r.rootUri.toString() || at.startsWith(r.rootUri.toString().replace(/\/?$/, '/')))
      .sort((a, b) => b.rootUri.path.length - a.rootUri.path.length)[0];
    if (holding) return { kind: 'holding', repository: holding };
  }
  const [only] = repositories;
  if (!only) return { kind: 'none' };
  return repositories.length === 1 ? { kind: 'only', repository: only } : { kind: 'ask', repositories: [...repositories] };
}

/** Skipped files named in the many-files question; the rest are counted. */
export const NAMED_SKIPPED = 8;

/**
 * Above `quorum.changes.confirmOverFiles` files (0: never) a review of changes asks first: the skipped files it
 * names (at most `NAMED_SKIPPED`) and how many more there are. Undefined when it goes ahead without asking.
 */
export function manyFilesQuestion(files: number, skipped: readonly SkippedFile[], limit: number): { named: SkippedFile[]; more: number } | undefined {
  if (limit <= 0 || files <= limit) return undefined;
  return { named: skipped.slice(0, NAMED_SKIPPED), more: Math.max(0, skipped.length - NAMED_SKIPPED) };
}

/**
 * Why a set of changes holds nothing to review: the files skipped (every changed file was; none: there are no
 * changes), and whether to add that untracked files were left out (`git.untrackedChanges` hidden, for the
 * requests that would have included them). Undefined when there is something to review.
 */
export function nothingToReview(set: { files: readonly unknown[]; skipped: readonly SkippedFile[] }, request: ChangeRequest, untrackedHidden: boolean): { skipped: readonly SkippedFile[]; untrackedLeftOut: boolean } | undefined {
  if (set.files.length > 0) return undefined;
  return { skipped: set.skipped, untrackedLeftOut: untrackedHidden && (request.kind === 'uncommitted' || request.kind === 'ref') };
}
