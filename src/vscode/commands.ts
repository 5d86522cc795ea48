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

/**
 * Internal commands, hidden from the palette: what the surfaces of a review run — the quick fixes, the review
 * panel's buttons (panel/panelCommands.ts), the threads' actions, the chat's buttons and the notifications. Each
 * has one handler (engine.ts), whichever surface runs it.
 */
export const InternalCommands = {
  /** A finding (a review's id, the finding's id): reveal its lines, preview or apply its fix, dismiss it. */
  revealFinding: 'quorum.internal.revealFinding',
  previewFix: 'quorum.internal.previewFix',
  applyFix: 'quorum.internal.applyFix',
  dismissFinding: 'quorum.internal.dismissFinding',
  dismissInProject: 'quorum.internal.dismissInProject',
  /** Asks why, dismisses in the project, offers a rule for `.quorum/learnings.md`. */
  dismissWithReason: 'quorum.internal.dismissWithReason',
  /** The coding agent's code for a whole review (its id): one diff, one edit (across files for changes). */
  previewImprovedCode: 'quorum.internal.previewImprovedCode',
  applyImprovedCode: 'quorum.internal.applyImprovedCode',
  /** Reviews a target again (its key, `{ noCache }`): the panel's Re-run. */
  rerunReview: 'quorum.internal.rerunReview',
  /** Reviews a review's lines again where edits moved them (its id): a fix refused because the code changed. */
  reviewAgain: 'quorum.internal.reviewAgain',
  /** Opens lines of the review's context (root, file, start and end line), inside the workspace only. */
  openContext: 'quorum.internal.openContext',
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
