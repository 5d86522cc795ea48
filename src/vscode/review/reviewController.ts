import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { resolveOutputLanguage } from '../../core/agents/language';
import { withShapedTarget, type ChangesPlan } from '../../core/changes/plan';
import type { ShapedReview } from '../../core/prompt/shape';
import type { CostLedger } from '../../core/cost/ledger';
import type { DismissedEntry } from '../../core/review/dismissed';
import type { ReviewPipeline } from '../../core/review/pipeline';
import { soleRegion } from '../../core/review/target';
import type { ReviewEstimate, ReviewEvent, ReviewOptions, ReviewSummary } from '../../core/review/types';
import { Commands } from '../commands';
import type { CostController } from '../cost/costController';
import type { MonthlySpend } from '../cost/monthlySpend';
import { IMPROVED_CODE, type FindingStore } from '../findings/findingStore';
import type { FixService } from '../findings/fixes';
import type { RegionEdits } from '../findings/regionEdits';
import type { ProjectDismissals } from '../findings/projectDismissals';
import type { ApiKeyCommands } from '../gateway/apiKeyCommands';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import type { PromptShaper } from '../privacy/promptShaper';
import type { SettingsService } from '../settings';
import { BudgetGuard } from './budgetGuard';
import { FindingActions } from './findingActions';
import { FindingsTracker } from './findingsTracker';
import { logAgentEnd, privacyLogLines, startLogLine, summaryLogLine } from './reviewLog';
import { ReviewNotices } from './reviewNotices';
import { planReview, type PlannedReview } from './reviewPlanning';
import { RunningReviews, runWithProgress } from './reviewProgress';
import { ReviewSession } from './reviewSession';
import { ReviewSessions } from './reviewSessions';
import { isChangesKey } from '../changes/changesTarget';
import { LinesTarget, targetFromEditor, targetFromLines, type ChangesEstimate, type PreparedTarget } from './reviewTarget';
import type { PanelActions, ReviewPanelsLike } from './session';

interface ReviewControllerDeps {
  pipeline: ReviewPipeline;
  settings: SettingsService;
  ledger: CostLedger;
  monthly: MonthlySpend;
  keys: ApiKeyCommands;
  store: FindingStore;
  fixes: FixService;
  /** The coding agent's proposals across files (a review of changes): one preview, one edit. */
  regionEdits: RegionEdits;
  cost: CostController;
  prompter: Prompter;
  log: QuorumLog;
  /** The prompt-shaping step: rules, files never sent, secrets redacted. */
  shaper: PromptShaper;
  /** The project's dismissed findings (`.quorum/dismissed.json`). */
  dismissals: ProjectDismissals;
}

/**
 * Runs reviews from the editor: shapes the target, checks key, estimate and budgets (BudgetGuard), runs the
 * pipeline under a progress, feeds the panel and the Problems panel (FindingsTracker); ReviewNotices speaks.
 */
export class ReviewController implements PanelActions, vscode.Disposable {
  private readonly sessions: ReviewSessions;
  private readonly subscriptions: vscode.Disposable[] = [];
  private panels: ReviewPanelsLike | undefined;
  private readonly emitter = new vscode.EventEmitter<ReviewSession>();
  private readonly budget: BudgetGuard;
  private readonly notices: ReviewNotices;
  private readonly tracker: FindingsTracker;
  private readonly findings: FindingActions;
  private readonly running: RunningReviews;
  /** Fires when a review starts (tests and integrations follow sessions through it). */
  readonly onDidStartReview = this.emitter.event;
  /** Reviews the changes of a changes review's panel again, as they are now (set by the changes commands). */
  rerunChanges: ((targetKey: string, options: { noCache: boolean }) => Promise<ReviewSummary | undefined>) | undefined;

  constructor(private readonly deps: ReviewControllerDeps) {
    this.sessions = new ReviewSessions(deps.store, deps.log);
    this.budget = new BudgetGuard(deps.settings, deps.ledger, deps.monthly, deps.prompter);
    this.notices = new ReviewNotices(deps.settings, deps.prompter, deps.log);
    this.tracker = new FindingsTracker(deps.store);
    this.running = new RunningReviews(deps.cost);
    this.findings = new FindingActions((id) => this.sessions.get(id), deps.store, deps.fixes, this.tracker, deps.regionEdits);
    // A fix applied or a finding dismissed anywhere shows in the panel, under every id the panel knows it by.
    this.subscriptions.push(deps.fixes.onDidResolve(({ sessionId, id, how }) => {
      if (id !== IMPROVED_CODE) this.panels?.resolved(sessionId, this.findings.idsOf(sessionId, id), how);
    }));
  }

