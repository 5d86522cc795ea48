import * as vscode from 'vscode';
import { collectChanges } from '../../core/changes/collect';
import { planChanges } from '../../core/changes/plan';
import { ChangesError, type ChangeRequest, type ChangeSet } from '../../core/changes/types';
import { loadTokenizer } from '../../core/tokens/count';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import type { SentPreview } from '../privacy/whatWillBeSent';
import type { PlannedReview } from '../../core/review/reviewRequest';
import type { PreparedTarget } from '../review/reviewTarget';
import type { SettingsService } from '../settings';
import { manyFilesQuestion, nothingToReview } from './changesDecisions';
import { changesTitle, describePlan, skipReasonLabel } from './changesLabels';
import { ChangesTarget } from './changesTarget';
import { GitApiSource } from './gitApiSource';
import type { RepositoryPicker } from './repositoryPicker';
import { functionScopes } from './symbolScopes';

/** Files whose functions are looked up in the editor (symbols are a courtesy; a huge change set goes without). */
const MAX_SCOPED_FILES = 60;

interface PreparationDeps {
  settings: SettingsService;
  prompter: Prompter;
  log: QuorumLog;
  sent: SentPreview;
  repositories: RepositoryPicker;
}

/**
 * Turns a request for changes into a target the review controller can run: collected and planned by the same core
 * code as the command line, with the editor's function scopes, and the question asked above
 * `quorum.changes.confirmOverFiles` files. What cannot be read, or holds nothing to review, is said here.
 */
export class ChangesPreparation {
  constructor(private readonly deps: PreparationDeps) {}

  /** `prepare`, under a progress in the status bar while the changes are read. */
  reading(target: ChangesTarget, source: GitApiSource): Thenable<PreparedTarget | undefined> {
    return this.deps.prompter.progress({ id: 'changes.reading', title: vscode.l10n.t('Quorum: reading the changes'), where: 'statusBar' }, () => this.prepare(target, source));
  }

  /** A panel's Re-run: the same request, read as it is now; undefined: a restored panel whose key does not say which files. */
  async again(target: ChangesTarget | undefined): Promise<PreparedTarget | undefined> {
    if (!target) {
      void this.deps.prompter.message('info', vscode.l10n.t('Run Quorum: Review Changes… again to review the changes as they are now.'), { id: 'changes.rerunUnknown' });
      return undefined;
    }
    const api = await this.deps.repositories.api();
    const repository = api?.repositories.find((r) => r.rootUri.toString() === target.root.toString());
    if (!repository) {
      void this.deps.prompter.message('warning', vscode.l10n.t('The repository of this review is no longer open.'), { id: 'changes.repositoryGone' });
      return undefined;
    }
    return this.reading(target, new GitApiSource(repository));
  }

  /** Collects and plans the changes (the same core code as the command line), with the editor's function scopes. */
  async prepare(target: ChangesTarget, source: GitApiSource): Promise<PreparedTarget | undefined> {
    const settings = this.deps.settings.current.changes;
    // The estimate that follows needs the tokenizer: it loads in the gaps while the Git extension and the
    // symbol providers answer, instead of all at once after them.
    void loadTokenizer();
    let set: ChangeSet;
    try {
      set = await collectChanges(source, target.request, { maxFileBytes: settings.maxFileKb * 1024, ...(target.only ? { only: target.only } : {}) });
    } catch (error) {
      this.cannotRead(error, target.request);
      return undefined;
    }
    const nothing = nothingToReview(set, target.request, source.untrackedHidden());
    if (nothing) {
      const skipped = nothing.skipped.map((k) => `${k.file} (${skipReasonLabel(k.reason)})`).join(', ');
      void this.deps.prompter.message(
        'info',
        (nothing.skipped.length > 0 ? vscode.l10n.t('Nothing to review in {0}: every changed file is skipped: {1}', changesTitle(target.request), skipped) : vscode.l10n.t('There are no changes to review ({0}).', changesTitle(target.request)))
          + (nothing.untrackedLeftOut ? ` ${vscode.l10n.t('Untracked files are left out: git.untrackedChanges is hidden.')}` : ''),
        { id: 'changes.nothing' },
      );
      return undefined;
    }
    await this.addScopes(set, source, target.request);
    const plan = planChanges(set, { contextLines: settings.contextLines, batchTokens: settings.batchTokens, label: changesTitle(target.request) });
    const uris = new Map(set.files.map((f) => [f.change.path, source.uriOf(f.change.path)] as const));
    const first = set.files[0]?.change.path;
    return {
      uri: first ? source.uriOf(first) : source.repository.rootUri,
      target: plan.target,
      ref: target,
      wholeFile: false,
      uris,
      counts: { added: plan.added, removed: plan.removed },
      plan,
      root: source.repository.rootUri,
      confirm: (p) => this.confirm(p),
      describe: (p) => (p.changes ? describePlan(p.changes, p.estimate) : ''),
    };
  }

