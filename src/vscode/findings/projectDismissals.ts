import * as vscode from 'vscode';
import { dismissFinding, readDismissed, type DismissedEntry } from '../../core/memory/dismissed';
import type { Finding } from '../../core/domain/finding';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import { relativePath } from '../privacy/promptShaper';
import type { ReviewSession } from '../review/reviewSession';

/**
 * "Dismiss in this project" in the editor, with the CLI's code (`core/memory/dismissed.ts`): the finding's
 * fingerprint goes to `.quorum/dismissed.json` in the workspace folder of its file, and reviews read that file
 * to hide what was dismissed. Only in a trusted workspace — the file is repository data, and an untrusted
 * repository must not be able to hide findings — and only for local folders (the file is written with Node).
 */
export class ProjectDismissals {
  /** Invalid files already reported, so that each is told once. */
  private readonly told = new Set<string>();

  constructor(
    private readonly trusted: () => boolean,
    private readonly log: QuorumLog,
    private readonly prompter: Prompter,
  ) {}

  /** The workspace folder whose `.quorum/dismissed.json` applies to `uri`, when dismissing there is allowed. */
  folderOf(uri: vscode.Uri): vscode.WorkspaceFolder | undefined {
    if (!this.trusted()) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder && folder.uri.scheme === 'file' ? folder : undefined;
  }

  /** The fingerprints dismissed in the project of `uri` (none outside a trusted local folder, or when the file is invalid). */
  async entries(uri: vscode.Uri): Promise<DismissedEntry[]> {
    const folder = this.folderOf(uri);
    if (!folder) return [];
    const read = await readDismissed(folder.uri.fsPath);
    if (read.ok) return read.entries;
    this.log.warn(`${read.problem}; no finding is treated as dismissed`);
    if (!this.told.has(read.problem)) {
      this.told.add(read.problem);
      void this.prompter.message('warning', vscode.l10n.t('Quorum could not use {0}: {1}', '.quorum/dismissed.json', read.problem), { id: 'dismissed.invalid' });
    }
    return [];
  }

  /**
   * Writes the fingerprint of one of a session's findings (its code as it read when the review ran). False, with
   * a message, when the workspace is not trusted or the file cannot be written.
   */
  async dismiss(session: ReviewSession, finding: Finding): Promise<boolean> {
    const uri = session.uriOf(finding.file);
    const folder = this.folderOf(uri);
    if (!folder) {
      void this.prompter.message('info', vscode.l10n.t('Findings can be dismissed in a project only in a trusted workspace folder on this machine.'), { id: 'dismissed.unavailable' });
      return false;
    }
    const region = session.fullTarget.regions[session.regionIndex(finding.file, finding.startLine, finding.endLine)];
    if (!region) return false;
    try {
      await dismissFinding(folder.uri.fsPath, { finding, text: region.text, firstLine: region.startLine, file: relativePath(folder.uri, uri) ?? finding.file });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.log.warn(`Could not write .quorum/dismissed.json: ${why}`);
      void this.prompter.message('error', vscode.l10n.t('Quorum could not write .quorum/dismissed.json: {0}', why), { id: 'dismissed.failed' });
      return false;
    }
    this.log.info(`Dismissed "${finding.title}" (${finding.agents.join('+')}) in ${folder.name}/.quorum/dismissed.json`);
    return true;
  }
}