  attachPanels(panels: ReviewPanelsLike): void {
    this.panels = panels;
    // Closing a review's panel cancels the reviews of its target.
    this.subscriptions.push(panels.onDidClose((targetKey) => {
      for (const s of this.runningSessions()) {
        if (s.targetKey !== targetKey || s.cancelled) continue;
        this.deps.log.info(`Review ${s.id} cancelled: its panel was closed`);
        s.cancel();
      }
    }));
  }

  session(id: string): ReviewSession | undefined {
    return this.sessions.get(id);
  }

  runningSessions(): ReviewSession[] {
    return this.sessions.running();
  }

  /** "Quorum: Review Selection": the selection of the active editor, or the whole file. */
  async reviewEditor(editor = vscode.window.activeTextEditor): Promise<ReviewSummary | undefined> {
    if (!editor) return this.notices.noEditor();
    const prepared = targetFromEditor(editor);
    if ('kind' in prepared) return this.notices.targetProblem(prepared);
    const region = prepared.target.regions[0];
    if (prepared.wholeFile && region && !(await this.notices.confirmWholeFile(region.endLine - region.startLine + 1))) return undefined;
    return this.start(prepared, { noCache: false });
  }

  /** Runs a review of `prepared`, replacing a running or finished review of the same target. */
  async start(prepared: PreparedTarget, opts: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const ready = await this.plan(prepared, opts, () => this.deps.keys.ensureKey());
    if (!ready) return undefined;
    const { shaped, changes, base, planned } = ready;
    const { estimate } = planned;
    if (estimate.order.length > 0 && estimate.order.every((a) => estimate.perAgent[a]?.tooLarge)) return this.notices.tooLargeForEveryModel().then(() => undefined);
    if (changes && prepared.confirm && !(await prepared.confirm(changes, estimate))) return undefined;
    if (!(await this.budget.allows(estimate.costUsd, estimate.likelyUsd))) return undefined;
    const dismissed = await this.deps.dismissals.entries(prepared.uri);
    const session = this.open(prepared, shaped, base, estimate, opts.noCache, dismissed);
    const before = changes && prepared.describe ? prepared.describe(changes, estimate) : undefined;
    try {
      const summary = await runWithProgress(planned.run, session, shaped.target, estimate.order.length, (event) => this.onEvent(session, event), before);
      this.finished(session, summary);
      this.sessions.settled(session);
      return summary;
    } catch (error) {
      await this.notices.cannotStart(error);
      session.abandon();
      return undefined;
    } finally {
      this.running.change(-1);
    }
  }

  /**
   * What a review of `prepared` would cost, planned exactly as `start` plans it, sending nothing (the agent-mode
   * tool's confirmation). Undefined when it cannot be planned; the user was told why.
   */
  async estimate(prepared: PreparedTarget): Promise<ChangesEstimate | undefined> {
    return (await this.plan(prepared, { noCache: false }, async () => true))?.planned.estimate;
  }

  /** Shapes and plans a review: files never sent are refused before anything else, the key (`keyReady`) included. */
  private async plan(prepared: PreparedTarget, opts: { noCache: boolean }, keyReady: () => Promise<unknown>): Promise<{ shaped: ShapedReview; changes: ChangesPlan | undefined; base: ReviewOptions; planned: PlannedReview } | undefined> {
    const shaping = await this.deps.shaper.shape(prepared.uri, prepared.target, prepared.root);
    if (!shaping.outcome.ok) return this.notices.excluded(shaping.outcome);
    const shaped = shaping.outcome.shaped;
    const changes = prepared.plan ? withShapedTarget(prepared.plan, shaped.target) : undefined;
    if (changes && changes.batches.length === 0) return this.notices.nothingToReview(shaped.target.skipped?.length ?? 0);
    if (!(await keyReady())) return undefined;
    const language = resolveOutputLanguage(this.deps.settings.current.review.language, vscode.env.language);
    const keepOutside = changes !== undefined && !this.deps.settings.current.changes.onlyChangedLines;
    const base: ReviewOptions = { reviewId: randomUUID(), language, noCache: opts.noCache, prompt: shaped.prompt, ...(keepOutside ? { keepOutsideChanges: true } : {}) };
    try {
      return { shaped, changes, base, planned: await planReview(this.deps.pipeline, shaped.target, changes, base) };
    } catch (error) {
      await this.notices.cannotStart(error);
      return undefined;
    }
  }

