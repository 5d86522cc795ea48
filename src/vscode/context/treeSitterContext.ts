import type * as vscode from 'vscode';
import type { CodeContextSource } from '../../core/review/reviewRequest';
import type { QuorumSettings } from '../../core/settings/schema';

/**
 * The editor's context of a review: core's tree-sitter index of the file's repository or workspace folder (the same
 * as the command line's), kept in memory for the review. None for a file outside a folder on disk, or with
 * `quorum.context.enabled` off.
 */
export function treeSitterContext(settings: QuorumSettings, root: vscode.Uri | undefined): CodeContextSource | undefined {
  if (!root || root.scheme !== 'file' || !settings.context.enabled || settings.context.maxTokens <= 0) return undefined;
  return { root: root.fsPath, cacheDir: undefined, maxTokens: settings.context.maxTokens, maxFileBytes: settings.changes.maxFileKb * 1024 };
}
