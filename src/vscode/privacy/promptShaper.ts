import * as vscode from 'vscode';
import { AGENTS_DIR, AGENTS_MD, INSTRUCTIONS_FILE, RULES_DIR } from '../../core/prompt/repository';
import { MAX_REPO_FILE_BYTES, type RepoFs } from '../../core/prompt/repoFs';
import { loadPromptContext, type PromptContext } from '../../core/prompt/shape';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import type { SettingsService } from '../settings';

/** A workspace folder's files through VS Code's file system (local, remote or virtual alike). */
function workspaceRepoFs(root: vscode.Uri): RepoFs {
  const at = (path: string) => vscode.Uri.joinPath(root, ...path.split('/'));
  return {
    async readText(path) {
      try {
        const uri = at(path);
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.type !== vscode.FileType.File || stat.size > MAX_REPO_FILE_BYTES) return undefined;
        const bytes = await vscode.workspace.fs.readFile(uri);
        if (bytes.includes(0)) return undefined;
        return new TextDecoder('utf-8').decode(bytes);
      } catch {
        return undefined;
      }
    },
    async list(dir) {
      try {
        return (await vscode.workspace.fs.readDirectory(at(dir))).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
      } catch {
        return [];
      }
    },
  };
}

/** What a review in the editor is shaped with: the workspace's prompt context, and the document's path in it. */
interface EditorShaping {
  context: PromptContext;
  /** The document's path from the workspace folder (or repository) root; undefined outside one. */
  relativeFile: string | undefined;
}

/**
 * The editor's side of the prompt-shaping step: finds the document's workspace folder and reads its rules,
 * agents and `.quorumignore` through VS Code (rules and agents only in a trusted workspace); the review use case
 * (core's runReview) shapes the review with them. In an untrusted workspace that has rules, the user is told once per session why they were ignored;
 * repository files that cannot be used are reported once each.
 */
export class PromptShaper {
  private toldUntrusted = false;
  private readonly toldIssues = new Set<string>();
  private trustOverride: boolean | undefined;

  constructor(
    private readonly settings: SettingsService,
    private readonly prompter: Prompter,
    private readonly log: QuorumLog,
  ) {}

  /** Tests: treat the workspace as trusted or not; `undefined` follows VS Code again. */
  useTrust(trusted: boolean | undefined): void {
    this.trustOverride = trusted;
    this.toldUntrusted = false;
  }

  /** Whether the workspace counts as trusted (VS Code's answer, unless a test overrode it). */
  isTrusted(): boolean {
    return this.trustOverride ?? vscode.workspace.isTrusted;
  }

  /** `root`: the repository of a review of changes (its regions' paths are relative to it); the document's workspace folder otherwise. */
  async context(uri: vscode.Uri, root?: vscode.Uri): Promise<EditorShaping> {
    const folder = root ? { uri: root } : vscode.workspace.getWorkspaceFolder(uri);
    const fs = folder ? workspaceRepoFs(folder.uri) : undefined;
    const trusted = this.isTrusted();
    const context = await loadPromptContext({ settings: this.settings.current, fs, trusted, useRules: true });
    if (context.rulesOff === 'untrusted' && fs) await this.tellUntrusted(fs);
    for (const issue of context.repository.issues) {
      this.log.warn(issue.message);
      if (this.toldIssues.has(issue.message)) continue;
      this.toldIssues.add(issue.message);
      void this.prompter.message('warning', vscode.l10n.t('Quorum could not use {0}: {1}', issue.file, issue.message), { id: 'privacy.repositoryIssue' });
    }
    return { context, relativeFile: folder ? relativePath(folder.uri, uri) : undefined };
  }

  private async tellUntrusted(fs: RepoFs): Promise<void> {
    if (this.toldUntrusted) return;
    const found = (await Promise.all([fs.readText(AGENTS_MD), fs.readText(INSTRUCTIONS_FILE)])).some((t) => t !== undefined) || (await fs.list(RULES_DIR)).length > 0 || (await fs.list(AGENTS_DIR)).length > 0;
    if (!found) return;
    this.toldUntrusted = true;
    this.log.info('Untrusted workspace: the repository\'s review rules and agents were not read');
    void this.prompter.message(
      'info',
      vscode.l10n.t('This workspace is not trusted, so Quorum ignores its review rules and agents (.quorum/, AGENTS.md). Trust the workspace to use them.'),
      { id: 'privacy.untrusted' },
    );
  }
}

/** `uri`'s path inside `root`, with `/` separators, or undefined when it is not inside. */
export function relativePath(root: vscode.Uri, uri: vscode.Uri): string | undefined {
  if (root.scheme !== uri.scheme || root.authority !== uri.authority) return undefined;
  const base = root.path.endsWith('/') ? root.path : root.path + '/';
  return uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
}
