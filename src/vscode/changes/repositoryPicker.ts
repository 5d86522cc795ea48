import * as vscode from 'vscode';
import { escapeIcons } from '../../shared/untrustedText';
import type { Prompter } from '../prompter';
import { messageWithSettings } from '../windowPrompter';
import { chooseRepository } from './changesDecisions';
import { lookUpGitApi, type GitApi, type GitRepository } from './gitApi';

/**
 * Which repository a review of changes reads: the one a Source Control view's button or a picked file belongs
 * to, the only one open, or the one the user picks when several are (multi-root, nested repositories). When
 * the Git extension is missing or disabled, or no repository is open, says so with what to do.
 */
export class RepositoryPicker {
  private override: GitApi | undefined;

  constructor(private readonly prompter: Prompter) {}

  /** Tests: use this API object instead of the Git extension's (`undefined` goes back to the extension). */
  useGitApi(api: GitApi | undefined): void {
    this.override = api;
  }

  async api(): Promise<GitApi | undefined> {
    if (this.override) return this.override;
    const found = await lookUpGitApi();
    if (found.ok) return found.api;
    const text =
      found.problem === 'disabled'
        ? vscode.l10n.t('Quorum reviews changes through the built-in Git extension, and Git is disabled. Turn on the setting git.enabled, then try again.')
        : found.problem === 'missing'
          ? vscode.l10n.t('Quorum reviews changes through the built-in Git extension (vscode.git), which is not available here. Enable it in the Extensions view (search @builtin git), then try again.')
          : vscode.l10n.t('The built-in Git extension did not start, so Quorum cannot read the changes. Check the Git output channel, then try again.');
    await messageWithSettings(this.prompter, 'warning', text, `changes.git.${found.problem}`, found.problem === 'disabled' ? 'git.enabled' : undefined);
    return undefined;
  }

  /** The repository that holds `uri` (a Source Control view's root, a picked file), or the one to use. */
  async pick(api: GitApi, hint?: vscode.Uri): Promise<GitRepository | undefined> {
    const choice = chooseRepository(api.repositories, hint);
    if ('repository' in choice) return choice.repository;
    if (choice.kind === 'none') {
      const open = vscode.l10n.t('Open Folder');
      const choice = await this.prompter.message(
        'info',
        vscode.l10n.t('There is no Git repository open. Open a folder that is a Git repository (or initialize one in the Source Control view), then run Quorum: Review Changes… again.'),
        { id: 'changes.noRepository' },
        open,
      );
      if (choice === open) await vscode.commands.executeCommand('vscode.openFolder');
      return undefined;
    }
    const items = choice.repositories.map((repository) => ({
      label: escapeIcons(repository.rootUri.path.split('/').filter(Boolean).pop() ?? repository.rootUri.fsPath),
      description: escapeIcons(vscode.workspace.asRelativePath(repository.rootUri, true)),
      repository,
    }));
    const picked = await this.prompter.pick(items, { id: 'changes.repository', placeHolder: vscode.l10n.t('Which repository\'s changes?'), matchOnDescription: true });
    return picked?.repository;
  }
}
