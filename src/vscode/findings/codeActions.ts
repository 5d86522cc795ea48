import * as vscode from 'vscode';
import { reviewLines } from '../../core/domain/lineTracking';
import { revealBidi } from '../../shared/bidi';
import { InternalCommands } from '../commands';
import { IMPROVED_CODE, type FindingStore, type TrackedFix } from './findingStore';
import { fitFix } from './fixes';

/** Below this confidence "Apply fix" is never the preferred quick fix: Preview comes first and nothing is auto-applied. */
const PREFERRED_MIN_CONFIDENCE = 0.7;

/**
 * Whether a fix may be offered for applying: a replacement that is code for its lines (not advice, at their
 * indentation) without bidi control characters (Trojan Source). Apply checks again, with the parser.
 */
function applicable(t: TrackedFix, languageId: string): boolean {
  return t.replacement !== undefined && fitFix(t, languageId).ok;
}

/**
 * Quick fixes on Quorum's diagnostics: "Preview fix", "Apply fix", "Dismiss" and "Dismiss in this project"; and, anywhere in a
 * reviewed range, the coding agent's improved code to preview or apply.
 */
export class FindingCodeActions implements vscode.CodeActionProvider {
  constructor(
    private readonly store: FindingStore,
    /** Whether "Dismiss in this project" may be offered for a document (a trusted local workspace folder). */
    private readonly projectDismiss: (uri: vscode.Uri) => boolean = () => false,
  ) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !vscode.CodeActionKind.QuickFix.contains(context.only) && !context.only.contains(vscode.CodeActionKind.QuickFix)) return [];
    const actions: vscode.CodeAction[] = [];
    const ours = context.diagnostics.filter((d) => d.source === 'Quorum');
    for (const t of this.store.forDocument(doc.uri)) {
      if (t.range.end < range.start.line || t.range.start > range.end.line) continue;
      const args = [t.sessionId, t.id];
      if (t.id === IMPROVED_CODE) {
        const lines = reviewLines(t.range);
        const preview = new vscode.CodeAction(vscode.l10n.t('Quorum: Preview improved code for lines {0}–{1}', lines.start, lines.end), vscode.CodeActionKind.QuickFix);
        preview.command = { command: InternalCommands.previewFix, title: preview.title, arguments: args };
        actions.push(preview);
        if (applicable(t, doc.languageId)) {
          const apply = new vscode.CodeAction(vscode.l10n.t('Quorum: Apply improved code for lines {0}–{1}', lines.start, lines.end), vscode.CodeActionKind.QuickFix);
          apply.command = { command: InternalCommands.applyFix, title: apply.title, arguments: args };
          actions.push(apply);
        }
        continue;
      }
      const f = t.finding;
      if (!f || t.hidden) continue;
      // The model's title, bidi controls shown as tokens, as in the diagnostic's message.
      const title = revealBidi(f.title);
      const diagnostic = ours.find((d) => d.message.startsWith(title) && d.range.start.line === t.range.start);
      const related = diagnostic ? [diagnostic] : undefined;
      if (t.replacement !== undefined) {
        const preview = new vscode.CodeAction(vscode.l10n.t('Quorum: Preview fix — {0}', title), vscode.CodeActionKind.QuickFix);
        preview.command = { command: InternalCommands.previewFix, title: preview.title, arguments: args };
        preview.diagnostics = related;
        actions.push(preview);
        if (applicable(t, doc.languageId)) {
          const apply = new vscode.CodeAction(vscode.l10n.t('Quorum: Apply fix — {0}', title), vscode.CodeActionKind.QuickFix);
          apply.command = { command: InternalCommands.applyFix, title: apply.title, arguments: args };
          apply.diagnostics = related;
          // The preferred (auto-fix) action is a destructive one only when the finding is likely right.
          apply.isPreferred = f.confidence >= PREFERRED_MIN_CONFIDENCE;
          actions.push(apply);
        }
      }
      const dismiss = new vscode.CodeAction(vscode.l10n.t('Quorum: Dismiss — {0}', title), vscode.CodeActionKind.QuickFix);
      dismiss.command = { command: InternalCommands.dismissFinding, title: dismiss.title, arguments: args };
      dismiss.diagnostics = related;
      actions.push(dismiss);
      if (this.projectDismiss(doc.uri)) {
        const forever = new vscode.CodeAction(vscode.l10n.t('Quorum: Dismiss in this project — {0}', title), vscode.CodeActionKind.QuickFix);
        forever.command = { command: InternalCommands.dismissInProject, title: forever.title, arguments: args };
        forever.diagnostics = related;
        actions.push(forever);
        const reasoned = new vscode.CodeAction(vscode.l10n.t('Quorum: Dismiss with a reason… — {0}', title), vscode.CodeActionKind.QuickFix);
        reasoned.command = { command: InternalCommands.dismissWithReason, title: reasoned.title, arguments: args };
        reasoned.diagnostics = related;
        actions.push(reasoned);
      }
    }
    return actions;
  }
}
