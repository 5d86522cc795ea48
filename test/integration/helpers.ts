import * as vscode from 'vscode';
import type { QuorumApi } from '../../src/vscode/api';
import type { ProgressOptions, ProgressTask, Prompter } from '../../src/vscode/prompter';
import type { RecordedRequest, Reply } from '../fixtures/gateway/server';

export const EXTENSION_ID = 'quorum-dev.quorum';

export async function quorum(): Promise<QuorumApi> {
  const ext = vscode.extensions.getExtension<QuorumApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed`);
  const api = await ext.activate();
  // These tests count the reviewers' requests and cards; the verifier (on by default) is tested in the unit suite.
  await setSetting(api, 'review.verify', 'off');
  return api;
}

export interface PromptCall {
  kind: 'pick' | 'input' | 'message' | 'progress';
  id: string;
  level?: 'info' | 'warning' | 'error';
  text?: string;
  detail?: string;
  modal?: boolean;
  actions?: string[];
  items?: vscode.QuickPickItem[];
  options?: vscode.InputBoxOptions;
}

type PickAnswer = (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined;
type PickManyAnswer = (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem[] | undefined;
type InputAnswer = (options: vscode.InputBoxOptions) => string | undefined;
type MessageAnswer = (actions: readonly string[], text: string) => string | undefined;

/**
 * Answers Quorum's questions in tests, by question id, and records every question and notification.
 * Unanswered questions are dismissed (as pressing Escape would).
 */
export class ScriptedPrompter implements Prompter {
  readonly calls: PromptCall[] = [];
  private readonly picks = new Map<string, PickAnswer>();
  private readonly manyPicks = new Map<string, PickManyAnswer>();
  private readonly inputs = new Map<string, InputAnswer>();
  private readonly messages = new Map<string, MessageAnswer>();
  private waiters: { pred: (c: PromptCall) => boolean; resolve: (c: PromptCall) => void }[] = [];
  private readonly cancels = new Map<string, vscode.CancellationTokenSource>();

  onPick(id: string, answer: PickAnswer): this {
    this.picks.set(id, answer);
    return this;
  }
  onPickMany(id: string, answer: PickManyAnswer): this {
    this.manyPicks.set(id, answer);
    return this;
  }
  onInput(id: string, answer: InputAnswer): this {
    this.inputs.set(id, answer);
    return this;
  }
  onMessage(id: string, answer: MessageAnswer): this {
    this.messages.set(id, answer);
    return this;
  }

  private record(call: PromptCall): void {
    this.calls.push(call);
    const ready = this.waiters.filter((w) => w.pred(call));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(call);
  }

  /** Resolves with the first call (already made or still to come) that matches. */
  next(pred: (c: PromptCall) => boolean): Promise<PromptCall> {
    const done = this.calls.find(pred);
    if (done) return Promise.resolve(done);
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  messagesWith(id: string): PromptCall[] {
    return this.calls.filter((c) => c.kind === 'message' && c.id === id);
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Promise<T | undefined> {
    const list = await items;
    this.record({ kind: 'pick', id: options.id, items: [...list] });
    return this.picks.get(options.id)?.(list) as T | undefined;
  }

  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { id: string }): Promise<readonly T[] | undefined> {
    const list = await items;
    this.record({ kind: 'pick', id: options.id, items: [...list] });
    return this.manyPicks.get(options.id)?.(list) as T[] | undefined;
  }

  input(options: vscode.InputBoxOptions & { id: string }): Promise<string | undefined> {
    this.record({ kind: 'input', id: options.id, options });
    return Promise.resolve(this.inputs.get(options.id)?.(options));
  }

  message(level: 'info' | 'warning' | 'error', text: string, options: { id: string; modal?: boolean; detail?: string }, ...actions: string[]): Promise<string | undefined> {
    this.record({ kind: 'message', id: options.id, level, text, detail: options.detail, modal: options.modal, actions });
    return Promise.resolve(this.messages.get(options.id)?.(actions, text));
  }

  /**
   * VS Code's real progress notification, whose token the test can also cancel (`cancelProgress`), as the
   * notification's Cancel button does; the title and every progress message are recorded (`kind: 'progress'`).
   */
  progress<R>(options: ProgressOptions, task: ProgressTask<R>): Thenable<R> {
    this.record({ kind: 'progress', id: options.id, text: options.title });
    const location = options.where === 'statusBar' ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
    return vscode.window.withProgress({ location, title: options.title, cancellable: options.where !== 'statusBar' }, (progress, token) => {
      const source = new vscode.CancellationTokenSource();
      this.cancels.set(options.id, source);
      const sub = token.onCancellationRequested(() => source.cancel());
      const report = (v: { message?: string; increment?: number }) => {
        progress.report(v);
        if (v.message !== undefined) this.record({ kind: 'progress', id: options.id, text: v.message });
      };
      return Promise.resolve(task({ report }, source.token)).finally(() => {
        sub.dispose();
        source.dispose();
        if (this.cancels.get(options.id) === source) this.cancels.delete(options.id);
      });
    });
  }

  /** Presses Cancel on the running progress notification `id`; false when none is running. */
  cancelProgress(id: string): boolean {
    const source = this.cancels.get(id);
    source?.cancel();
    return source !== undefined;
  }
}

/** Sets `quorum.<key>` in user settings (undefined removes it) and waits until Quorum has re-read it. */
export async function setSetting(api: QuorumApi, key: string, value: unknown): Promise<void> {
  const changed = new Promise<void>((resolve) => {
    const sub = api.settings.onDidChange(() => {
      sub.dispose();
      resolve();
    });
  });
  const config = vscode.workspace.getConfiguration('quorum');
  const before = JSON.stringify(config.inspect(key)?.globalValue);
  await config.update(key, value, vscode.ConfigurationTarget.Global);
  if (JSON.stringify(value) !== before) await changed;
}

/** The default model of each built-in agent, which tells the test gateway who is asking. */
export const AGENT_OF_MODEL: Record<string, string> = {
  'gpt-4.1': 'analyst',
  'claude-sonnet-4.5': 'architecture',
  'gemini-2.5-flash': 'security',
  'deepseek-v3.2': 'coding',
};

/** A script for the test gateway: JSON answers per agent, from the model it was asked for. */
export function agentScript(answers: Record<string, unknown>): (req: RecordedRequest) => Reply | undefined {
  return (req) => {
    if (req.method !== 'POST' || !req.model) return undefined;
    const agent = AGENT_OF_MODEL[req.model];
    if (!agent || !(agent in answers)) return undefined;
    return { text: JSON.stringify(answers[agent]), promptTokens: 900, tokensPerSecond: 0 };
  };
}

export async function openSample(name: string): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the tests need the fixture workspace');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, name));
  return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
}

export function select(editor: vscode.TextEditor, firstLine: number, lastLine: number): void {
  const end = editor.document.lineAt(lastLine - 1).range.end;
  editor.selection = new vscode.Selection(firstLine - 1, 0, end.line, end.character);
}

/**
 * Undoes every unsaved change (a file gets its text on disk back, an untitled document is emptied, so
 * neither is dirty and nothing asks to save) and closes every editor: each test starts from the files on
 * disk, and the fixture files are never written.
 */
export async function closeAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (!doc.isDirty) continue;
    const text = doc.isUntitled ? '' : new TextDecoder().decode(await vscode.workspace.fs.readFile(doc.uri));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    await vscode.workspace.applyEdit(edit);
    // Read again: the edit may have left it clean.
    const stillDirty = (d: vscode.TextDocument) => d.isDirty;
    if (stillDirty(doc) && !doc.isUntitled) await doc.save();
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function until<T>(event: vscode.Event<T>, pred: (v: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const sub = event((v) => {
      if (!pred(v)) return;
      sub.dispose();
      resolve(v);
    });
  });
}
