import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod';
import { SEVERITIES } from '../../shared/severity';
import type { ChangesCommands } from '../changes/changesCommands';
import { targetFromDocument, type PreparedTarget, type TargetProblem } from './reviewTarget';

/**
 * What the chat's /review and /changes and the agent-mode tool ask Quorum to review, by name: the selection, a
 * file, uncommitted or staged changes, or the changes since a base ref. Input from another program (an agent), so
 * it is validated: a ref cannot pass as a git option, a path must be inside the workspace.
 */
export const reviewScopeInput = z.strictObject({
  scope: z.enum(['selection', 'file', 'uncommitted', 'staged', 'base']),
  path: z.string().trim().min(1).max(4096).optional(),
  base: z.string().trim().min(1).max(255).regex(/^[^-\s][^\s~^:?*[\\]*$/, 'a branch, tag or commit name').optional(),
  minSeverity: z.enum(SEVERITIES).optional(),
});

export type ReviewScopeInput = z.infer<typeof reviewScopeInput>;

/** A bad input in one line: the first problem, with the field it is about. */
export function inputProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `Invalid input: ${where}${issue?.message ?? 'not an object of the expected shape'}`;
}

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
