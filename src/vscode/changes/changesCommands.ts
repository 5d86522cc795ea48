import * as vscode from 'vscode';
import type { ChangeRequest } from '../../core/changes/types';
import type { ReviewSummary } from '../../core/domain/result';
import { field } from '../../shared/guards';
import type { PreparedTarget } from '../review/reviewTarget';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import type { SentPreview } from '../privacy/whatWillBeSent';
import type { ReviewController } from '../review/reviewController';
import { groupOfState, pickedFilesReview, type ScmGroup } from './changesDecisions';
import { pickChangeRequest } from './changesPickers';
import type { ChangesPreparation } from './changesPreparation';
import { ChangesTarget } from './changesTarget';
import { GitApiSource } from './gitApiSource';
import type { RepositoryPicker } from './repositoryPicker';

interface ChangesDeps {
  controller: ReviewController;
  prompter: Prompter;
  log: QuorumLog;
  repositories: RepositoryPicker;
  sent: SentPreview;
  /** Reads and plans the changes (also the controller's, for a panel's Re-run). */
  preparation: ChangesPreparation;
}

/**
 * "Quorum: Review Changes…" (palette and the Source Control view's title), "Review with Quorum" on changed
 * files in the Source Control view, and "Show What Will Be Sent" for changes: which changes (a quick pick; a
 * branch or tag from the repository's refs), read through the Git extension's API into the same core
 * collect/plan as the command line, then reviewed by the review controller like any other target.
 */
export class ChangesCommands {
  constructor(private readonly deps: ChangesDeps) {}

  /** "Quorum: Review Changes…": `scm` is the Source Control view's provider when run from its title. */
  async reviewChanges(scm?: unknown): Promise<ReviewSummary | undefined> {
    const chosen = await this.choose(rootOf(scm));
    if (!chosen) return undefined;
    return this.review(chosen.target, chosen.source, { noCache: false });
  }

  /**
   * "Review with Quorum" on files of the Source Control view. Picked in Staged Changes (`index`, the menu's
   * `scmResourceGroup == index`): their staged changes (index against HEAD, numbered as in the index); in
   * Changes or Untracked (`working-tree`): their uncommitted changes. The Git extension's resource states also
   * say their own group (`resourceGroupType`), which tells a selection that spans both groups: that one is
   * reviewed as uncommitted changes (they include what is staged), and the user is told so.
   */
  async reviewFiles(group: ScmGroup, states: readonly unknown[]): Promise<ReviewSummary | undefined> {
    const picks = states.flat().flatMap((s): { uri: vscode.Uri; group: ScmGroup }[] => {
      if (s instanceof vscode.Uri) return [{ uri: s, group }];
      if (typeof s !== 'object' || s === null || !('resourceUri' in s) || !(s.resourceUri instanceof vscode.Uri)) return [];
      return [{ uri: s.resourceUri, group: groupOfState(s) ?? group }];
    });
    if (picks.length === 0) {
      void this.deps.prompter.message('info', vscode.l10n.t('Pick changed files in the Source Control view, then choose Review with Quorum.'), { id: 'changes.noFiles' });
      return undefined;
    }
    const api = await this.deps.repositories.api();
    const repository = api ? await this.deps.repositories.pick(api, picks[0]?.uri) : undefined;
    if (!repository) return undefined;
    const source = new GitApiSource(repository);
    const { request, only, mixed } = pickedFilesReview(picks.map((p) => ({ group: p.group, path: source.relative(p.uri) })));
    if (mixed) {
      void this.deps.prompter.message('info', vscode.l10n.t('Files from Staged Changes and Changes were picked together: Quorum reviews their uncommitted changes (the working tree against HEAD), which include what is staged.'), { id: 'changes.mixedGroups' });
    }
    return this.review(new ChangesTarget(repository.rootUri, request, only), source, { noCache: false });
  }

  /** "Quorum: Show What Will Be Sent for Changes…": the same choice, then the preview instead of a review. */
  async showWhatWillBeSent(scm?: unknown): Promise<vscode.TextDocument | undefined> {
    const chosen = await this.choose(rootOf(scm));
    if (!chosen) return undefined;
    const prepared = await this.deps.preparation.prepare(chosen.target, chosen.source);
    if (!prepared) return undefined;
    return this.deps.sent.showFor(prepared);
  }

  /**
   * The changes `request` names, in the repository of `hint` (the active file's; asked when there are several),
   * read and planned as "Review Changes…" does, for the chat and the agent-mode tool. Undefined when there is no
   * repository or nothing to review (the user was told).
   */
  async prepareRequest(request: ChangeRequest, hint?: vscode.Uri): Promise<PreparedTarget | undefined> {
    const api = await this.deps.repositories.api();
    const repository = api ? await this.deps.repositories.pick(api, hint) : undefined;
    if (!repository) return undefined;
    return this.deps.preparation.prepare(new ChangesTarget(repository.rootUri, request), new GitApiSource(repository));
  }

  /** Which repository and which changes. */
  private async choose(hint: vscode.Uri | undefined): Promise<{ target: ChangesTarget; source: GitApiSource } | undefined> {
    const api = await this.deps.repositories.api();
    const repository = api ? await this.deps.repositories.pick(api, hint) : undefined;
    if (!repository) return undefined;
    const source = new GitApiSource(repository);
    const request = await pickChangeRequest(this.deps, repository, source.untrackedHidden());
    return request ? { target: new ChangesTarget(repository.rootUri, request), source } : undefined;
  }

  private async review(target: ChangesTarget, source: GitApiSource, options: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const prepared = await this.deps.preparation.reading(target, source);
    return prepared ? this.deps.controller.start(prepared, options) : undefined;
  }
}

/** The Source Control provider's root, when a command runs from the Source Control view's title. */
function rootOf(scm: unknown): vscode.Uri | undefined {
  const root = field(scm, 'rootUri');
  return root instanceof vscode.Uri ? root : undefined;
}
