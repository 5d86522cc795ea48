import * as vscode from 'vscode';
import type { Finding } from '../../core/domain/finding';
import type { LearningOffer } from '../outcomes/learningOffer';
import type { ReviewSession } from '../review/reviewSession';
import { IMPROVED_CODE, type FindingStore } from './findingStore';
import type { ApplyOutcome, FixService } from './fixes';
import type { ProjectDismissals } from './projectDismissals';
import type { RegionEdits } from './regionEdits';

interface FindingActionsDeps {
  /** The review a surface names (the review controller's). */
  sessionOf: (sessionId: string) => ReviewSession | undefined;
  store: FindingStore;
  fixes: FixService;
  /** The coding agent's proposals across files (a review of changes): one preview, one edit. */
  regions: RegionEdits;
  /** The project's dismissed findings (`.quorum/dismissed.json`). */
  dismissals: ProjectDismissals;
  /** "Dismiss with a reason…" and the learning it offers; absent: not offered. */
  learning?: LearningOffer;
}

/**
 * What can be done with a review's findings, from wherever it is asked: the quick fixes, the review panel's
 * buttons, the threads' actions and the chat's buttons all run the same internal commands, and each command has
 * one handler here. Ids of reports that the merge folded into another finding (the panel may know those) are
 * resolved to that finding.
 */
export class FindingActions {
  constructor(private readonly deps: FindingActionsDeps) {}

  /** The one id the store knows a finding by: its own, or the merged finding's it was folded into. */
  private resolve(sessionId: string, findingId: string): string {
    return this.deps.sessionOf(sessionId)?.aliases.get(findingId) ?? findingId;
  }

  /** Every id the panel may know a finding by: its own, and those of the reports the merge folded into it. */
  idsOf(sessionId: string, findingId: string): string[] {
    const aliases = [...(this.deps.sessionOf(sessionId)?.aliases ?? [])];
    return [findingId, ...aliases.filter(([, into]) => into === findingId).map(([from]) => from)];
  }

  /** The finding a surface names, as tracked or as the review reported it; undefined when the review is gone. */
  private findingOf(session: ReviewSession | undefined, sessionId: string, id: string): Finding | undefined {
    return this.deps.store.get(sessionId, id)?.finding ?? session?.summary?.findings.find((f) => f.id === id)
      ?? session?.events().flatMap((e) => (e.type === 'finding' && e.finding.id === id ? [e.finding] : []))[0];
  }

  /** Shows the finding's lines, where edits moved them. */
  async reveal(sessionId: string, findingId: string): Promise<void> {
    const id = this.resolve(sessionId, findingId);
    const tracked = this.deps.store.get(sessionId, id);
    const session = this.deps.sessionOf(sessionId);
    const f = tracked ? undefined : this.findingOf(session, sessionId, id);
    const uri = tracked?.uri ?? (f && session ? session.uriOf(f.file) : session?.uri);
    const range = tracked
      ? new vscode.Range(tracked.range.start, 0, tracked.range.end, Number.MAX_SAFE_INTEGER)
      : f && new vscode.Range(f.startLine - 1, 0, f.endLine - 1, Number.MAX_SAFE_INTEGER);
    if (!uri || !range) return;
    const doc = await vscode.workspace.openTextDocument(uri);
    const clamped = doc.validateRange(range);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
    editor.selection = new vscode.Selection(clamped.start, clamped.end);
    editor.revealRange(clamped, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  previewFix(sessionId: string, findingId: string): Promise<boolean> {
    return this.deps.fixes.preview(sessionId, this.resolve(sessionId, findingId));
  }

  applyFix(sessionId: string, findingId: string): Promise<ApplyOutcome> {
    return this.deps.fixes.apply(sessionId, this.resolve(sessionId, findingId));
  }

  /** Dismiss: the finding leaves Problems, its thread closes, the panel shows it dismissed, its outcome says so. */
  dismiss(sessionId: string, findingId: string): void {
    this.deps.fixes.dismiss(sessionId, this.resolve(sessionId, findingId));
  }

  /** "Dismiss in this project": the fingerprint goes to `.quorum/dismissed.json`, then the finding is dismissed here. */
  async dismissInProject(sessionId: string, findingId: string): Promise<boolean> {
    const id = this.resolve(sessionId, findingId);
    const session = this.deps.sessionOf(sessionId);
    const finding = this.findingOf(session, sessionId, id);
    if (!session || !finding || !(await this.deps.dismissals.dismiss(session, finding))) return false;
    this.deps.fixes.dismiss(sessionId, id);
    return true;
  }

  /** "Dismiss with a reason…": the reason kept with its outcome, dismissed in the project, a learning offered. */
  async dismissWithReason(sessionId: string, findingId: string): Promise<boolean> {
    const session = this.deps.sessionOf(sessionId);
    const finding = this.findingOf(session, sessionId, this.resolve(sessionId, findingId));
    if (!session || !finding || !this.deps.learning) return false;
    return this.deps.learning.dismissWithReason(session, finding, () => this.dismissInProject(sessionId, findingId));
  }

  /** A review of changes: the coding agent's proposals for every region, across files (not findings' fixes). */
  private regionProposals(sessionId: string): string[] | undefined {
    if (this.deps.sessionOf(sessionId)?.fullTarget.kind !== 'changes') return undefined;
    return this.deps.store.forSession(sessionId).filter((t) => t.finding === undefined && t.replacement !== undefined).map((t) => t.id);
  }

  previewImprovedCode(sessionId: string): Promise<unknown> {
    const ids = this.regionProposals(sessionId);
    return ids ? this.deps.regions.preview(sessionId, ids) : this.deps.fixes.preview(sessionId, IMPROVED_CODE);
  }

  applyImprovedCode(sessionId: string): Promise<unknown> {
    const ids = this.regionProposals(sessionId);
    return ids ? this.deps.regions.apply(sessionId, ids) : this.deps.fixes.apply(sessionId, IMPROVED_CODE);
  }
}
