import { editorToolResults, toolResultsOf } from '../toolResults/editorToolResults';
import { toContextView, toToolsView } from '../../core/report/viewEvents';
import { RegionMemory } from '../../core/memory/regionMemory';
import { contextEnabled, contextRoot, editorContext } from '../context/editorContext';
import { openContextLocation } from '../context/contextLocation';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { resolveOutputLanguage } from '../../core/agents/language';
import type { CostLedger } from '../../core/cost/ledger';
import type { DismissedEntry } from '../../core/memory/dismissed';
import type { ReviewPipeline } from '../../core/pipeline/pipeline';
import type { PlannedReview, ReviewOutcome } from '../../core/review/reviewRequest';
import { runReview } from '../../core/review/runReview';
import type { ReviewEvent } from '../../core/domain/events';
import type { ReviewSummary } from '../../core/domain/result';
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
import { editorConfirm } from './editorConfirm';
import { FindingActions } from './findingActions';
import { FindingsTracker } from './findingsTracker';
import { logAgentEnd, privacyLogLines, startLogLine, summaryLogLine } from './reviewLog';
import { cancelledByClose, linesNow, rerunRoute, tellsFailures } from './reviewDecisions';
import { ReviewNotices } from './reviewNotices';
import { RunningReviews, showProgress, type ReviewProgress } from './reviewProgress';
import { ReviewSession, type ReviewSessionInit } from './reviewSession';
import { ReviewRegistry } from './reviewRegistry';
import type { ChangesPreparation } from '../changes/changesPreparation';
import { isChangesKey } from '../changes/changesDecisions';
import { ChangesTarget } from '../changes/changesTarget';
import { LinesTarget, targetFromEditor, targetFromLines, type PreparedTarget } from './reviewTarget';
import type { PanelActions, ReviewPanelsLike } from '../panel/panelContract';
import type { OutcomeService } from '../outcomes/outcomeService';
import type { LearningOffer } from '../outcomes/learningOffer';
import { learningsForWork } from '../../core/prompt/learnings';
import { keepsOutsideChanges } from '../../core/pipeline/options';

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
  /** Reads a changes review's changes again, as they are now (a panel's Re-run). */
  changes: Pick<ChangesPreparation, 'again'>;
  /** Where reviews of changes remember their regions (the extension's global storage): a re-review sends only what changed. */
  memoryDir?: string;
  /** The review panels: each session shows in its target's panel; closing a panel cancels its target's reviews. */
  panels: ReviewPanelsLike;
  /** What became of each finding (core/outcomes): reviews record into it, dismissals mark it. */
  outcomes?: OutcomeService;
  /** "Dismiss with a reason…" and the learning it offers. */
  learning?: LearningOffer;
}

/**
 * Runs reviews from the editor: shapes the target, checks key, estimate and budgets (BudgetGuard), runs the
 * pipeline under a progress, feeds the panel and the Problems panel (FindingsTracker); ReviewNotices speaks.
 */
export class ReviewController implements PanelActions, vscode.Disposable {
  private readonly sessions: ReviewRegistry;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly panels: ReviewPanelsLike;
  private readonly emitter = new vscode.EventEmitter<ReviewSession>();
  private readonly budget: BudgetGuard;
  private readonly notices: ReviewNotices;
  private readonly tracker: FindingsTracker;
  private readonly findings: FindingActions;
  private readonly running: RunningReviews;
  /** Fires when a review starts (tests and integrations follow sessions through it). */
  readonly onDidStartReview = this.emitter.event;

