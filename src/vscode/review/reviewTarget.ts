import * as vscode from 'vscode';
import { singleTarget } from '../../core/review/target';
import type { ReviewTarget } from '../../core/review/types';
import type { ChangeCounts } from '../../core/review/viewEvents';

/** Above this much text a review is refused: no model context holds it and the cost would be absurd. */
export const MAX_REVIEW_CHARS = 400_000;

export interface PreparedTarget {
  uri: vscode.Uri;
  target: ReviewTarget;
  targetKey: string;
  wholeFile: boolean;
  /** The document of each reviewed file, for targets of several files (`uri` otherwise). */
  uris?: ReadonlyMap<string, vscode.Uri>;
  /** Lines added and removed, for a review of changes. */
  counts?: ChangeCounts;
}

export type TargetProblem = { kind: 'empty' } | { kind: 'binary' } | { kind: 'huge'; chars: number };

export function targetKeyOf(uri: vscode.Uri, startLine: number, endLine: number): string {
  return `${uri.toString()}#L${startLine}-L${endLine}`;
}

/** The file as people know it: workspace-relative path, or the untitled name. */
export function displayFile(doc: vscode.TextDocument): string {
  if (doc.isUntitled) return doc.fileName || doc.uri.path;
  if (doc.uri.scheme === 'file' || vscode.workspace.getWorkspaceFolder(doc.uri)) return vscode.workspace.asRelativePath(doc.uri, false);
  return doc.uri.toString(true);
}

/**
 * What a review of the editor covers: the selected lines (whole lines, a selection ending at column 0
 * stops on the line before), or the whole document when nothing is selected. Unsaved text is reviewed as
 * shown; the document's language id is sent whatever it is.
 */
export function targetFromEditor(editor: vscode.TextEditor): PreparedTarget | TargetProblem {
  const doc = editor.document;
  const sel = editor.selection;
  let start: number;
  let end: number;
  const wholeFile = sel.isEmpty;
  if (wholeFile) {
    start = 0;
    end = doc.lineCount - 1;
    // Trailing empty lines carry nothing to review.
    while (end > 0 && doc.lineAt(end).isEmptyOrWhitespace) end--;
  } else {
    start = sel.start.line;
    end = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  }
  const text = doc.getText(new vscode.Range(start, 0, end, doc.lineAt(end).text.length));
  if (text.trim() === '') return { kind: 'empty' };
  if (text.length > MAX_REVIEW_CHARS) return { kind: 'huge', chars: text.length };
  if (looksBinary(text)) return { kind: 'binary' };
  const target: ReviewTarget = singleTarget({ file: displayFile(doc), language: doc.languageId, text: text.replace(/\r\n?/g, '\n'), startLine: start + 1, endLine: end + 1 }, wholeFile ? 'file' : 'selection');
  return { uri: doc.uri, target, targetKey: targetKeyOf(doc.uri, start + 1, end + 1), wholeFile };
}

/** NUL characters, or many replacement characters and control codes: not text a model can review. */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const sample = text.slice(0, 8192);
  let odd = 0;
  for (const ch of sample) {
    const c = ch.codePointAt(0) ?? 0;
    if (c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12)) odd++;
  }
  return sample.length > 0 && odd / sample.length > 0.1;
}
