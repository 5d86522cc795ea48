import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { RegionMemory } from '../../core/memory/regionMemory';
import type { DismissedEntry } from '../../core/memory/dismissed';
import { learningsForWork } from '../../core/prompt/learnings';
import type { PlannedReview, ReviewConfirm, ReviewOutcome, ReviewRequest } from '../../core/review/reviewRequest';
import { runReview } from '../../core/review/runReview';
import type { ReviewEvent } from '../../core/domain/events';
import type { ReviewSummary } from '../../core/domain/result';
import { toContextView, toToolsView } from '../../core/report/viewEvents';
import { onAbort } from '../../core/util/abort';
import { isChangesKey } from '../changes/changesDecisions';
import { ChangesTarget } from '../changes/changesTarget';
import { contextEnabled, contextRoot } from '../context/editorContext';
import { IMPROVED_CODE } from '../findings/findingStore';
import { editorConfirm } from './editorConfirm';
import { editorRequest, type EditorRequest } from './editorRequest';
import { estimateReview } from './reviewEstimate';
import { FindingsTracker } from './findingsTracker';
import { cancelledByClose, linesNow, rerunRoute, tellsFailures } from './reviewDecisions';
import { logAgentEnd, privacyLogLines, startLogLine, summaryLogLine } from './reviewLog';
import { keepsOutsideChanges } from '../../core/pipeline/options';
import type { ReviewCore, ReviewDialogs, ReviewInputs, ReviewViews } from './reviewParts';
import { RunningReviews, showProgress, type ReviewProgress } from './reviewProgress';
import { ReviewRegistry } from './reviewRegistry';
import { ReviewSession } from './reviewSession';
import { LinesTarget, targetFromEditor, targetFromLines, type PreparedTarget } from './reviewTarget';

/** How a review is started: without the answer cache (a Re-run), as a Re-run of changes, cancelled by `signal`. */
interface StartOptions {
  noCache: boolean;
  /** A Re-run of changes: only the regions whose content changed since are sent (the memory of changes reviews). */
  rerun?: boolean;
  /** Whoever started the review cancels it through this (the chat's request, the agent tool's invocation). */
  signal?: AbortSignal;
}

/** One run of `start`: how it is cancelled, and the session, progress and dismissals its confirm opens and reads. */
interface EditorRun {
  readonly id: string;
  readonly abort: AbortController;
  readonly noCache: boolean;
  dismissed: readonly DismissedEntry[];
  session?: ReviewSession;
  progress?: ReviewProgress;
}

/**
 * Runs reviews from the editor through core's use case (runReview). The editor's part is the confirm (the key,
 * models too small, the file count, the budgets), the session that the review panel, the Problems panel (the
 * FindingsTracker), the threads and the status bar follow, and what it says when it ends. What can be done
 * with the findings afterwards is not the controller's: those are commands (findings/findingActions.ts).
 */
export class ReviewController implements vscode.Disposable {
  private readonly sessions: ReviewRegistry;
  private readonly tracker: FindingsTracker;
  private readonly running: RunningReviews;
  private readonly emitter = new vscode.EventEmitter<ReviewSession>();
  private readonly subscriptions: { dispose(): void }[] = [this.emitter];
  /** Fires when a review starts (the threads, tests and integrations follow sessions through it). */
  readonly onDidStartReview = this.emitter.event;

