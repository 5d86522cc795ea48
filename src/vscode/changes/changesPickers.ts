import * as vscode from 'vscode';
import type { ChangeKind, ChangeRequest } from '../../core/changes/types';
import { escapeIcons } from '../../shared/untrustedText';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import { GitRefType, readRefs, type GitRepository } from './gitApi';

/** The quick picks of "Quorum: Review Changes…": which changes, and for a comparison, against which ref. */

type KindItem = vscode.QuickPickItem & { change: ChangeKind };

/** A ref offered in the quick pick; without `ref`, the item that asks for one to be typed. */
type RefItem = vscode.QuickPickItem & { ref?: string };

interface PickerDeps {
  prompter: Prompter;
  log: QuorumLog;
}

/** Which changes of `repository` to review (for a comparison, a branch or tag from its refs, or one typed in); `hidden`: untracked files are left out. */
export async function pickChangeRequest(deps: PickerDeps, repository: GitRepository, hidden: boolean): Promise<ChangeRequest | undefined> {
  const items: KindItem[] = [
    {
      change: 'uncommitted',
      label: `$(git-commit) ${vscode.l10n.t('Uncommitted changes')}`,
      detail: hidden ? vscode.l10n.t('Working tree and index against HEAD; untracked files left out (git.untrackedChanges is hidden)') : vscode.l10n.t('Working tree and index against HEAD, untracked files included'),
    },
    { change: 'staged', label: `$(diff-added) ${vscode.l10n.t('Staged changes')}`, detail: vscode.l10n.t('Index against HEAD, numbered as in the index') },
    {
      change: 'ref',
      label: `$(git-branch) ${vscode.l10n.t('Against a branch or tag…')}`,
      detail: vscode.l10n.t('From the merge base with HEAD to the working tree: what a pull request would show, plus what is not committed') + (hidden ? ` ${vscode.l10n.t('(untracked files left out: git.untrackedChanges is hidden)')}` : ''),
    },
    { change: 'last-commit', label: `$(history) ${vscode.l10n.t('Last commit')}`, detail: vscode.l10n.t('HEAD~1..HEAD') },
  ];
  const kind = await deps.prompter.pick(items, { id: 'changes.kind', placeHolder: vscode.l10n.t('Which changes should Quorum review?') });
  if (!kind) return undefined;
  if (kind.change !== 'ref') return { kind: kind.change };
  const ref = await pickRef(deps, repository);
  return ref ? { kind: 'ref', ref } : undefined;
}

/** A branch, tag or remote branch of the repository (most recent first), or one typed in. */
async function pickRef(deps: PickerDeps, repository: GitRepository): Promise<string | undefined> {
  let refs: { name: string; type: number; commit?: string }[] = [];
  try {
    refs = readRefs(await repository.getRefs({ sort: 'committerdate' })).flatMap((r) => (r.name ? [{ name: r.name, type: r.type, ...(r.commit ? { commit: r.commit } : {}) }] : []));
  } catch (error) {
    deps.log.warn(`Could not list the repository's refs: ${error instanceof Error ? error.message : String(error)}`);
  }
  const head = repository.state.HEAD?.name;
  const typeLabel = (t: number) => (t === GitRefType.Tag ? vscode.l10n.t('tag') : t === GitRefType.RemoteHead ? vscode.l10n.t('remote branch') : vscode.l10n.t('branch'));
  const typed: RefItem = { label: `$(edit) ${vscode.l10n.t('Enter a branch, tag or commit…')}`, alwaysShow: true };
  const items = [
    ...refs.filter((r) => r.name !== head).map((r): RefItem => ({
      label: escapeIcons(r.name),
      description: `${typeLabel(r.type)}${r.commit ? ` · ${r.commit.slice(0, 8)}` : ''}`,
      ref: r.name,
      alwaysShow: false,
    })),
    typed,
  ];
  const picked = await deps.prompter.pick(items, { id: 'changes.ref', placeHolder: vscode.l10n.t('Review the changes against which branch or tag?'), matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.ref !== undefined) return picked.ref;
  const input = await deps.prompter.input({
    id: 'changes.refInput',
    prompt: vscode.l10n.t('A branch, tag or commit to compare with (from its merge base with HEAD)'),
    validateInput: (v) => (v.trim() === '' || v.trim().startsWith('-') ? vscode.l10n.t('Enter a branch, tag or commit.') : undefined),
  });
  return input?.trim() || undefined;
}
