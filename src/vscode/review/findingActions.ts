import * as vscode from 'vscode';
import { IMPROVED_CODE, type FindingStore } from '../findings/findingStore';
import type { FixService } from '../findings/fixes';
import type { RegionEdits } from '../findings/regionEdits';
import type { ProjectDismissals } from '../findings/projectDismissals';
import type { FindingsTracker } from './findingsTracker';
import type { ReviewSession } from './reviewSession';
import type { LearningOffer } from '../outcomes/learningOffer';
import type { Finding } from '../../core/domain/finding';

/**
 * What the panel can do with a review's findings: reveal one in the editor, preview or apply its fix (or the
 * improved code), dismiss it. Ids the panel knows of reports that the merge folded into another finding are
 * resolved to that finding.
 */
interface FindingActionsDeps {
  /** The session the panel names (the controller's registry). */
  sessionOf: (sessionId: string) => ReviewSession | undefined;
  store: FindingStore;
  fixes: FixService;
  tracker: FindingsTracker;
  /** The coding agent's proposals across files: one preview, one edit. */
  regions: RegionEdits;
}

export class FindingActions {
  constructor(private readonly deps: FindingActionsDeps) {}

  private resolve(sessionId: string, findingId: string): string {
    return this.deps.tracker.resolve(this.deps.sessionOf(sessionId), findingId);
  }

  /** Every id the panel may know a finding by: its own, and those of the reports the merge folded into it. */
  idsOf(sessionId: string, findingId: string): string[] {
    const aliases = [...(this.deps.sessionOf(sessionId)?.aliases ?? [])];
    return [findingId, ...aliases.filter(([, into]) => into === findingId).map(([from]) => from)];
  }

  async reveal(sessionId: string, findingId: string): Promise<void> {
    const id = this.resolve(sessionId, findingId);
    const tracked = this.deps.store.get(sessionId, id);
    const session = this.deps.sessionOf(sessionId);
    let uri: vscode.Uri | undefined = tracked?.uri ?? session?.uri;
    let range: vscode.Range | undefined;
    if (tracked) range = new vscode.Range(tracked.range.start, 0, tracked.range.end, Number.MAX_SAFE_INTEGER);
    else {
      const f = session?.summary?.findings.find((x) => x.id === id) ?? session?.events().flatMap((e) => (e.type === 'finding' && e.finding.id === id ? [e.finding] : []))[0];
      if (f) {
        range = new vscode.Range(f.startLine - 1, 0, f.endLine - 1, Number.MAX_SAFE_INTEGER);
        if (session) uri = session.uriOf(f.file);
      }
    }
    if (!uri || !range) return;
    const doc = await vscode.workspace.openTextDocument(uri);
    const clamped = doc.validateRange(range);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
    editor.selection = new vscode.Selection(clamped.start, clamped.end);
    editor.revealRange(clamped, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  previewFix(sessionId: string, findingId: string): Promise<unknown> {
    return this.deps.fixes.preview(sessionId, this.resolve(sessionId, findingId));
  }

  applyFix(sessionId: string, findingId: string): Promise<unknown> {
    return this.deps.fixes.apply(sessionId, this.resolve(sessionId, findingId));
  }

  dismiss(sessionId: string, findingId: string): void {
    this.deps.fixes.dismiss(sessionId, this.resolve(sessionId, findingId));
  }

  /** The session and the finding a panel or quick fix names (a folded report: the finding it went into). */
  private found(sessionId: string, findingId: string): { session: ReviewSession; finding: Finding; id: string } | undefined {
    const id = this.resolve(sessionId, findingId);
    const session = this.deps.sessionOf(sessionId);
    const finding = this.deps.store.get(sessionId, id)?.finding ?? session?.summary?.findings.find((f) => f.id === id)
      ?? session?.events().flatMap((e) => (e.type === 'finding' && e.finding.id === id ? [e.finding] : []))[0];
    return session && finding ? { session, finding, id } : undefined;
  }

  /** "Dismiss in this project": the fingerprint goes to `.quorum/dismissed.json`, then the finding is dismissed here. */
  async dismissInProject(sessionId: string, findingId: string, project: ProjectDismissals): Promise<boolean> {
    const found = this.found(sessionId, findingId);
    if (!found || !(await project.dismiss(found.session, found.finding))) return false;
    this.deps.fixes.dismiss(sessionId, found.id);
    return true;
  }

  /** "Dismiss with a reason…": the reason kept with its outcome, dismissed in the project, a learning offered. */
  async dismissWithReason(sessionId: string, findingId: string, project: ProjectDismissals, offer: LearningOffer): Promise<boolean> {
    const found = this.found(sessionId, findingId);
    if (!found) return false;
    return offer.dismissWithReason(found.session, found.finding, () => this.dismissInProject(sessionId, findingId, project));
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