  /** Function ranges from the editor, for files whose new text is what the editor has on disk. */
  private async addScopes(set: ChangeSet, source: GitApiSource, request: ChangeRequest): Promise<void> {
    const files = set.files.slice(0, MAX_SCOPED_FILES);
    const workingTree = request.kind === 'uncommitted' || request.kind === 'ref';
    await Promise.all(files.map(async (f) => {
      const uri = source.uriOf(f.change.path);
      if (!workingTree && !(await sameText(uri, f.lines))) return;
      const scopes = await functionScopes(uri);
      if (scopes.length > 0) f.scopes = scopes;
    }));
  }

  /** Above `quorum.changes.confirmOverFiles` files: asks, with the files, skipped files, tokens and cost. */
  private async confirm(planned: PlannedReview): Promise<boolean> {
    const limit = this.deps.settings.current.changes.confirmOverFiles;
    const plan = planned.changes;
    const question = plan ? manyFilesQuestion(plan.files, plan.target.skipped ?? [], limit) : undefined;
    if (!plan || !question) return true;
    const go = vscode.l10n.t('Review');
    const show = vscode.l10n.t('Show What Will Be Sent');
    const named = question.named.map((k) => `${k.file} (${skipReasonLabel(k.reason)})`);
    if (question.more > 0) named.push(vscode.l10n.t('and {0} more', question.more));
    const detail = [
      describePlan(plan, planned.estimate),
      ...(named.length > 0 ? [vscode.l10n.t('Skipped: {0}', named.join(', '))] : []),
      vscode.l10n.t('The limit is quorum.changes.confirmOverFiles ({0}).', limit),
    ].join('\n');
    const choice = await this.deps.prompter.message('warning', vscode.l10n.t('Review changes to {0} files?', plan.files), { id: 'changes.manyFiles', modal: true, detail }, go, show);
    if (choice === show) await this.deps.sent.show(planned.whatWillBeSent(), plan.target);
    return choice === go;
  }

  private cannotRead(error: unknown, request: ChangeRequest): void {
    if (error instanceof ChangesError) {
      const text =
        error.code === 'unknown-ref' ? vscode.l10n.t('Quorum cannot compare with "{0}": there is no branch, tag or commit of that name, or it has no history in common with HEAD.', request.ref ?? '')
        : error.code === 'no-commits' ? vscode.l10n.t('There is no last commit to review: the repository has no commits yet.')
        : vscode.l10n.t('Quorum could not read the changes: {0}', error.message);
      void this.deps.prompter.message('warning', text, { id: `changes.${error.code}` });
      return;
    }
    this.deps.log.error(error instanceof Error ? error : String(error));
    void this.deps.prompter.message('error', vscode.l10n.t('Quorum could not read the changes: {0}', error instanceof Error ? error.message : String(error)), { id: 'changes.failed' });
  }
}

/** Whether the file on disk (as the editor would open it) reads as these lines. */
async function sameText(uri: vscode.Uri, lines: readonly string[]): Promise<boolean> {
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.isDirty) return false;
    const text = doc.getText().replace(/\r\n?/g, '\n').replace(/\n$/, '');
    return text === lines.join('\n');
  } catch {
    return false;
  }
}