  /** A new session for `prepared`, in place of the previous review of the same target; its panel shows it. */
  private open(prepared: PreparedTarget, shaped: ShapedReview, base: ReviewOptions, estimate: ReviewEstimate, noCache: boolean, dismissed: DismissedEntry[]): ReviewSession {
    const session = new ReviewSession(base.reviewId ?? randomUUID(), prepared.ref.key(), prepared.uri, prepared.target, estimate, noCache, prepared.uris, prepared.counts);
    // The noise controls, as the CLI applies them: settings, and what the project dismissed (the code as it read, before redaction).
    const { minConfidence, minSeverity } = this.deps.settings.current.review;
    session.noise = { minConfidence, minSeverity, dismissed: { entries: dismissed, regions: session.fullTarget.regions } };
    session.projectDismiss = this.deps.dismissals.folderOf(prepared.uri) !== undefined;
    const rules = session.shapedBy(shaped, estimate.order);
    if (rules.dropped.length > 0) this.notices.rulesDropped(rules.dropped);
    this.sessions.add(session);
    this.tracker.anchor(session);
    this.running.change(+1);
    this.emitter.fire(session);
    this.panels?.show(session);
    for (const line of privacyLogLines(session.id, rules.used, shaped.redactions)) this.deps.log.info(line);
    this.deps.log.info(startLogLine(session.id, shaped.target, estimate, base.language, noCache));
    return session;
  }

  private onEvent(session: ReviewSession, event: ReviewEvent): void {
    session.noteNoise(event);
    session.push(event);
    this.tracker.onEvent(session, event);
    if (event.type === 'done' || event.type === 'failed' || event.type === 'cancelled') logAgentEnd(this.deps.log, session.id, event.result);
  }

  private finished(session: ReviewSession, summary: ReviewSummary): void {
    this.tracker.finished(session, summary);
    this.deps.log.info(summaryLogLine(session.id, summary));
    if (summary.cancelled || !this.sessions.isLatest(session)) return;
    void this.notices.failures(summary, () => this.deps.keys.setKey(), () => this.rerun(session.targetKey, { noCache: true }));
  }

  /** "Quorum: Cancel Review": cancels every running review. */
  cancelAll(): number {
    const running = this.runningSessions();
    for (const s of running) s.cancel();
    return running.length;
  }

  // ---- PanelActions ----
  cancel(sessionId: string): void {
    this.sessions.get(sessionId)?.cancel();
  }

  rerun(targetKey: string, options: { noCache: boolean }): void {
    void this.rerunTarget(targetKey, options);
  }

  /**
   * Reviews a session's lines again as they read now, following them where edits moved them (while the
   * reviewed range still exists), without the cache.
   */
  async reviewAgain(sessionId: string): Promise<ReviewSummary | undefined> {
    const session = this.sessions.get(sessionId);
    if (!session) return undefined;
    const anchor = this.deps.store.get(sessionId, IMPROVED_CODE);
    const key = anchor ? new LinesTarget(session.uri, anchor.range.start + 1, anchor.range.end + 1).key() : session.targetKey;
    const summary = await this.rerunTarget(key, { noCache: true });
    // The lines moved, so the new review has another target: the old findings go once it has run.
    if (summary && key !== session.targetKey) this.deps.store.discard(session.id);
    return summary;
  }

  /** Reviews the same target again, as it reads now (a restored panel's key names its lines). */
  async rerunTarget(targetKey: string, options: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const last = this.sessions.latestOf(targetKey);
    if (last?.fullTarget.kind === 'changes' || isChangesKey(targetKey)) return this.rerunChanges?.(targetKey, options);
    const region = last ? soleRegion(last.fullTarget) : undefined;
    const lines = last && region ? new LinesTarget(last.uri, region.startLine, region.endLine) : LinesTarget.fromKey(targetKey);
    if (!lines) return undefined;
    const prepared = await targetFromLines(lines);
    if ('kind' in prepared) return this.notices.gone(prepared.kind);
    return this.start(prepared, options);
  }

  // PanelActions about findings are FindingActions'.
  readonly revealFinding = (sessionId: string, findingId: string): void => void this.findings.reveal(sessionId, findingId);
  readonly previewFix = (sessionId: string, findingId: string): void => void this.findings.previewFix(sessionId, findingId);
  readonly applyFix = (sessionId: string, findingId: string): void => void this.findings.applyFix(sessionId, findingId);
  readonly dismissFinding = (sessionId: string, findingId: string): void => this.findings.dismiss(sessionId, findingId);
  readonly dismissInProject = (sessionId: string, findingId: string): Promise<boolean> => this.findings.dismissInProject(sessionId, findingId, this.deps.dismissals);
  readonly previewImprovedCode = (sessionId: string): void => void this.findings.previewImprovedCode(sessionId);
  readonly applyImprovedCode = (sessionId: string): void => void this.findings.applyImprovedCode(sessionId);
  readonly setApiKey = (): void => void this.deps.keys.setKey();
  readonly switchModel = (agentId?: string, suggestions?: readonly string[]): void => void vscode.commands.executeCommand(Commands.switchModel, agentId, suggestions ? [...suggestions] : undefined);

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.sessions.dispose();
    this.emitter.dispose();
  }
}
