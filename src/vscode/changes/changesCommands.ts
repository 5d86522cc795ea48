import * as vscode from 'vscode';
import { collectChanges } from '../../core/changes/collect';
import { planChanges, type ChangesPlan } from '../../core/changes/plan';
import { ChangesError, type ChangeKind, type ChangeRequest, type ChangeSet } from '../../core/changes/types';
import type { ReviewSummary, SkipReason } from '../../core/review/types';
import { formatUsd } from '../../shared/format';
import { estimateLabel } from '../../shared/panelStrings';
import { escapeIcons, escapeLinkedText } from '../../shared/untrustedText';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import type { SentPreview } from '../privacy/whatWillBeSent';
import type { ReviewController } from '../review/reviewController';
import type { ChangesEstimate, PreparedTarget } from '../review/reviewTarget';
import type { SettingsService } from '../settings';
import { ChangesTarget } from './changesTarget';
import { GitRefType, readRefs, type GitRepository } from './gitApi';
import { GitApiSource } from './gitApiSource';
import type { RepositoryPicker } from './repositoryPicker';
import { functionScopes } from './symbolScopes';

/** A ref offered in the quick pick; without `ref`, the item that asks for one to be typed. */
type RefItem = vscode.QuickPickItem & { ref?: string };

/** Files whose functions are looked up in the editor (symbols are a courtesy; a huge change set goes without). */
const MAX_SCOPED_FILES = 60;
/** Skipped files named in a question; the rest are counted. */
const NAMED_SKIPPED = 8;

interface ChangesDeps {
  controller: ReviewController;
  settings: SettingsService;
  prompter: Prompter;
  log: QuorumLog;
  repositories: RepositoryPicker;
  sent: SentPreview;
}

type KindItem = vscode.QuickPickItem & { change: ChangeKind };

function skipReasonLabel(reason: SkipReason): string {
  switch (reason) {
    case 'deleted': return vscode.l10n.t('deleted');
    case 'binary': return vscode.l10n.t('binary');
    case 'lockfile': return vscode.l10n.t('lockfile');
    case 'minified': return vscode.l10n.t('minified');
    case 'generated': return vscode.l10n.t('generated');
    case 'too-large': return vscode.l10n.t('too large');
    case 'excluded': return vscode.l10n.t('never sent (privacy)');
    case 'unreadable': return vscode.l10n.t('unreadable');
  }
}

/** The Source Control view's group a file was picked in: Staged Changes, or Changes / Untracked Changes. */
type ScmGroup = 'index' | 'working-tree';

/**
 * The group a resource state of the Git extension belongs to (its `resourceGroupType`: 0 merge, 1 index,
 * 2 working tree, 3 untracked); undefined for other states.
 */
function groupOfState(state: object): ScmGroup | undefined {
  const type = 'resourceGroupType' in state ? state.resourceGroupType : undefined;
  return type === 1 ? 'index' : type === 2 || type === 3 ? 'working-tree' : undefined;
}

/** What the panel's header and the progress call a request. */
function changesTitle(request: ChangeRequest): string {
  switch (request.kind) {
    case 'uncommitted': return vscode.l10n.t('Uncommitted changes');
    case 'staged': return vscode.l10n.t('Staged changes');
    case 'last-commit': return vscode.l10n.t('Last commit');
    case 'ref': return vscode.l10n.t('Changes against {0}', request.ref ?? 'HEAD');
  }
}

/**
 * "Quorum: Review Changes…" (palette and the Source Control view's title), "Review with Quorum" on changed
 * files in the Source Control view, and "Show What Will Be Sent" for changes: which changes (a quick pick; a
 * branch or tag from the repository's refs), read through the Git extension's API into the same core
 * collect/plan as the command line, then reviewed by the review controller like any other target.
 */
