import * as vscode from 'vscode';
import { revealBidi } from '../shared/bidi';
import { escapeLinkedText } from '../shared/untrustedText';
import type { Redactor } from '../core/redaction/redactor';

/**
 * Every question and notification Quorum shows goes through a `Prompter`. The real one is VS Code's
 * window; integration tests swap in one that answers (see the test API returned by `activate`).
 */
export interface Prompter {
  pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Thenable<T | undefined>;
  /** A quick pick where several items may be chosen (items with `picked` start chosen). */
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Thenable<readonly T[] | undefined>;
  input(options: vscode.InputBoxOptions & { id: string }): Thenable<string | undefined>;
  /** A notification (or a modal question when `modal`); resolves to the chosen action's title. */
  message(
    level: 'info' | 'warning' | 'error',
    text: string,
    options: { id: string; modal?: boolean; detail?: string },
    ...actions: string[]
  ): Thenable<string | undefined>;
  /**
   * Long work under a cancellable progress notification: `task` gets the reporter and the token that the
   * notification's Cancel button (or a test, through its prompter) cancels.
   */
  progress<R>(options: ProgressOptions, task: ProgressTask<R>): Thenable<R>;
}

export interface ProgressOptions {
  id: string;
  title: string;
}

export type ProgressTask<R> = (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>;

const windowPrompter: Prompter = {
  pick(items, options) {
    const { id: _id, ...rest } = options;
    void _id;
    return vscode.window.showQuickPick(items, { ...rest, canPickMany: false });
  },
  pickMany(items, options) {
    const { id: _id, ...rest } = options;
    void _id;
    return vscode.window.showQuickPick(items, { ...rest, canPickMany: true });
  },
  input(options) {
    const { id: _id, ...rest } = options;
    void _id;
    return vscode.window.showInputBox(rest);
  },
  message(level, text, options, ...actions) {
    const opts: vscode.MessageOptions = { modal: options.modal ?? false, detail: options.detail };
    if (level === 'error') return vscode.window.showErrorMessage(text, opts, ...actions);
    if (level === 'warning') return vscode.window.showWarningMessage(text, opts, ...actions);
    return vscode.window.showInformationMessage(text, opts, ...actions);
  },
  progress(options, task) {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: escapeLinkedText(options.title), cancellable: true }, task);
  },
};

/**
 * Holds the prompter in use; `activate` creates one and the test API can replace its target. Every text
 * shown passes through the redactor, so that no message can carry a key, and through `escapeLinkedText`:
 * notifications and input boxes render `[label](command:…)` as a clickable link, and messages carry model
 * ids, gateway errors, file names and settings values. Quorum's own messages never contain links.
 */
export class PrompterHolder implements Prompter {
  private current: Prompter = windowPrompter;

  constructor(private readonly redactor: Redactor) {}

  use(prompter: Prompter | undefined): void {
    this.current = prompter ?? windowPrompter;
  }

  pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Thenable<T | undefined> {
    return this.current.pick(items, options);
  }
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Thenable<readonly T[] | undefined> {
    return this.current.pickMany(items, options);
  }
  input(options: vscode.InputBoxOptions & { id: string }): Thenable<string | undefined> {
    const { validateInput } = options;
    const safe = (text: string | undefined) => (text === undefined ? undefined : this.shown(text));
    return this.current.input({
      ...options,
      prompt: safe(options.prompt),
      ...(validateInput
        ? {
            validateInput: async (value: string) => {
              const result = await validateInput(value);
              if (result === undefined || result === null) return result;
              return typeof result === 'string' ? this.shown(result) : { ...result, message: this.shown(result.message) };
            },
          }
        : {}),
    });
  }
  message(level: 'info' | 'warning' | 'error', text: string, options: { id: string; modal?: boolean; detail?: string }, ...actions: string[]): Thenable<string | undefined> {
    const detail = options.detail === undefined ? undefined : this.shown(options.detail);
    return this.current.message(level, this.shown(text), { ...options, detail }, ...actions);
  }

  progress<R>(options: ProgressOptions, task: ProgressTask<R>): Thenable<R> {
    return this.current.progress({ ...options, title: this.shown(options.title) }, (progress, token) =>
      task({ report: (v) => progress.report(v.message === undefined ? v : { ...v, message: this.shown(v.message) }) }, token));
  }

  /** A text as it may be shown in a notification or input box: no key, no link, bidi controls as `<U+202E>` tokens. */
  shown(text: string): string {
    return revealBidi(escapeLinkedText(this.redactor.redact(text)));
  }
}

/** A notification with an Open Settings action (none when `settingsQuery` is undefined) that opens the settings at `settingsQuery`. */
export async function messageWithSettings(prompter: Prompter, level: 'warning' | 'error', text: string, id: string, settingsQuery: string | undefined): Promise<void> {
  const open = vscode.l10n.t('Open Settings');
  const choice = await prompter.message(level, text, { id }, ...(settingsQuery !== undefined ? [open] : []));
  if (settingsQuery !== undefined && choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', settingsQuery);
}
