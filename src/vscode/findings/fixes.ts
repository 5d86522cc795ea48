import * as vscode from 'vscode';
import { reviewLines } from '../../core/domain/lineTracking';
import { fitReplacement, PROSE_LANGUAGES, type ReplacementVerdict } from '../../core/fix/replacement';
import { syntaxErrorCount } from '../../core/fix/syntax';
import { findBidi } from '../../shared/bidi';
import { InternalCommands } from '../commands';
import type { Prompter } from '../prompter';
import { IMPROVED_CODE, type FindingStore, type TrackedFix } from './findingStore';

const PREVIEW_SCHEME = 'quorum-preview';

function fullLines(doc: vscode.TextDocument, start: number, end: number): vscode.Range {
  return new vscode.Range(start, 0, end, doc.lineAt(end).text.length);
}

/** The replacement text for whole lines: without the one trailing line break a model may add. */
function replacementText(replacement: string, eol: vscode.EndOfLine): string {
  const text = replacement.replace(/\r?\n$/, '');
  return eol === vscode.EndOfLine.CRLF ? text.replace(/\r?\n/g, '\r\n') : text.replace(/\r\n/g, '\n');
}

/** Whether a fix may be applied as code to its lines (and the code to apply, at the lines' indentation). */
export function fitFix(fix: Pick<TrackedFix, 'replacement' | 'original'>, languageId: string): ReplacementVerdict {
  return fitReplacement(fix.replacement ?? '', fix.original, { prose: PROSE_LANGUAGES.has(languageId) });
}

