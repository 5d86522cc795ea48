import * as vscode from 'vscode';
import type { ChangesPlan } from '../../core/changes/plan';
import type { ChangeRequest } from '../../core/changes/types';
import type { SkipReason } from '../../shared/reviewCodes';
import { formatUsd } from '../../shared/format';
import { estimateLabel } from '../../shared/panelStrings';
import type { BatchesEstimate } from '../../core/pipeline/batches';

/** The words a review of changes is described with: why a file is skipped, what a request is called, a plan in one line. */

export function skipReasonLabel(reason: SkipReason): string {
  switch (reason) {
    case 'deleted': return vscode.l10n.t('deleted');
    case 'binary': return vscode.l10n.t('binary');
    case 'lockfile': return vscode.l10n.t('lockfile');
    case 'minified': return vscode.l10n.t('minified');
    case 'generated': return vscode.l10n.t('generated');
    case 'too-large': return vscode.l10n.t('too large');
    case 'excluded': return vscode.l10n.t('never sent (privacy)');
    case 'symlink': return vscode.l10n.t('symbolic link');
    case 'unreadable': return vscode.l10n.t('unreadable');
  }
}

/** What the panel's header and the progress call a request. */
export function changesTitle(request: ChangeRequest): string {
  switch (request.kind) {
    case 'uncommitted': return vscode.l10n.t('Uncommitted changes');
    case 'staged': return vscode.l10n.t('Staged changes');
    case 'last-commit': return vscode.l10n.t('Last commit');
    case 'ref': return vscode.l10n.t('Changes against {0}', request.ref ?? 'HEAD');
  }
}

/** The files, skipped files, tokens and cost of a review of changes, in one line. */
export function describePlan(plan: ChangesPlan, estimate: BatchesEstimate): string {
  const tokens = Object.values(estimate.perAgent).reduce((n, a) => n + a.promptTokens, 0);
  const cost = estimateLabel((key, ...args) => (key === 'costEstimate' ? vscode.l10n.t('≈ {0} likely · up to {1}', ...args) : vscode.l10n.t('up to {0}', ...args)), formatUsd, estimate.costUsd, estimate.likelyUsd);
  return vscode.l10n.t('{0} files, +{1} −{2}, {3} skipped · about {4} tokens in {5} requests · {6}', plan.files, plan.added, plan.removed, plan.target.skipped?.length ?? 0, tokens.toLocaleString('en-US'), estimate.requests, cost);
}