export class ChangesCommands {
  constructor(private readonly deps: ChangesDeps) {
    deps.controller.rerunChanges = (key, options) => this.rerun(key, options);
  }

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
    const only = [...new Set(picks.flatMap((p) => source.relative(p.uri) ?? []))];
    const staged = picks.every((p) => p.group === 'index');
    if (!staged && picks.some((p) => p.group === 'index')) {
      void this.deps.prompter.message('info', vscode.l10n.t('Files from Staged Changes and Changes were picked together: Quorum reviews their uncommitted changes (the working tree against HEAD), which include what is staged.'), { id: 'changes.mixedGroups' });
    }
    return this.review(new ChangesTarget(repository.rootUri, { kind: staged ? 'staged' : 'uncommitted' }, only), source, { noCache: false });
  }

  /** "Quorum: Show What Will Be Sent for Changes…": the same choice, then the preview instead of a review. */
  async showWhatWillBeSent(scm?: unknown): Promise<vscode.TextDocument | undefined> {
    const chosen = await this.choose(rootOf(scm));
    if (!chosen) return undefined;
    const prepared = await this.prepare(chosen.target, chosen.source);
    if (!prepared?.plan) return undefined;
    return this.deps.sent.showFor(prepared.uri, prepared.plan.target, prepared.root, prepared.plan);
  }

  /** Re-run from a panel: the same request, as the changes are now. */
  async rerun(key: string, options: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const target = ChangesTarget.fromKey(key);
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
    return this.review(target, new GitApiSource(repository), options);
  }

  /** Which repository and which changes. */
  private async choose(hint: vscode.Uri | undefined): Promise<{ target: ChangesTarget; source: GitApiSource } | undefined> {
    const api = await this.deps.repositories.api();
    const repository = api ? await this.deps.repositories.pick(api, hint) : undefined;
    if (!repository) return undefined;
    const source = new GitApiSource(repository);
    const hidden = source.untrackedHidden();
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
    const kind = await this.deps.prompter.pick(items, { id: 'changes.kind', placeHolder: vscode.l10n.t('Which changes should Quorum review?') });
    if (!kind) return undefined;
    let request: ChangeRequest = { kind: kind.change };
    if (kind.change === 'ref') {
      const ref = await this.pickRef(repository);
      if (!ref) return undefined;
      request = { kind: 'ref', ref };
    }
    return { target: new ChangesTarget(repository.rootUri, request), source };
  }

  /** A branch, tag or remote branch of the repository (most recent first), or one typed in. */
  private async pickRef(repository: GitRepository): Promise<string | undefined> {
    let refs: { name: string; type: number; commit?: string }[] = [];
    try {
      refs = readRefs(await repository.getRefs({ sort: 'committerdate' })).flatMap((r) => (r.name ? [{ name: r.name, type: r.type, ...(r.commit ? { commit: r.commit } : {}) }] : []));
    } catch (error) {
      this.deps.log.warn(`Could not list the repository's refs: ${error instanceof Error ? error.message : String(error)}`);
    }
    const head = repository.state.HEAD?.name;
    const typeLabel = (t: number) => (t === GitRefType.Tag ? vscode.l10n.t('tag') : t === GitRefType.RemoteHead ? vscode.l10n.t('remote branch') : vscode.l10n.t('branch'));
    const typed: RefItem = { label: `$(edit) ${vscode.l10n.t('Enter a branch, tag or commit…')}`, alwaysShow: true };
    const items = [
      ...refs.filter((r) => r.name !== head).map((r): RefItem => ({
        label: escapeIcons(r.name),
        description: `${typeLabel(r.type)}${r.commit ? ` · ${r.commit.slice(0, 8)}` : ''}`,
        ...(r.name !== undefined ? { ref: r.name } : {}),
        alwaysShow: false,
      })),
      typed,
    ];
    const picked = await this.deps.prompter.pick(items, { id: 'changes.ref', placeHolder: vscode.l10n.t('Review the changes against which branch or tag?'), matchOnDescription: true });
    if (!picked) return undefined;
    if (picked.ref !== undefined) return picked.ref;
    const input = await this.deps.prompter.input({
      id: 'changes.refInput',
      prompt: vscode.l10n.t('A branch, tag or commit to compare with (from its merge base with HEAD)'),
      validateInput: (v) => (v.trim() === '' || v.trim().startsWith('-') ? vscode.l10n.t('Enter a branch, tag or commit.') : undefined),
    });
    return input?.trim() || undefined;
  }

  /** Collects and plans the changes (the same core code as the command line), with the editor's function scopes. */
  async prepare(target: ChangesTarget, source: GitApiSource): Promise<PreparedTarget | undefined> {
    const settings = this.deps.settings.current.changes;
    let set: ChangeSet;
    try {
      set = await collectChanges(source, target.request, { maxFileBytes: settings.maxFileKb * 1024, ...(target.only ? { only: target.only } : {}) });
    } catch (error) {
      this.cannotRead(error, target.request);
      return undefined;
    }
    if (set.files.length === 0) {
      const skipped = set.skipped.map((k) => `${k.file} (${skipReasonLabel(k.reason)})`).join(', ');
      void this.deps.prompter.message(
        'info',
        (set.skipped.length > 0 ? vscode.l10n.t('Nothing to review in {0}: every changed file is skipped: {1}', changesTitle(target.request), skipped) : vscode.l10n.t('There are no changes to review ({0}).', changesTitle(target.request)))
          + (source.untrackedHidden() && (target.request.kind === 'uncommitted' || target.request.kind === 'ref') ? ` ${vscode.l10n.t('Untracked files are left out: git.untrackedChanges is hidden.')}` : ''),
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
      confirm: (p, e) => this.confirm(p, e, source.repository.rootUri),
      describe: (p, e) => describePlan(p, e),
    };
  }

  private async review(target: ChangesTarget, source: GitApiSource, options: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const prepared = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: escapeLinkedText(vscode.l10n.t('Quorum: reading the changes')) },
      () => this.prepare(target, source),
    );
    if (!prepared) return undefined;
    return this.deps.controller.start(prepared, options);
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
  private async confirm(plan: ChangesPlan, estimate: ChangesEstimate, root: vscode.Uri): Promise<boolean> {
    const limit = this.deps.settings.current.changes.confirmOverFiles;
    if (limit <= 0 || plan.files <= limit) return true;
    const go = vscode.l10n.t('Review');
    const show = vscode.l10n.t('Show What Will Be Sent');
    const skipped = plan.target.skipped ?? [];
    const named = skipped.slice(0, NAMED_SKIPPED).map((k) => `${k.file} (${skipReasonLabel(k.reason)})`);
    if (skipped.length > NAMED_SKIPPED) named.push(vscode.l10n.t('and {0} more', skipped.length - NAMED_SKIPPED));
    const detail = [
      describePlan(plan, estimate),
      ...(named.length > 0 ? [vscode.l10n.t('Skipped: {0}', named.join(', '))] : []),
      vscode.l10n.t('The limit is quorum.changes.confirmOverFiles ({0}).', limit),
    ].join('\n');
    const choice = await this.deps.prompter.message('warning', vscode.l10n.t('Review changes to {0} files?', plan.files), { id: 'changes.manyFiles', modal: true, detail }, go, show);
    if (choice === show) {
      const first = plan.target.regions[0]?.file;
      if (first) await this.deps.sent.showFor(vscode.Uri.joinPath(root, ...first.split('/')), plan.target, root, plan);
    }
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

/** The files, skipped files, tokens and cost of a review of changes, in one line. */
function describePlan(plan: ChangesPlan, estimate: ChangesEstimate): string {
  const tokens = Object.values(estimate.perAgent).reduce((n, a) => n + a.promptTokens, 0);
  const cost = estimateLabel((key, ...args) => (key === 'costEstimate' ? vscode.l10n.t('≈ {0} likely · up to {1}', ...args) : vscode.l10n.t('up to {0}', ...args)), formatUsd, estimate.costUsd, estimate.likelyUsd);
  return vscode.l10n.t('{0} files, +{1} −{2}, {3} skipped · about {4} tokens in {5} requests · {6}', plan.files, plan.added, plan.removed, plan.target.skipped?.length ?? 0, tokens.toLocaleString('en-US'), estimate.requests, cost);
}

/** The Source Control provider's root, when a command runs from the Source Control view's title. */
function rootOf(scm: unknown): vscode.Uri | undefined {
  return typeof scm === 'object' && scm !== null && 'rootUri' in scm && scm.rootUri instanceof vscode.Uri ? scm.rootUri : undefined;
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
