import * as vscode from 'vscode';
import { InternalCommands } from '../commands';
import { IMPROVED_CODE, type FindingStore } from './findingStore';

/**
 * Quick fixes on Quorum's diagnostics: "Preview fix", "Apply fix" and "Dismiss"; and, anywhere in a
 * reviewed range, the coding agent's improved code to preview or apply.
 */
export class FindingCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly store: FindingStore) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !vscode.CodeActionKind.QuickFix.contains(context.only) && !context.only.contains(vscode.CodeActionKind.QuickFix)) return [];
    const actions: vscode.CodeAction[] = [];
    const ours = context.diagnostics.filter((d) => d.source === 'Quorum');
    for (const t of this.store.forDocument(doc.uri)) {
      if (t.range.end < range.start.line || t.range.start > range.end.line) continue;
      const args = [t.sessionId, t.id];
      if (t.id === IMPROVED_CODE) {
        const preview = new vscode.CodeAction(vscode.l10n.t('Quorum: Preview improved code for lines {0}–{1}', t.range.start + 1, t.range.end + 1), vscode.CodeActionKind.QuickFix);
        preview.command = { command: InternalCommands.previewFix, title: preview.title, arguments: args };
        const apply = new vscode.CodeAction(vscode.l10n.t('Quorum: Apply improved code for lines {0}–{1}', t.range.start + 1, t.range.end + 1), vscode.CodeActionKind.QuickFix);
        apply.command = { command: InternalCommands.applyFix, title: apply.title, arguments: args };
        actions.push(preview, apply);
        continue;
      }
      const f = t.finding;
      if (!f) continue;
      const diagnostic = ours.find((d) => d.message.startsWith(f.title) && d.range.start.line === t.range.start);
      const related = diagnostic ? [diagnostic] : undefined;
      if (t.replacement !== undefined) {
        const preview = new vscode.CodeAction(vscode.l10n.t('Quorum: Preview fix — {0}', f.title), vscode.CodeActionKind.QuickFix);
        preview.command = { command: InternalCommands.previewFix, title: preview.title, arguments: args };
        preview.diagnostics = related;
        const apply = new vscode.CodeAction(vscode.l10n.t('Quorum: Apply fix — {0}', f.title), vscode.CodeActionKind.QuickFix);
        apply.command = { command: InternalCommands.applyFix, title: apply.title, arguments: args };
        apply.diagnostics = related;
        apply.isPreferred = true;
        actions.push(preview, apply);
      }
      const dismiss = new vscode.CodeAction(vscode.l10n.t('Quorum: Dismiss — {0}', f.title), vscode.CodeActionKind.QuickFix);
      dismiss.command = { command: InternalCommands.dismissFinding, title: dismiss.title, arguments: args };
      dismiss.diagnostics = related;
      actions.push(dismiss);
    }
    return actions;
  }
}
