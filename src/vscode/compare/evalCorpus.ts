import { isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { SettingsService } from '../settings';

/** The corpus a comparison runs: its folder, how the page names it, and the key its figures are kept under. */
export interface CorpusChoice {
  dir: string;
  label: string;
  /** From `quorum.eval.corpus` (not the shipped one). */
  own: boolean;
  /** `shipped`, or the absolute folder of the team's own corpus: the figures measured on it are kept with it. */
  key: string;
}

/** Which corpus `quorum.eval.corpus` selects now: a choice, and what the user should be told about it. */
type CorpusResolution =
  | { choice: CorpusChoice; ignoredUntrusted?: string }
  /** A relative `quorum.eval.corpus` with no workspace folder to be relative to. */
  | { choice?: undefined; relativeWithoutFolder: string };

interface EvalCorpusDeps {
  settings: SettingsService;
  /** The labelled corpus shipped with the extension. */
  shippedDir: string;
  /** Whether the workspace is trusted: an untrusted one's `quorum.eval.corpus` is ignored. */
  isTrusted: () => boolean;
  /** The folder `quorum.eval.corpus` is relative to, when one is open: by default the first workspace folder. */
  workspaceFolder?: () => string | undefined;
}

const firstWorkspaceFolder = (): string | undefined => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;

/**
 * The one place that says which corpus is in use: Compare Models runs it, and Switch Model shows only the figures
 * measured on it (a figure measured on another corpus does not apply).
 */
export class EvalCorpus {
  constructor(private readonly deps: EvalCorpusDeps) {}

  /** `quorum.eval.corpus` resolved against the workspace folder, or the shipped corpus (empty setting, or an untrusted workspace). */
  resolve(): CorpusResolution {
    const shipped: CorpusChoice = { dir: this.deps.shippedDir, label: vscode.l10n.t('shipped corpus'), own: false, key: 'shipped' };
    const setting = this.deps.settings.current.eval.corpus;
    if (setting === '') return { choice: shipped };
    if (!this.deps.isTrusted()) return { choice: shipped, ignoredUntrusted: setting };
    const folder = (this.deps.workspaceFolder ?? firstWorkspaceFolder)();
    if (!isAbsolute(setting) && folder === undefined) return { relativeWithoutFolder: setting };
    const dir = folder === undefined ? setting : resolve(folder, setting);
    return { choice: { dir, label: setting, own: true, key: resolve(dir) } };
  }

  /** The corpus in use, or undefined when none can be (nothing said). */
  current(): CorpusChoice | undefined {
    return this.resolve().choice;
  }
}
