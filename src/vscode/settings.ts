import * as vscode from 'vscode';
import { parseSettings, type SettingsIssue } from '../core/settings/parse';
import type { QuorumSettings } from '../core/settings/schema';
import type { QuorumLog } from './log';
import type { Prompter } from './prompter';
import { messageWithSettings } from './windowPrompter';
import { isRecord } from '../shared/guards';

/** The setting (`quorum.…` as listed in package.json) that an issue's dotted path falls under. */
function settingNameFor(path: string, leaves: readonly string[]): string {
  const full = path ? `quorum.${path}` : 'quorum';
  const hit = leaves.filter((k) => full === k || full.startsWith(`${k}.`)).sort((a, b) => b.length - a.length)[0];
  return hit ?? full;
}

function valueAt(raw: unknown, setting: string): unknown {
  let node: unknown = raw;
  for (const key of setting.split('.').slice(1)) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Reads the whole `quorum` section, parses it with the one zod schema and re-reads it whenever it
 * changes, so that the next request uses the new values without a reload. Invalid values are reported
 * once (per setting and value) by name, and their defaults apply.
 */
export class SettingsService implements vscode.Disposable {
  private value: QuorumSettings;
  private readonly reported = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<QuorumSettings>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.emitter.event;
  /** Every issue of the last read (for the status and tests). */
  issues: readonly SettingsIssue[] = [];

  constructor(
    private readonly leaves: readonly string[],
    private readonly log: QuorumLog,
    private readonly prompter: Prompter,
  ) {
    this.value = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('quorum')) return;
      this.value = this.read();
      this.emitter.fire(this.value);
    });
  }

  get current(): QuorumSettings {
    return this.value;
  }

  private read(): QuorumSettings {
    const raw = vscode.workspace.getConfiguration().get<unknown>('quorum') ?? {};
    const { settings, issues } = parseSettings(raw);
    this.issues = issues;
    const fresh: string[] = [];
    for (const issue of issues) {
      const name = settingNameFor(issue.path, this.leaves);
      const value: unknown = valueAt(raw, name);
      const key = `${name}\u0000${value === undefined ? '' : JSON.stringify(value)}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.log.warn(`Invalid setting ${name} (${issue.path}): ${issue.message}; using the default`);
      if (!fresh.includes(name)) fresh.push(name);
    }
    if (fresh.length > 0) void this.report(fresh);
    return settings;
  }

  private async report(names: string[]): Promise<void> {
    const [only, ...more] = names;
    const text =
      only !== undefined && more.length === 0
        ? vscode.l10n.t('The setting {0} is invalid; Quorum uses its default until it is fixed.', only)
        : vscode.l10n.t('These settings are invalid; Quorum uses their defaults until they are fixed: {0}', names.join(', '));
    await messageWithSettings(this.prompter, 'warning', text, 'settings.invalid', names[0]);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