function normalizeEol(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** What the preview shows: the code Apply would write (moved to the lines' indentation), else the text as given. */
function previewCode(fix: TrackedFix, languageId: string): string {
  const verdict = fitFix(fix, languageId);
  return verdict.ok ? verdict.code : (fix.replacement ?? '');
}

/** The fix's document and whole lines when they still read as they did when the review ran; undefined otherwise. */
export async function linesAsReviewed(fix: TrackedFix): Promise<{ doc: vscode.TextDocument; range: vscode.Range } | undefined> {
  const doc = await vscode.workspace.openTextDocument(fix.uri);
  if (fix.range.end >= doc.lineCount) return undefined;
  const range = fullLines(doc, fix.range.start, fix.range.end);
  return normalizeEol(doc.getText(range)) === normalizeEol(fix.original) ? { doc, range } : undefined;
}

/** The text that replaces whole lines of `doc`: the fitted code at the document's line ends. */
export function codeForLines(code: string, doc: vscode.TextDocument): string {
  return replacementText(code, doc.eol);
}

export type ApplyOutcome = 'applied' | 'changed' | 'missing' | 'failed' | 'refused';

/** A finding the user finished with: its fix applied, or dismissed (from any surface: one command each). */
interface ResolvedFix {
  sessionId: string;
  id: string;
  how: 'applied' | 'dismissed';
}

/**
 * Preview (a diff of the document against the document with the fix) and apply (one WorkspaceEdit of just
 * the fix's lines, refused when those lines changed since the review).
 */
export class FixService implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;
  private readonly resolvedEmitter = new vscode.EventEmitter<ResolvedFix>();
  /** Fires after a fix was applied or a finding dismissed, so that the review panel can show it. */
  readonly onDidResolve = this.resolvedEmitter.event;

  constructor(
    private readonly store: FindingStore,
    private readonly prompter: Prompter,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this);
  }

  private check(fix: TrackedFix): Promise<{ doc: vscode.TextDocument; range: vscode.Range } | undefined> {
    return linesAsReviewed(fix);
  }

  provideTextDocumentContent(uri: vscode.Uri): Thenable<string> | string {
    const params = new URLSearchParams(uri.query);
    const fix = this.store.get(params.get('session') ?? '', params.get('id') ?? '');
    if (!fix) return vscode.l10n.t('This fix is no longer available: the review was discarded or its lines were edited.');
    return vscode.workspace.openTextDocument(fix.uri).then((doc) => {
      const range = fullLines(doc, Math.min(fix.range.start, doc.lineCount - 1), Math.min(fix.range.end, doc.lineCount - 1));
      return doc.getText(new vscode.Range(new vscode.Position(0, 0), range.start)) + replacementText(previewCode(fix, doc.languageId), doc.eol) + doc.getText(new vscode.Range(range.end, doc.lineAt(doc.lineCount - 1).range.end));
    });
  }

  async preview(sessionId: string, id: string): Promise<boolean> {
    const fix = this.store.get(sessionId, id);
    if (!fix || fix.replacement === undefined) {
      this.gone();
      return false;
    }
    const name = fix.uri.path.slice(fix.uri.path.lastIndexOf('/') + 1) || 'code';
    const right = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name}`, query: new URLSearchParams({ session: sessionId, id, v: String(Date.now()) }).toString() });
    const title =
      id === IMPROVED_CODE
        ? vscode.l10n.t('{0} ↔ Quorum improved code', name)
        : vscode.l10n.t('{0} ↔ Quorum fix: {1}', name, fix.finding?.title ?? '');
    await vscode.commands.executeCommand('vscode.diff', fix.uri, right, title, { preview: true, selection: new vscode.Range(fix.range.start, 0, fix.range.start, 0) });
    return true;
  }

  async apply(sessionId: string, id: string): Promise<ApplyOutcome> {
    const fix = this.store.get(sessionId, id);
    if (!fix || fix.replacement === undefined) {
      this.gone();
      return 'missing';
    }
    const refuse = (text: string, why: string): ApplyOutcome => {
      const preview = vscode.l10n.t('Preview');
      void this.prompter
        .message('warning', text, { id: `fix.${why}` }, preview)
        .then((choice) => (choice === preview ? this.preview(sessionId, id) : undefined));
      return 'refused';
    };
    const bidi = findBidi(fix.replacement);
    if (bidi.length > 0) {
      // Trojan Source: invisible characters that make code read differently from how it runs.
      const which = [...new Set(bidi.map((b) => b.codePoint))].join(', ');
      return refuse(vscode.l10n.t('Quorum did not apply the fix: it contains invisible bidirectional control characters ({0}) that can make code read differently from how it runs.', which), 'bidi');
    }
    const checked = await this.check(fix);
    if (!checked) {
      const again = vscode.l10n.t('Review Again');
      void this.prompter
        .message('warning', vscode.l10n.t('The code changed since the review, so Quorum did not apply the fix. Review the lines again for a fresh fix.'), { id: 'fix.changed' }, again)
        .then((choice) => {
          if (choice === again) void vscode.commands.executeCommand(InternalCommands.reviewAgain, sessionId);
        });
      return 'changed';
    }
    const verdict = fitFix(fix, checked.doc.languageId);
    if (!verdict.ok) {
      return verdict.reason === 'indentation'
        ? refuse(vscode.l10n.t('Quorum did not apply the fix: the replacement does not keep the indentation of lines {0}–{1}. Preview it and edit by hand.', reviewLines(fix.range).start, reviewLines(fix.range).end), 'indentation')
        : refuse(vscode.l10n.t('Quorum did not apply the fix: the suggested replacement reads as advice, not code. Preview it and edit by hand.'), 'prose');
    }
    const code = replacementText(verdict.code, checked.doc.eol);
    // Where a grammar is at hand (tree-sitter's, for every language the review's context reads), a fix that adds
    // syntax errors to the file is refused.
    const full = checked.doc.getText();
    const start = checked.doc.offsetAt(checked.range.start);
    const end = checked.doc.offsetAt(checked.range.end);
    const before = await syntaxErrorCount(full, checked.doc.languageId);
    const after = before === undefined ? undefined : await syntaxErrorCount(full.slice(0, start) + code + full.slice(end), checked.doc.languageId);
    if (before !== undefined && after !== undefined && after > before) {
      return refuse(vscode.l10n.t('Quorum did not apply the fix: it would add {0} syntax error(s) to the file (checked with a parser of its language). Preview it and edit by hand.', after - before), 'syntax');
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(fix.uri, checked.range, code);
    const ok = await vscode.workspace.applyEdit(edit);
    if (!ok) {
      void this.prompter.message('error', vscode.l10n.t('VS Code could not apply the fix (is the file read-only?).'), { id: 'fix.failed' });
      return 'failed';
    }
    // The fix is done: its diagnostic goes (other findings on these lines stay, and will be refused as changed).
    this.store.remove(sessionId, id);
    this.resolvedEmitter.fire({ sessionId, id, how: 'applied' });
    return 'applied';
  }

  dismiss(sessionId: string, id: string): void {
    this.store.remove(sessionId, id);
    this.resolvedEmitter.fire({ sessionId, id, how: 'dismissed' });
  }

  private gone(): void {
    void this.prompter.message('info', vscode.l10n.t('This fix is no longer available: the review was discarded or its lines were edited.'), { id: 'fix.gone' });
  }

  dispose(): void {
    this.registration.dispose();
    this.resolvedEmitter.dispose();
  }
}
