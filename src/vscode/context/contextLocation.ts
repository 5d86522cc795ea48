import * as vscode from 'vscode';
import { workspaceFile } from '../../core/util/workspaceFile';
import type { Prompter } from '../prompter';

/**
 * Opens lines of a snippet of a review's context (the panel's header lists them) in the editor. The file comes
 * from the page, so it is checked again here: a path relative to the review's context root (a URI on disk) that
 * stays inside a workspace folder, links followed. Anything else is refused with one line that says why.
 */
export async function openContextLocation(prompter: Prompter, root: string | undefined, file: string, startLine: number, endLine: number): Promise<boolean> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  let base: vscode.Uri | undefined;
  try {
    base = root ? vscode.Uri.parse(root, true) : undefined;
  } catch {
    base = undefined;
  }
  const found = base?.scheme === 'file' ? await workspaceFile(base.fsPath, file, folders) : { refused: 'outside' as const };
  if ('refused' in found) {
    const text = found.refused === 'missing'
      ? vscode.l10n.t('Quorum did not open {0}: the file is no longer in the workspace.', file)
      : vscode.l10n.t('Quorum did not open {0}: it opens only files inside the workspace.', file);
    void prompter.message('warning', text, { id: 'context.openRefused' });
    return false;
  }
  const start = Math.max(1, startLine);
  const end = Math.max(start, endLine);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(found.path));
  const last = Math.min(end, doc.lineCount);
  const selection = new vscode.Range(Math.min(start, doc.lineCount) - 1, 0, last - 1, doc.lineAt(last - 1).text.length);
  await vscode.window.showTextDocument(doc, { selection, viewColumn: vscode.ViewColumn.One, preview: true });
  return true;
}
