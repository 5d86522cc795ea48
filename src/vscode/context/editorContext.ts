import * as vscode from 'vscode';
import type { CodeContextSource } from '../../core/review/reviewRequest';
import type { QuorumSettings } from '../../core/settings/schema';
import { defaultCacheDir } from '../../core/util/cacheDir';
import { languageServerContext } from './languageServerContext';

/**
 * The editor's context of a review: the language server's answers first (within their time budget), and core's
 * tree-sitter index of the file's repository or workspace folder for what the server does not answer in time: the
 * same index as the command line's and the MCP server's, kept in their cache folder (`$XDG_CACHE_HOME/quorum` or
 * `~/.cache/quorum`) and in memory between reviews. The root is the target's repository, or the
 * reviewed document's workspace folder (a selection, a file). None for a file outside a folder on disk, or with
 * `quorum.context.enabled` off.
 */
export function editorContext(settings: QuorumSettings, repository: vscode.Uri | undefined, document: vscode.Uri): CodeContextSource | undefined {
  const root = contextRoot(repository, document);
  if (!root || !contextEnabled(settings)) return undefined;
  return {
    root: root.fsPath,
    // The command line's cache folder: the index one of them built serves the other (entries by blob hash).
    cacheDir: defaultCacheDir(process.env),
    maxTokens: settings.context.maxTokens,
    maxFileBytes: settings.changes.maxFileKb * 1024,
    timeBudgetMs: settings.context.timeBudgetSeconds * 1000,
    languageServer: languageServerContext(root),
  };
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