  constructor(private readonly deps: ReviewControllerDeps) {
    this.panels = deps.panels;
    this.sessions = new ReviewRegistry(deps.store, deps.log);
    this.budget = new BudgetGuard(deps.settings, deps.ledger, deps.monthly, deps.prompter);
    this.notices = new ReviewNotices(deps.settings, deps.prompter, deps.log);
    this.tracker = new FindingsTracker(deps.store);
    this.running = new RunningReviews(deps.cost);
    this.findings = new FindingActions({ sessionOf: (id) => this.sessions.get(id), store: deps.store, fixes: deps.fixes, tracker: this.tracker, regions: deps.regionEdits });
    // A fix applied or a finding dismissed anywhere shows in the panel, under every id the panel knows it by.
    this.subscriptions.push(
      deps.fixes.onDidResolve(({ sessionId, id, how }) => {
        if (id !== IMPROVED_CODE) this.panels.resolved(sessionId, this.findings.idsOf(sessionId, id), how);
      }),
      // A fix refused because the code changed offers to review the lines again.
      deps.fixes.onDidAskReviewAgain((sessionId) => void this.reviewAgain(sessionId)),
      // Closing a review's panel cancels the reviews of its target.
      deps.panels.onDidClose((targetKey) => {
        for (const s of cancelledByClose(this.runningSessions(), targetKey)) {
          this.deps.log.info(`Review ${s.id} cancelled: its panel was closed`);
          s.cancel();
        }
      }),
    );
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

  /**
   * Runs a review of `prepared` through the review use case (core's runReview), replacing a running or finished
   * review of the same target. The editor's part is its confirm: the key (after shaping: files never sent are
   * refused before anything else), then, planned and priced, models too small, the file-count prompt, the
   * budgets; then the session, its panel and its progress.
   */
  async start(prepared: PreparedTarget, opts: { noCache: boolean; rerun?: boolean }): Promise<ReviewSummary | undefined> {
    const settings = this.deps.settings.current;
    const { context, relativeFile } = await this.deps.shaper.context(prepared.uri, prepared.root);
    const codeContext = editorContext(settings, prepared.root, prepared.uri);
    const language = resolveOutputLanguage(settings.review.language, vscode.env.language);
    const abort = new AbortController();
    const options = { reviewId: randomUUID(), language, noCache: opts.noCache, signal: abort.signal, ...(keepsOutsideChanges(settings) ? { keepOutsideChanges: true } : {}) };
    const { minConfidence, minSeverity } = settings.review;
    const toolResults = editorToolResults(prepared);
    let dismissed: readonly DismissedEntry[] = [];
    let session: ReviewSession | undefined;
    let progress: ReviewProgress | undefined;
    let outcome: ReviewOutcome;
    try {
      outcome = await runReview(this.deps.pipeline, {
        work: { target: prepared.target, ...(prepared.plan ? { changes: prepared.plan } : {}), ...(relativeFile !== undefined ? { relativeFile } : {}) },
        context,
        ...(codeContext ? { codeContext } : {}),
        ...(toolResults.length > 0 ? { toolResults } : {}),
        options,
        // Every review of changes is remembered; its Re-run sends only the regions whose content changed since.
        ...(prepared.plan && prepared.root && this.deps.memoryDir ? { memory: new RegionMemory({ dir: this.deps.memoryDir, root: prepared.root.toString(), reuse: opts.rerun === true }) } : {}),
        noise: { minConfidence, minSeverity, dismissed: async () => dismissed },
        ...this.deps.outcomes?.forReview(prepared.uri, prepared.root, options.reviewId),
        confirm: editorConfirm({
          ensureKey: () => this.deps.keys.readyToSend(),
          tooLargeForEveryModel: () => this.notices.tooLargeForEveryModel(),
          confirmPlan: prepared.confirm,
          budgetAllows: (costUsd, likelyUsd) => this.budget.allows(costUsd, likelyUsd),
          proceeding: async (plan) => {
            dismissed = await this.deps.dismissals.entries(prepared.uri);
            const sent = plan.shaped.target.toolResults;
            const learnings = learningsForWork(context.repository.learnings, { changes: prepared.plan, relativeFile });
            const noise = { minConfidence, minSeverity, dismissed: { entries: dismissed, regions: prepared.target.regions }, ...(sent ? { toolResults: sent } : {}), learnings };
            session = this.open(prepared, plan, { id: options.reviewId, noCache: opts.noCache, abort, noise }, language);
            progress = showProgress(session, plan.shaped.target, plan.estimate.order.length, prepared.describe?.(plan));
          },
        }),
        onEvent: (event) => {
          if (!session) return;
          this.onEvent(session, event);
          progress?.onEvent(event);
        },
      });
    } catch (error) {
      await this.notices.cannotStart(error);
      session?.abandon();
      return undefined;
    } finally {
      progress?.end();
      if (session) this.running.change(-1);
    }
    switch (outcome.status) {
      case 'excluded':
        return this.notices.excluded(outcome);
      case 'nothing':
        return this.notices.nothingToReview(outcome.work.shaped.target.skipped?.length ?? 0);
      case 'declined':
        return undefined;
      case 'reviewed':
        if (!session) return undefined;
        this.finished(session, outcome.summary);
        this.sessions.settled(session);
        return outcome.summary;
    }
  }

  /**
   * What a review of `prepared` would send and cost, planned by the same use case as `start` (core's runReview) and
   * declined before anything is sent: the agent-mode tool's confirmation. Undefined when there is nothing to plan
   * (a file never sent, no changes, a configuration error); the user was told why.
   */
  async estimate(prepared: PreparedTarget): Promise<PlannedReview | undefined> {
    const settings = this.deps.settings.current;
    const { context, relativeFile } = await this.deps.shaper.context(prepared.uri, prepared.root);
    const language = resolveOutputLanguage(settings.review.language, vscode.env.language);
    let planned: PlannedReview | undefined;
    let outcome: ReviewOutcome;
    try {
      outcome = await runReview(this.deps.pipeline, {
        work: { target: prepared.target, ...(prepared.plan ? { changes: prepared.plan } : {}), ...(relativeFile !== undefined ? { relativeFile } : {}) },
        context,
        ...toolResultsOf(prepared),
        options: { language, noCache: false },
        confirm: {
          shaped: () => 'proceed',
          planned: (plan) => {
            planned = plan;
            return 'cancel';
          },
        },
      });
    } catch (error) {
      await this.notices.cannotStart(error);
      return undefined;
    }
    if (outcome.status === 'excluded') return this.notices.excluded(outcome);
    if (outcome.status === 'nothing') return this.notices.nothingToReview(outcome.work.shaped.target.skipped?.length ?? 0);
    return planned;
  }

  /** A new session for `prepared`, in place of the previous review of the same target; its panel shows it. */
  private open(prepared: PreparedTarget, plan: PlannedReview, init: Pick<ReviewSessionInit, 'id' | 'noCache' | 'abort' | 'noise'>, language: string): ReviewSession {
    const { shaped, estimate } = plan;
    const session = new ReviewSession({
      ...init,
      ref: prepared.ref,
      uri: prepared.uri,
      fullTarget: prepared.target,
      estimate,
      uris: prepared.uris,
      counts: prepared.counts,
      projectDismiss: this.deps.dismissals.folderOf(prepared.uri) !== undefined,
    });
    const rules = session.shapedBy(shaped, plan.rules);
    const root = contextRoot(prepared.root, prepared.uri);
    session.context = toContextView(shaped.target, { enabled: contextEnabled(this.deps.settings.current), ...(root ? { root: root.toString() } : {}) });
    session.tools = toToolsView(shaped.target);
    if (rules.dropped.length > 0) this.notices.rulesDropped(rules.dropped);
    this.sessions.add(session);
    this.tracker.anchor(session);
    this.running.change(+1);
    this.emitter.fire(session);
    this.panels.show(session);
    for (const line of privacyLogLines(session.id, rules.used, shaped.redactions)) this.deps.log.info(line);
    this.deps.log.info(startLogLine(session.id, shaped.target, estimate, language, init.noCache));
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
    if (!tellsFailures(summary, this.sessions.isLatest(session))) return;
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
    const now = linesNow(this.deps.store.get(sessionId, IMPROVED_CODE));
    const key = now ? new LinesTarget(session.uri, now.startLine, now.endLine).key() : session.targetKey;
    const summary = await this.rerunTarget(key, { noCache: true });
    // The lines moved, so the new review has another target: the old findings go once it has run.
    if (summary && key !== session.targetKey) this.deps.store.discard(session.id);
    return summary;
  }

  /** Reviews the same target again, as it reads now (a restored panel's key names its lines). */
  async rerunTarget(targetKey: string, options: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const last = this.sessions.latestOf(targetKey);
    const route = rerunRoute(last, targetKey, isChangesKey);
    if (route.kind === 'changes') {
      // The session's own target while it is known; a panel restored after a reload has only its key to decode.
      const known = last?.ref instanceof ChangesTarget ? last.ref : undefined;
      const prepared = await this.deps.changes.again(known ?? ChangesTarget.fromKey(targetKey));
      // A Re-run sends only the regions whose content changed since this review (the memory of changes reviews).
      return prepared ? this.start(prepared, { ...options, rerun: true }) : undefined;
    }
    const lines = route.kind === 'lines' ? new LinesTarget(route.uri, route.startLine, route.endLine) : LinesTarget.fromKey(targetKey);
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

  readonly dismissWithReason = async (sessionId: string, findingId: string): Promise<boolean> =>
    this.deps.learning ? this.findings.dismissWithReason(sessionId, findingId, this.deps.dismissals, this.deps.learning) : false;
  readonly previewImprovedCode = (sessionId: string): void => void this.findings.previewImprovedCode(sessionId);
  readonly applyImprovedCode = (sessionId: string): void => void this.findings.applyImprovedCode(sessionId);
  readonly setApiKey = (): void => void this.deps.keys.setKey();
  readonly switchModel = (agentId?: string, suggestions?: readonly string[]): void => void vscode.commands.executeCommand(Commands.switchModel, agentId, suggestions ? [...suggestions] : undefined);
  readonly openContext = (root: string | undefined, file: string, startLine: number, endLine: number): Promise<boolean> => openContextLocation(this.deps.prompter, root, file, startLine, endLine);

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.sessions.dispose();
    this.emitter.dispose();
  }
}
