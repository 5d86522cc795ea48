import * as vscode from 'vscode';
import type { Prompter } from './prompter';

/**
 * VS Code's window as a `Prompter`: the one place that shows notifications, questions, quick picks and progress
 * notifications (an ESLint rule keeps it so). It shows what it is given; the `PrompterHolder` in front of it
 * (prompter.ts) makes every text safe to show first.
 */
export const windowPrompter: Prompter = {
  pick(items, { id: _id, ...rest }) {
    return vscode.window.showQuickPick(items, { ...rest, canPickMany: false });
  },
  pickMany(items, { id: _id, ...rest }) {
    return vscode.window.showQuickPick(items, { ...rest, canPickMany: true });
  },
  input({ id: _id, ...rest }) {
    return vscode.window.showInputBox(rest);
  },
  message(level, text, options, ...actions) {
    const opts: vscode.MessageOptions = { modal: options.modal ?? false, detail: options.detail };
    if (level === 'error') return vscode.window.showErrorMessage(text, opts, ...actions);
    if (level === 'warning') return vscode.window.showWarningMessage(text, opts, ...actions);
    return vscode.window.showInformationMessage(text, opts, ...actions);
  },
  progress({ title, where }, task) {
    const location = where === 'statusBar' ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
    return vscode.window.withProgress({ location, title, cancellable: where !== 'statusBar' }, task);
  },
};

/** A notification with an Open Settings action (none when `settingsQuery` is undefined) that opens the settings at `settingsQuery`. */
export async function messageWithSettings(prompter: Prompter, level: 'warning' | 'error', text: string, id: string, settingsQuery: string | undefined): Promise<void> {
  const open = vscode.l10n.t('Open Settings');
  const choice = await prompter.message(level, text, { id }, ...(settingsQuery !== undefined ? [open] : []));
  if (settingsQuery !== undefined && choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', settingsQuery);
}
