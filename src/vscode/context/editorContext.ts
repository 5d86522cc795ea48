import * as vscode from 'vscode';
import type { CodeContextSource } from '../../core/review/reviewRequest';
import type { QuorumSettings } from '../../core/settings/schema';
import { languageServerContext } from './languageServerContext';

/**
 * The editor's context of a review: the language server's answers first (within their time budget), and core's
 * tree-sitter index of the file's repository or workspace folder (the same as the command line's, kept in memory
 * for the review) for what the server does not answer in time. The root is the target's repository, or the
 * reviewed document's workspace folder (a selection, a file). None for a file outside a folder on disk, or with
 * `quorum.context.enabled` off.
 */
export function editorContext(settings: QuorumSettings, repository: vscode.Uri | undefined, document: vscode.Uri): CodeContextSource | undefined {
  const root = contextRoot(repository, document);
  if (!root || !contextEnabled(settings)) return undefined;
  return { root: root.fsPath, cacheDir: undefined, maxTokens: settings.context.maxTokens, maxFileBytes: settings.changes.maxFileKb * 1024, languageServer: languageServerContext(root) };
}

/** The folder the context's paths are relative to: the target's repository, else the document's workspace folder (on disk). */
export function contextRoot(repository: vscode.Uri | undefined, document: vscode.Uri): vscode.Uri | undefined {
  const root = repository ?? vscode.workspace.getWorkspaceFolder(document)?.uri;
  return root?.scheme === 'file' ? root : undefined;
}

/** Context is sent: `quorum.context.enabled` is on and `quorum.context.maxTokens` above 0. */
export function contextEnabled(settings: QuorumSettings): boolean {
  return settings.context.enabled && settings.context.maxTokens > 0;
}
