import * as vscode from 'vscode';
import { type ReviewTarget, singleTarget } from '../../core/domain/target';
import type { ChangesPlan } from '../../core/changes/plan';
import type { PlannedReview } from '../../core/review/reviewRequest';
import type { ChangeCounts } from '../../core/report/viewEvents';
import { linesKey, linesOfKey } from './targetKeys';

/** Above this much text a review is refused: no model context holds it and the cost would be absurd. */
export const MAX_REVIEW_CHARS = 400_000;

/** What a review covers, as one panel knows it: `key()` names it (one panel per key, reused on re-run). */
export interface TargetRef {
  key(): string;
}

/** Lines startLine..endLine (1-based) of one document: a selection, or a whole file. */
export class LinesTarget implements TargetRef {
  constructor(
    readonly uri: vscode.Uri,
    readonly startLine: number,
    readonly endLine: number,
  ) {}

  key(): string {
    return linesKey({ uri: this.uri.toString(), startLine: this.startLine, endLine: this.endLine });
  }

  /** The lines a key names (a panel restored after a reload knows only its key); undefined for other keys. */
  static fromKey(key: string): LinesTarget | undefined {
    const named = linesOfKey(key);
    return named ? new LinesTarget(vscode.Uri.parse(named.uri), named.startLine, named.endLine) : undefined;
  }
}

export interface PreparedTarget {
  uri: vscode.Uri;
  target: ReviewTarget;
  ref: TargetRef;
  wholeFile: boolean;
  /** The document of each reviewed file, for targets of several files (`uri` otherwise). */
  uris?: ReadonlyMap<string, vscode.Uri>;
  /** Lines added and removed, for a review of changes. */
  counts?: ChangeCounts;
  /** A review of changes: its batches (one request per agent each). */
  plan?: ChangesPlan;
  /** The repository whose rules and ignore files shape the prompts (the document's workspace folder otherwise). */
  root?: vscode.Uri;
  /** Asked once the review is planned and priced, before the budgets (a review of many changed files): false stops it. */
  confirm?: (plan: PlannedReview) => Promise<boolean>;
  /** Said before anything is sent (what a review of changes covers), in the progress notification. */
  describe?: (plan: PlannedReview) => string;
}

export type TargetProblem = { kind: 'empty' } | { kind: 'binary' } | { kind: 'huge'; chars: number };

/** The file as people know it: workspace-relative path, or the untitled name. */
function displayFile(doc: vscode.TextDocument): string {
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
  return targetFromDocument(editor.document, editor.selection);
}

/** Lines of `doc`: those of `sel` (see `targetFromEditor`), or the whole document without one. */
export function targetFromDocument(doc: vscode.TextDocument, sel?: vscode.Selection): PreparedTarget | TargetProblem {
  let start: number;
  let end: number;
  const wholeFile = !sel || sel.isEmpty;
  if (!sel || sel.isEmpty) {
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
  return { uri: doc.uri, target, ref: new LinesTarget(doc.uri, start + 1, end + 1), wholeFile };
}

/** The lines as they read now, to review them again; why not, when the document or the lines are gone. */
export async function targetFromLines(lines: LinesTarget): Promise<PreparedTarget | { kind: 'gone' | 'linesGone' }> {
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(lines.uri);
  } catch {
    return { kind: 'gone' };
  }
  const { startLine: start, endLine: end } = lines;
  if (end > doc.lineCount) return { kind: 'linesGone' };
  const text = doc.getText(new vscode.Range(start - 1, 0, end - 1, doc.lineAt(end - 1).text.length)).replace(/\r\n?/g, '\n');
  const target = singleTarget({ file: displayFile(doc), language: doc.languageId, text, startLine: start, endLine: end });
  return { uri: lines.uri, target, ref: lines, wholeFile: false };
}

/** NUL characters, or many replacement characters and control codes: not text a model can review. */
function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const sample = text.slice(0, 8192);
  let odd = 0;
  for (const ch of sample) {
    const c = ch.codePointAt(0) ?? 0;
    if (c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12)) odd++;
  }
  return sample.length > 0 && odd / sample.length > 0.1;
}
