import type * as vscode from 'vscode';
import type { Redactor } from '../core/redaction/redactor';
import { revealBidi } from '../shared/bidi';
import { escapeLinkedText } from '../shared/untrustedText';

/**
 * Every question and notification Quorum shows goes through a `Prompter`. The real one is VS Code's window
 * (windowPrompter.ts), behind a `PrompterHolder` that makes every text safe to show; integration tests swap in
 * one that answers (see the test API returned by `activate`).
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
  /** 'statusBar': a spinner in the status bar, for short work that is not cancelled; else a cancellable notification. */
  where?: 'statusBar';
}

export type ProgressTask<R> = (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>;

/**
 * Holds the prompter in use: VS Code's window (`window`), or the one the test API put in its place. Every text
 * shown passes through the redactor, so that no message can carry a key, and, where VS Code renders
 * `[label](command:…)` as a clickable link (notifications, progress notifications, input box prompts and
 * validation messages), through `escapeLinkedText`: messages carry model ids, gateway errors, file names and
 * settings values, and Quorum's own messages never contain links. Bidi controls are shown as `<U+202E>` tokens.
 * Quick pick items are redacted and their bidi controls shown, not escaped: Quorum's own items show icons.
 */
export class PrompterHolder implements Prompter {
  private current: Prompter;

  constructor(
    private readonly redactor: Pick<Redactor, 'redact'>,
    private readonly window: Prompter,
  ) {
    this.current = window;
  }

  use(prompter: Prompter | undefined): void {
    this.current = prompter ?? this.window;
  }

  pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Thenable<T | undefined> {
    const shown = this.shownItems(items);
    return this.current.pick(shown.items, options).then((chosen) => chosen && shown.original(chosen));
  }

  pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Thenable<readonly T[] | undefined> {
    const shown = this.shownItems(items);
    return this.current.pickMany(shown.items, options).then((chosen) => chosen?.map((c) => shown.original(c)));
  }

  input(options: vscode.InputBoxOptions & { id: string }): Thenable<string | undefined> {
    return this.current.input({
      ...options,
      prompt: options.prompt === undefined ? undefined : this.shown(options.prompt),
      ...(options.validateInput
        ? {
            validateInput: async (value: string) => {
              const result = await options.validateInput?.(value);
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
      task({ report: (v) => { progress.report(v.message === undefined ? v : { ...v, message: this.shown(v.message) }); } }, token));
  }

  /** A text as it may be shown in a notification or input box: no key, no link, bidi controls as `<U+202E>` tokens. */
  shown(text: string): string {
    return revealBidi(escapeLinkedText(this.redactor.redact(text)));
  }

  /**
   * Quick pick items as shown (label, description and detail without keys, bidi controls as tokens), and the
   * caller's own item for the one chosen: callers compare and read the items they gave.
   */
  private shownItems<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>): { items: readonly T[] | Thenable<readonly T[]>; original: (shown: T) => T } {
    const originals = new Map<T, T>();
    const safe = (text: string | undefined) => (text === undefined ? undefined : revealBidi(this.redactor.redact(text)));
    const show = (list: readonly T[]) => list.map((item) => {
      const copy: T = { ...item, label: safe(item.label) ?? '', description: safe(item.description), detail: safe(item.detail) };
      originals.set(copy, item);
      return copy;
    });
    // A list given at once is shown at once; one still coming keeps the quick pick's busy state until it comes.
    return { items: 'then' in items ? items.then(show) : show(items), original: (s) => originals.get(s) ?? s };
  }
}