  constructor(private readonly deps: { core: ReviewCore; reads: ReviewInputs; asks: ReviewDialogs; shows: ReviewViews }) {
    const { store, log, cost, panels } = deps.shows;
    this.sessions = new ReviewRegistry(store, log);
    this.tracker = new FindingsTracker(store);
    this.running = new RunningReviews(cost);
    this.subscriptions.push(
      // Closing a review's panel cancels the reviews of its target.
      panels.onDidClose((targetKey) => {
        for (const s of cancelledByClose(this.runningSessions(), targetKey)) {
          log.info(`Review ${s.id} cancelled: its panel was closed`);
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
    const { notices } = this.deps.asks;
    if (!editor) {
      notices.noEditor();
      return undefined;
    }
    const prepared = targetFromEditor(editor);
    if ('kind' in prepared) {
      notices.targetProblem(prepared);
      return undefined;
    }
    const region = prepared.target.regions[0];
    if (prepared.wholeFile && region && !(await notices.confirmWholeFile(region.endLine - region.startLine + 1))) return undefined;
    return this.start(prepared, { noCache: false });
  }

  /**
   * Runs a review of `prepared` through the review use case (core's runReview), replacing a running or finished
   * review of the same target. The editor's part is its confirm: the key (after shaping: files never sent are
   * refused before anything else), then, planned and priced, models too small, the file-count prompt, the
   * budgets; then the session, its panel and its progress. Cancelled by its session (the panel's Stop, its
   * progress, its panel closed, Cancel Review) or by `opts.signal`, whoever started it.
   */
  async start(prepared: PreparedTarget, opts: StartOptions): Promise<ReviewSummary | undefined> {
    const request = await editorRequest(prepared, this.deps.reads.settings.current, this.deps.reads.shaper, true);
    const run: EditorRun = { id: randomUUID(), abort: new AbortController(), noCache: opts.noCache, dismissed: [] };
    const stopFollowing = opts.signal ? onAbort(opts.signal, () => run.abort.abort()) : undefined;
    if (opts.signal?.aborted) run.abort.abort();
    let outcome: ReviewOutcome;
    try {
      outcome = await runReview(this.deps.core.pipeline, this.reviewRequest(prepared, request, run, opts.rerun === true));
    } catch (error) {
      await this.deps.asks.notices.cannotStart(error);
      run.session?.abandon();
      return undefined;
    } finally {
      stopFollowing?.();
      run.progress?.end();
      if (run.session) this.running.change(-1);
    }
    return this.ended(outcome, run.session);
  }

  /** The use case's request for one run: what the editor read, the run's options, noise controls, memory and outcomes, its confirm. */
  private reviewRequest(prepared: PreparedTarget, request: EditorRequest, run: EditorRun, rerun: boolean): ReviewRequest {
    const settings = this.deps.reads.settings.current;
    const { memoryDir, outcomes } = this.deps.core;
    const { minConfidence, minSeverity } = settings.review;
    return {
      ...request.sent,
      options: { reviewId: run.id, language: request.language, noCache: run.noCache, signal: run.abort.signal, ...(keepsOutsideChanges(settings) ? { keepOutsideChanges: true } : {}) },
      // Every review of changes is remembered; its Re-run sends only the regions whose content changed since.
      ...(prepared.plan && prepared.root && memoryDir ? { memory: new RegionMemory({ dir: memoryDir, root: prepared.root.toString(), reuse: rerun }) } : {}),
      noise: { minConfidence, minSeverity, dismissed: () => Promise.resolve(run.dismissed) },
      ...outcomes?.forReview(prepared.uri, prepared.root, run.id),
      confirm: this.confirm(prepared, request, run),
      onEvent: (event) => {
        if (!run.session) return;
        this.onEvent(run.session, event);
        run.progress?.onEvent(event);
      },
    };
  }

  /** The editor's confirm; once it proceeds, the run's session opens in its panel, under a progress. */
  private confirm(prepared: PreparedTarget, request: EditorRequest, run: EditorRun): ReviewConfirm {
    const { keys, notices, budget } = this.deps.asks;
    return editorConfirm({
      ensureKey: () => keys.readyToSend(),
      tooLargeForEveryModel: () => notices.tooLargeForEveryModel(),
      confirmPlan: prepared.confirm,
      budgetAllows: (costUsd, likelyUsd) => budget.allows(costUsd, likelyUsd),
      proceeding: async (plan) => {
        run.dismissed = await this.deps.reads.dismissals.entries(prepared.uri);
        run.session = this.open(prepared, plan, request, run);
        run.progress = showProgress(this.deps.shows.prompter, run.session, plan.shaped.target, plan.estimate.order.length, prepared.describe?.(plan));
      },
    });
  }

  /** What the run's outcome gives its caller: the summary of a review that ran; otherwise the user was told why not. */
  private ended(outcome: ReviewOutcome, session: ReviewSession | undefined): ReviewSummary | undefined {
    const { notices } = this.deps.asks;
    switch (outcome.status) {
      case 'excluded':
        notices.excluded(outcome);
        return undefined;
      case 'nothing':
        notices.nothingToReview(outcome.work.shaped.target.skipped?.length ?? 0);
        return undefined;
      case 'declined':
        return undefined;
      case 'reviewed':
        if (!session) return undefined;
        this.finished(session, outcome.summary);
        this.sessions.settled(session);
        return outcome.summary;
    }
  }

  /** What a review of `prepared` would send and cost, planned and declined before anything is sent (the agent-mode tool's confirmation). */
  estimate(prepared: PreparedTarget): Promise<PlannedReview | undefined> {
    return estimateReview(this.deps, prepared);
  }

  /** A new session for `prepared`, in place of the previous review of the same target; its panel shows it. */
  private open(prepared: PreparedTarget, plan: PlannedReview, request: EditorRequest, run: EditorRun): ReviewSession {
    const { settings, dismissals } = this.deps.reads;
    const { log, panels } = this.deps.shows;
    const { shaped, estimate } = plan;
    const { minConfidence, minSeverity } = settings.current.review;
    const sent = shaped.target.toolResults;
    const learnings = learningsForWork(request.context.repository.learnings, { changes: prepared.plan, relativeFile: request.relativeFile });
    const session = new ReviewSession({
      id: run.id, noCache: run.noCache, abort: run.abort,
      noise: { minConfidence, minSeverity, dismissed: { entries: run.dismissed, regions: prepared.target.regions }, ...(sent ? { toolResults: sent } : {}), learnings },
      ref: prepared.ref, uri: prepared.uri, fullTarget: prepared.target, estimate, uris: prepared.uris, counts: prepared.counts,
      projectDismiss: dismissals.folderOf(prepared.uri) !== undefined,
    });
    const rules = session.shapedBy(shaped, plan.rules);
    const root = contextRoot(prepared.root, prepared.uri);
    session.context = toContextView(shaped.target, { enabled: contextEnabled(settings.current), ...(root ? { root: root.toString() } : {}) });
    session.tools = toToolsView(shaped.target);
    if (rules.dropped.length > 0) this.deps.asks.notices.rulesDropped(rules.dropped);
    this.sessions.add(session);
    this.tracker.anchor(session);
    this.running.change(1);
    this.emitter.fire(session);
    panels.show(session);
    for (const line of privacyLogLines(session.id, rules.used, shaped.redactions)) log.info(line);
    log.info(startLogLine(session.id, shaped.target, estimate, request.language, run.noCache));
    return session;
  }

  private onEvent(session: ReviewSession, event: ReviewEvent): void {
    session.noteNoise(event);
    session.push(event);
    this.tracker.onEvent(session, event);
    if (event.type === 'done' || event.type === 'failed' || event.type === 'cancelled') logAgentEnd(this.deps.shows.log, session.id, event.result);
  }

  private finished(session: ReviewSession, summary: ReviewSummary): void {
    this.tracker.finished(session, summary);
    this.deps.shows.log.info(summaryLogLine(session.id, summary));
    if (!tellsFailures(summary, this.sessions.isLatest(session))) return;
    void this.deps.asks.notices.failures(summary, () => this.deps.asks.keys.setKey(), () => void this.rerunTarget(session.targetKey, { noCache: true }));
  }

  /** "Quorum: Cancel Review": cancels the review `sessionId` (the panel's Stop), else every running review; how many. */
  cancel(sessionId?: string): number {
    const running = this.runningSessions().filter((s) => sessionId === undefined || s.id === sessionId);
    for (const s of running) s.cancel();
    return running.length;
  }

  /**
   * Reviews a session's lines again as they read now, following them where edits moved them (while the
   * reviewed range still exists), without the cache.
   */
  async reviewAgain(sessionId: string): Promise<ReviewSummary | undefined> {
    const session = this.sessions.get(sessionId);
    if (!session) return undefined;
    const { store } = this.deps.shows;
    const now = linesNow(store.get(sessionId, IMPROVED_CODE));
    const key = now ? new LinesTarget(session.uri, now.startLine, now.endLine).key() : session.targetKey;
    const summary = await this.rerunTarget(key, { noCache: true });
    // The lines moved, so the new review has another target: the old findings go once it has run.
    if (summary && key !== session.targetKey) store.discard(session.id);
    return summary;
  }

  /** Reviews the same target again, as it reads now (a restored panel's key names its lines): the panel's Re-run. */
  async rerunTarget(targetKey: string, options: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const last = this.sessions.latestOf(targetKey);
    const route = rerunRoute(last, targetKey, isChangesKey);
    if (route.kind === 'changes') {
      // The session's own target while it is known; a panel restored after a reload has only its key to decode.
      const known = last?.ref instanceof ChangesTarget ? last.ref : undefined;
      const prepared = await this.deps.reads.changes.again(known ?? ChangesTarget.fromKey(targetKey));
      // A Re-run sends only the regions whose content changed since this review (the memory of changes reviews).
      return prepared ? this.start(prepared, { ...options, rerun: true }) : undefined;
    }
    const lines = route.kind === 'lines' ? new LinesTarget(route.uri, route.startLine, route.endLine) : LinesTarget.fromKey(targetKey);
    if (!lines) return undefined;
    const prepared = await targetFromLines(lines);
    if (!('kind' in prepared)) return this.start(prepared, options);
    this.deps.asks.notices.gone(prepared.kind);
    return undefined;
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.sessions.dispose();
  }
}
