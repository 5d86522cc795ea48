import type * as vscode from 'vscode';

/**
 * Every command id Quorum registers. Those listed in `CONTRIBUTED_COMMANDS` appear in package.json's
 * `contributes.commands` (a test checks both directions); the rest are internal (panel and quick-fix
 * actions) and never appear in the palette.
 */
export const Commands = {
  reviewSelection: 'quorum.reviewSelection',
  cancelReview: 'quorum.cancelReview',
  switchModel: 'quorum.switchModel',
  setApiKey: 'quorum.setApiKey',
  clearApiKey: 'quorum.clearApiKey',
  testConnection: 'quorum.testConnection',
  showCost: 'quorum.showCost',
  resetCost: 'quorum.resetCost',
  showWhatWillBeSent: 'quorum.showWhatWillBeSent',
  compareModels: 'quorum.compareModels',
  showOutcomes: 'quorum.showOutcomes',
  reviewChanges: 'quorum.reviewChanges',
  reviewChangedFiles: 'quorum.reviewChangedFiles',
  reviewStagedFiles: 'quorum.reviewStagedFiles',
  showWhatWillBeSentForChanges: 'quorum.showWhatWillBeSentForChanges',
  /** The actions of a review thread (its title bar and reply box), hidden from the palette. */
  applyThreadFix: 'quorum.thread.apply',
  dismissThread: 'quorum.thread.dismiss',
  dismissThreadInProject: 'quorum.thread.dismissInProject',
  replyInThread: 'quorum.thread.reply',
} as const;

type CommandId = (typeof Commands)[keyof typeof Commands];

/** Internal commands: run from code actions and notifications, hidden from the palette. */
export const InternalCommands = {
  previewFix: 'quorum.internal.previewFix',
  applyFix: 'quorum.internal.applyFix',
  dismissFinding: 'quorum.internal.dismissFinding',
  dismissInProject: 'quorum.internal.dismissInProject',
  /** Asks why, dismisses in the project, offers a rule for `.quorum/learnings.md`. */
  dismissWithReason: 'quorum.internal.dismissWithReason',
  /** Opens (or reveals) the review panel of a review (the chat's button). */
  showReview: 'quorum.internal.showReview',
} as const;

export const CONTRIBUTED_COMMANDS: readonly CommandId[] = Object.values(Commands);

/** Every command activation registers: the contributed ones and the internal ones. */
export type QuorumCommandId = CommandId | (typeof InternalCommands)[keyof typeof InternalCommands];
export const ALL_COMMANDS: readonly QuorumCommandId[] = [...CONTRIBUTED_COMMANDS, ...Object.values(InternalCommands)];

/** What a command runs: VS Code's own callback type (it passes on whatever arguments the caller gave). */
export type CommandCallback = Parameters<typeof vscode.commands.registerCommand>[1];

/** Context key that is true while at least one review runs (enables "Quorum: Cancel Review"). */
export const REVIEW_RUNNING_CONTEXT = 'quorum.reviewRunning';
