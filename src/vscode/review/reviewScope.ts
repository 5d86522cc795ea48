import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReviewScopeInput } from './reviewScopeInput';
import type { ChangesCommands } from '../changes/changesCommands';
import { targetFromDocument, type PreparedTarget, type TargetProblem } from './reviewTarget';

/** Why a scope names nothing to review, in one line (English: agents read it; the chat localises its own). */
type ScopeRefusal = { refused: string };

function problemText(p: TargetProblem): string {
  return p.kind === 'empty' ? 'the code is empty' : p.kind === 'binary' ? 'the file is not text' : `the code is too large (${p.chars} characters)`;
}

/** The document `input.path` names (workspace-relative or absolute, inside a workspace folder), else the active editor's. */
async function documentOf(relative: string | undefined): Promise<vscode.TextDocument | ScopeRefusal> {
  if (relative === undefined) {
    const doc = vscode.window.activeTextEditor?.document;
    return doc ?? { refused: 'no file is open in the editor; give a path' };
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  const inside = folders.flatMap((f) => {
    const full = path.resolve(f.uri.fsPath, relative);
    const rel = path.relative(f.uri.fsPath, full);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? [vscode.Uri.joinPath(f.uri, ...rel.split(path.sep))] : [];
  });
  const uri = inside[0];
  if (!uri) return { refused: `${relative} is not a file in the workspace` };
  try {
    return await vscode.workspace.openTextDocument(uri);
  } catch {
    return { refused: `${relative} cannot be opened` };
  }
}

/** The target of a scope, prepared for the review controller; a refusal when there is none. */
export async function prepareScope(input: ReviewScopeInput, changes: ChangesCommands): Promise<PreparedTarget | ScopeRefusal | undefined> {
  if (input.scope === 'selection' || input.scope === 'file') {
    const doc = await documentOf(input.path);
    if ('refused' in doc) return doc;
    const editor = vscode.window.activeTextEditor;
    const selection = input.scope === 'selection' && editor?.document === doc ? editor.selection : undefined;
    if (input.scope === 'selection' && (!selection || selection.isEmpty)) return { refused: 'nothing is selected in the editor' };
    const prepared = targetFromDocument(doc, selection);
    return 'kind' in prepared ? { refused: problemText(prepared) } : prepared;
  }
  if (input.scope === 'base' && !input.base) return { refused: 'scope "base" needs base (a branch, tag or commit)' };
  const hint = vscode.window.activeTextEditor?.document.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  const request = input.scope === 'base' ? { kind: 'ref' as const, ref: input.base } : { kind: input.scope };
  return changes.prepareRequest(request, hint);
}
