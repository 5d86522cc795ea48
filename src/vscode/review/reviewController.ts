import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { CostLedger } from '../../core/cost/ledger';
import type { ReviewPipeline } from '../../core/review/pipeline';
import { ReviewConfigError } from '../../core/review/errors';
import type { AgentResult, Finding, ReviewEstimate, ReviewEvent, ReviewOptions, ReviewSummary } from '../../core/review/types';
import type { QuorumSettings } from '../../core/settings/schema';
import { formatUsd } from '../../shared/format';
import { escapeLinkedText } from '../../shared/untrustedText';
import { Commands, REVIEW_RUNNING_CONTEXT } from '../commands';
import type { CostController } from '../cost/costController';
import type { MonthlySpend } from '../cost/monthlySpend';
import { IMPROVED_CODE, type FindingStore } from '../findings/findingStore';
import type { FixService } from '../findings/fixes';
import type { ApiKeyCommands } from '../gateway/apiKeyCommands';
import { presentError } from '../gateway/gatewayErrors';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import type { SettingsService } from '../settings';
import type { PromptShaper } from '../privacy/promptShaper';
import { rulesReport, type ShapeOutcome } from '../../core/prompt/shape';
import { ReviewSession } from './reviewSession';
import { MAX_REVIEW_CHARS, displayFile, targetFromEditor, targetKeyOf, type PreparedTarget } from './reviewTarget';
import { singleTarget, soleRegion } from '../../core/review/target';
import type { PanelActions, ReviewSessionHandle } from './session';

export interface ReviewPanelsLike {
  show(session: ReviewSessionHandle): void;
  /** Fires with a target key when the user closes that target's panel. */
  readonly onDidClose: vscode.Event<string>;
  /** Shows in the review's panel that these findings' fixes were applied, or that they were dismissed. */
  resolved(sessionId: string, findingIds: readonly string[], how: 'applied' | 'dismissed'): void;
}

/** The id under which region `index` of a review is anchored (the whole-range improved code of a single region). */
export function anchorId(index: number): string {
  return index === 0 ? IMPROVED_CODE : `${IMPROVED_CODE}#${index}`;
}

export interface ReviewControllerDeps {
  pipeline: ReviewPipeline;
  settings: SettingsService;
  ledger: CostLedger;
  monthly: MonthlySpend;
  keys: ApiKeyCommands;
  store: FindingStore;
  fixes: FixService;
  cost: CostController;
  prompter: Prompter;
  log: QuorumLog;
  /** The prompt-shaping step: rules, files never sent, secrets redacted. */
  shaper: PromptShaper;
}

/** `auto` follows VS Code's display language: Korean for `ko…`, English otherwise; a code is used as given. */
export function resolveLanguage(setting: string, displayLanguage: string): string {
  if (setting !== 'auto') return setting;
  return displayLanguage.toLowerCase().startsWith('ko') ? 'ko' : 'en';
}

/** Failures worth telling about, most actionable first. */
const ERROR_PRIORITY = ['auth', 'quota', 'forbidden', 'model-not-found', 'too-large', 'rate-limited', 'timeout', 'network', 'server', 'bad-response'];

/**
 * Runs reviews from the editor: builds the target, makes sure there is a key, estimates and checks the
 * budgets, runs the pipeline under a cancellable progress, feeds the panel, the Problems panel and the
 * status bar, and turns failures into one notification with the action that fixes them. Implements the
 * panel's actions.
 */
export class ReviewController implements PanelActions, vscode.Disposable {
  private readonly sessions = new Map<string, ReviewSession>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The latest session of each target. */
  private readonly latest = new Map<string, ReviewSession>();
  private panels: ReviewPanelsLike | undefined;
  private running = 0;
  private readonly emitter = new vscode.EventEmitter<ReviewSession>();
  /** Fires when a review starts (tests and integrations follow sessions through it). */
  readonly onDidStartReview = this.emitter.event;
  /** Reviews the changes of a changes review's panel again, as they are now (set by the changes commands). */
  rerunChanges: ((targetKey: string, options: { noCache: boolean }) => Promise<ReviewSummary | undefined>) | undefined;

  constructor(private readonly deps: ReviewControllerDeps) {
    void vscode.commands.executeCommand('setContext', REVIEW_RUNNING_CONTEXT, false);
    this.subscriptions.push(
      // A fix applied or a finding dismissed anywhere (panel or quick fix) shows in the panel, under every id
      // the panel may know it by (an agent's own finding that the merge folded into this one, too).
      deps.fixes.onDidResolve(({ sessionId, id, how }) => {
        if (id === IMPROVED_CODE) return;
        const session = this.sessions.get(sessionId);
        const ids = [id, ...[...(session?.aliases ?? [])].filter(([, into]) => into === id).map(([from]) => from)];
        this.panels?.resolved(sessionId, ids, how);
      }),
    );
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

  private get settings(): QuorumSettings {
    return this.deps.settings.current;
  }

  session(id: string): ReviewSession | undefined {
    return this.sessions.get(id);
  }

  runningSessions(): ReviewSession[] {
    return [...this.sessions.values()].filter((s) => !s.isDone);
  }

  /** "Quorum: Review Selection": the selection of the active editor, or the whole file. */
  async reviewEditor(editor = vscode.window.activeTextEditor): Promise<ReviewSummary | undefined> {
    if (!editor) {
      void this.deps.prompter.message('info', vscode.l10n.t('Open a file and select the code to review, then run Quorum: Review Selection again.'), { id: 'review.noEditor' });
      return undefined;
    }
    const prepared = targetFromEditor(editor);
    if ('kind' in prepared) {
      const text =
        prepared.kind === 'empty'
          ? vscode.l10n.t('There is nothing to review here: the selection (or file) is empty.')
          : prepared.kind === 'binary'
            ? vscode.l10n.t('This looks like binary content, which Quorum cannot review. Open a text file.')
            : vscode.l10n.t('This is too large to review ({0} KB; the limit is {1} KB). Select the part to review.', Math.round(prepared.chars / 1024), Math.round(MAX_REVIEW_CHARS / 1024));
      void this.deps.prompter.message('warning', text, { id: `review.${prepared.kind}` });
      return undefined;
    }
    const limit = this.settings.review.confirmWholeFileOverLines;
    const region = prepared.target.regions[0];
    const lines = region ? region.endLine - region.startLine + 1 : 0;
    if (prepared.wholeFile && limit > 0 && lines > limit) {
      const go = vscode.l10n.t('Review Whole File');
      const choice = await this.deps.prompter.message(
        'warning',
        vscode.l10n.t('Nothing is selected. Review the whole file ({0} lines)?', lines),
        { id: 'review.wholeFile', modal: true, detail: vscode.l10n.t('Select lines to review only them. The limit is quorum.review.confirmWholeFileOverLines ({0}).', limit) },
        go,
      );
      if (choice !== go) return undefined;
    }
    return this.start(prepared, { noCache: false });
  }

  /** Runs a review of `prepared`, replacing a running or finished review of the same target. */
  async start(prepared: PreparedTarget, opts: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    // Files never sent are refused before anything else, the key included.
    const shaping = await this.deps.shaper.shape(prepared.uri, prepared.target);
    if (!shaping.outcome.ok) {
      this.refuseExcluded(shaping.outcome);
      return undefined;
    }
    const shaped = shaping.outcome.shaped;
    const apiKey = await this.deps.keys.ensureKey();
    if (!apiKey) return undefined;
    const settings = this.settings;
    const language = resolveLanguage(settings.review.language, vscode.env.language);
    const reviewId = randomUUID();
    const base: ReviewOptions = { reviewId, language, noCache: opts.noCache, prompt: shaped.prompt };

    let estimate: ReviewEstimate;
    try {
      estimate = this.deps.pipeline.estimate(shaped.target, base);
    } catch (error) {
      await this.configError(error);
      return undefined;
    }
    const order = estimate.order;
    if (order.length > 0 && order.every((a) => estimate.perAgent[a]?.tooLarge)) {
      const switchModel = vscode.l10n.t('Switch Model');
      const choice = await this.deps.prompter.message(
        'warning',
        vscode.l10n.t('This code is too large for the context window of every agent\'s model. Select less code or switch to models with a larger context.'),
        { id: 'review.tooLarge' },
        switchModel,
      );
      if (choice === switchModel) await vscode.commands.executeCommand(Commands.switchModel);
      return undefined;
    }
    if (!(await this.withinBudgets(estimate.costUsd, estimate.likelyUsd))) return undefined;

    const previous = this.latest.get(prepared.targetKey);
    if (previous) {
      if (!previous.isDone) this.deps.log.info(`Review ${previous.id} replaced by a new review of the same lines`);
      previous.cancel();
      this.deps.store.discard(previous.id);
      // A finished review that a new one replaces is forgotten; a running one goes when it settles.
      if (previous.isDone) this.forget(previous);
    }
    const session = new ReviewSession(reviewId, prepared.targetKey, prepared.uri, prepared.target, estimate, opts.noCache, prepared.uris, prepared.counts);
    const rules = rulesReport(shaped.prompt, order);
    session.privacy = { rules: rules.used, rulesDropped: rules.dropped, redactions: shaped.redactions.map(({ kind, line, endLine, file }) => ({ kind, line, endLine, ...(file ? { file } : {}) })) };
    session.vault = shaped.vault;
    if (rules.dropped.length > 0) {
      void this.deps.prompter.message('info', vscode.l10n.t('Some repository rules did not fit in quorum.rules.maxTokens ({0} tokens) and were left out: {1}', settings.rules.maxTokens, rules.dropped.join(', ')), { id: 'privacy.rulesDropped' });
    }
    this.sessions.set(session.id, session);
    this.latest.set(session.targetKey, session);
    // Each reviewed region is anchored: its lines follow edits, and the coding agent's code for it lands there.
    prepared.target.regions.forEach((r, i) => {
      this.deps.store.add({
        sessionId: session.id,
        id: anchorId(i),
        uri: session.uriOf(r.file),
        range: { start: r.startLine - 1, end: r.endLine - 1 },
        original: r.text,
        replacement: undefined,
        finding: undefined,
        agent: 'coding',
      });
    });
    this.setRunning(+1);
    this.emitter.fire(session);
    this.panels?.show(session);
    const t = shaped.target;
    if (rules.used.length > 0) this.deps.log.info(`Review ${session.id}: repository rules ${rules.used.join(', ')}`);
    if (shaped.redactions.length > 0) this.deps.log.info(`Review ${session.id}: redacted before sending: ${shaped.redactions.map((r) => `${r.file ? `${r.file} ` : ''}${r.kind} (lines ${r.line}-${r.endLine})`).join(', ')}`);
    const chars = t.regions.reduce((n, r) => n + r.text.length, 0);
    const only = t.kind !== 'changes' ? soleRegion(t) : undefined;
    this.deps.log.info(`Review ${session.id} of ${t.label} (${only ? only.language : `${t.regions.length} regions`}, ${chars} chars): ${order.join(', ')}; estimate up to ${formatUsd(estimate.costUsd)}; language ${language}${opts.noCache ? '; cache bypassed' : ''}`);

    try {
      const summary = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: escapeLinkedText(only ? vscode.l10n.t('Quorum: reviewing {0} lines {1}–{2}', only.file, only.startLine, only.endLine) : vscode.l10n.t('Quorum: reviewing {0}', t.label)),
          cancellable: true,
        },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => session.cancel());
          let settled = 0;
          const step = order.length > 0 ? 100 / order.length : 100;
          try {
            return await this.deps.pipeline.run(t, { ...base, signal: session.abort.signal }, (event) => {
              this.onEvent(session, event);
              if (event.type === 'done' || event.type === 'failed' || event.type === 'cancelled') {
                settled++;
                progress.report({ increment: step, message: vscode.l10n.t('{0} of {1} agents done', settled, order.length) });
              }
            });
          } finally {
            sub.dispose();
          }
        },
      );
      this.finished(session, summary);
      if (this.latest.get(session.targetKey) !== session) this.forget(session);
      return summary;
    } catch (error) {
      await this.configError(error);
      session.push({
        type: 'review-done',
        reviewId: session.id,
        summary: {
          reviewId: session.id,
          target: session.target,
          agents: [],
          findings: [],
          totals: { costUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0, retries: 0 },
          cancelled: session.cancelled,
          elapsedMs: Date.now() - session.startedAt,
        },
      });
      return undefined;
    } finally {
      this.setRunning(-1);
    }
  }

  /** Reviewing a file that is never sent: say which rule keeps it back. */
  private refuseExcluded(outcome: Extract<ShapeOutcome, { ok: false }>): void {
    const where = outcome.rule.source === '.quorumignore' ? vscode.l10n.t('.quorumignore') : vscode.l10n.t('the setting quorum.privacy.exclude');
    this.deps.log.info(`Review of ${outcome.file} refused: it matches "${outcome.rule.pattern}" in ${outcome.rule.source}`);
    void this.deps.prompter.message('warning', vscode.l10n.t('Quorum never sends {0}: it matches "{1}" in {2}.', outcome.file, outcome.rule.pattern, where), { id: 'privacy.excluded' });
  }

  private forget(session: ReviewSession): void {
    this.sessions.delete(session.id);
    session.dispose();
  }

  private setRunning(delta: number): void {
    this.running = Math.max(0, this.running + delta);
    if (delta > 0) this.deps.cost.reviewStarted();
    else this.deps.cost.reviewEnded();
    void vscode.commands.executeCommand('setContext', REVIEW_RUNNING_CONTEXT, this.running > 0);
  }

  /** Budgets are checked against the estimate's ceiling (the safe figure), and the prompts say so. */
  private async withinBudgets(estimateUsd: number, likelyUsd: number): Promise<boolean> {
    const { sessionUsd, monthlyUsd } = this.settings.budget;
    const spent = this.deps.ledger.totals().session.costUsd;
    const go = vscode.l10n.t('Review Anyway');
    if (sessionUsd > 0 && spent + estimateUsd > sessionUsd) {
      const choice = await this.deps.prompter.message(
        'warning',
        vscode.l10n.t('This review may cost up to {0} if every agent writes its longest answer (likely about {1}), taking the session to {2}, past its budget of {3}.', formatUsd(estimateUsd), formatUsd(likelyUsd), formatUsd(spent + estimateUsd), formatUsd(sessionUsd)),
        { id: 'review.sessionBudget', modal: true, detail: vscode.l10n.t('The session budget is quorum.budget.sessionUsd. "Quorum: Reset Session Cost" starts the session again from $0.') },
        go,
      );
      if (choice !== go) return false;
    }
    const month = this.deps.monthly.usd;
    if (monthlyUsd > 0 && month + estimateUsd > monthlyUsd) {
      const choice = await this.deps.prompter.message(
        'warning',
        vscode.l10n.t('This review may cost up to {0} if every agent writes its longest answer (likely about {1}), taking this month\'s spend to {2}, past the monthly budget of {3}.', formatUsd(estimateUsd), formatUsd(likelyUsd), formatUsd(month + estimateUsd), formatUsd(monthlyUsd)),
        { id: 'review.monthlyBudget', modal: true, detail: vscode.l10n.t('The monthly budget is quorum.budget.monthlyUsd.') },
        go,
      );
      if (choice !== go) return false;
    }
    return true;
  }

  private onEvent(session: ReviewSession, event: ReviewEvent): void {
    session.push(event);
    if (event.type === 'finding') this.track(session, event.finding);
    if (event.type === 'done' && event.result.improvedCode !== undefined && session.fullTarget.regions.length === 1) {
      const anchor = this.deps.store.get(session.id, IMPROVED_CODE);
      if (anchor) this.deps.store.add({ ...anchor, replacement: restoreSecrets(session, event.result.improvedCode), agent: event.agent });
    } else if (event.type === 'done' && event.result.replacements) {
      for (const r of event.result.replacements) {
        const at = this.linesOf(session, r.file, r.startLine, r.endLine);
        if (!at) continue;
        const anchor = this.deps.store.get(session.id, anchorId(at.index));
        const whole = anchor !== undefined && at.range.start === anchor.range.start && at.range.end === anchor.range.end;
        const id = whole ? anchorId(at.index) : `${IMPROVED_CODE}:${r.file}:${r.startLine}-${r.endLine}`;
        this.deps.store.add({ sessionId: session.id, id, uri: at.uri, range: at.range, original: at.original, replacement: restoreSecrets(session, r.code), finding: undefined, agent: event.agent });
      }
    }
    if (event.type === 'done' || event.type === 'failed' || event.type === 'cancelled') this.logAgent(session, event.result);
  }

  /**
   * Where lines start..end of a reviewed file are now: the region holding them, moved as far as its anchor was
   * moved by edits since the review; undefined when the region's lines were deleted.
   */
  private linesOf(session: ReviewSession, file: string, start: number, end: number): { index: number; uri: vscode.Uri; range: { start: number; end: number }; original: string } | undefined {
    const index = session.regionIndex(file, start, end);
    const region = session.fullTarget.regions[index];
    const anchor = region ? this.deps.store.get(session.id, anchorId(index)) : undefined;
    if (!region || !anchor) return undefined;
    const offset = anchor.range.start - (region.startLine - 1);
    return { index, uri: anchor.uri, range: { start: start - 1 + offset, end: end - 1 + offset }, original: session.originalLines(index, start, end) };
  }

  /** Adds a finding to the Problems panel (of its file) at its current lines, unless the reviewed lines were edited since. */
  private track(session: ReviewSession, finding: Finding): void {
    if (session.cancelled) return;
    const at = this.linesOf(session, finding.file, finding.startLine, finding.endLine);
    if (!at) return;
    this.deps.store.add({
      sessionId: session.id,
      id: finding.id,
      uri: at.uri,
      range: at.range,
      original: at.original,
      replacement: restoreSecrets(session, finding.suggestion),
      finding,
      agent: finding.agents[0] ?? '',
    });
  }

  private logAgent(session: ReviewSession, r: AgentResult): void {
    const how = r.cached ? 'from the cache' : `${r.attempts} attempt(s), ${formatUsd(r.costUsd)} (${r.costSource})`;
    const error = r.error ? `; ${r.error.code}: ${r.error.message}` : '';
    const line = `Review ${session.id}: ${r.agent} on ${r.model} ${r.status} in ${Math.round(r.latencyMs)} ms, ${how}, ${r.usage.promptTokens}/${r.usage.completionTokens} tokens, ${r.findings.length} finding(s)${error}`;
    if (r.status === 'error') this.deps.log.warn(line);
    else this.deps.log.info(line);
  }

  private finished(session: ReviewSession, summary: ReviewSummary): void {
    // The merge folds findings of several agents into one: keep the merged one, alias the others to it.
    const merged = new Map(summary.findings.map((f) => [f.id, f]));
    for (const e of session.events()) {
      if (e.type !== 'finding' || merged.has(e.finding.id)) continue;
      const into = summary.findings.find((m) => m.file === e.finding.file && e.finding.agents.some((a) => m.agents.includes(a)) && m.startLine <= e.finding.endLine && e.finding.startLine <= m.endLine);
      if (into) session.aliases.set(e.finding.id, into.id);
      this.deps.store.remove(session.id, e.finding.id);
    }
    for (const f of summary.findings) {
      const tracked = this.deps.store.get(session.id, f.id);
      if (tracked) this.deps.store.add({ ...tracked, finding: f, replacement: restoreSecrets(session, f.suggestion) });
    }
    const t = summary.totals;
    this.deps.log.info(
      `Review ${session.id} ${summary.cancelled ? 'cancelled' : 'done'} in ${Math.round(summary.elapsedMs)} ms: ${summary.findings.length} finding(s), ${formatUsd(t.costUsd)}, ${t.promptTokens}/${t.completionTokens} tokens (${t.cachedTokens} cached), ${t.requests} request(s), ${t.retries} retries`,
    );
    if (!summary.cancelled && this.latest.get(session.targetKey) === session) void this.reportFailures(session, summary);
  }

  /** One notification for the most actionable failure of the review, if any agent failed. */
  private async reportFailures(session: ReviewSession, summary: ReviewSummary): Promise<void> {
    // An agent skipped because everything it builds on failed did not fail on its own: not counted.
    const failed = summary.agents.filter((a) => a.status === 'error' && a.error && a.error.code !== 'inputs-failed');
    if (failed.length === 0) return;
    const rank = (a: AgentResult) => {
      const i = ERROR_PRIORITY.indexOf(a.error?.code ?? '');
      return i < 0 ? ERROR_PRIORITY.length : i;
    };
    const worst = [...failed].sort((a, b) => rank(a) - rank(b))[0] as AgentResult;
    const error = worst.error as NonNullable<AgentResult['error']>;
    const presented = presentError(error, { baseUrl: this.settings.gateway.baseUrl, agent: worst.agent });
    if (!presented) return;
    const who = failed.length === 1 ? vscode.l10n.t('The {0} agent failed.', worst.title) : vscode.l10n.t('{0} of {1} agents failed.', failed.length, summary.agents.length);
    const choice = await this.deps.prompter.message('error', `${who} ${presented.text}`, { id: `review.failed.${error.code}` }, ...presented.actions.map((a) => a.title));
    if (error.code === 'auth' && choice === vscode.l10n.t('Set API Key')) {
      // Set the key, then run the review again with it.
      if (await this.deps.keys.setKey()) this.rerun(session.targetKey, { noCache: true });
      return;
    }
    const action = presented.actions.find((a) => a.title === choice);
    if (action) await action.run();
  }

  private async configError(error: unknown): Promise<void> {
    if (!(error instanceof ReviewConfigError)) {
      this.deps.log.error(error instanceof Error ? error : String(error));
      const showLog = vscode.l10n.t('Show Log');
      void this.deps.prompter
        .message('error', vscode.l10n.t('Quorum could not run the review: {0}', error instanceof Error ? error.message : String(error)), { id: 'review.internal' }, showLog)
        .then((choice) => choice === showLog && this.deps.log.show(true));
      return;
    }
    this.deps.log.warn(`Review not started: ${error.code}: ${error.message}`);
    const open = vscode.l10n.t('Open Settings');
    const text =
      error.code === 'no-agents'
        ? vscode.l10n.t('Every agent is disabled. Enable one in the settings (quorum.agents.*.enabled).')
        : error.code === 'empty-target'
          ? vscode.l10n.t('There is nothing to review here: the selection (or file) is empty.')
          : vscode.l10n.t('The agent settings are invalid: {0}', error.message);
    const choice = await this.deps.prompter.message('error', text, { id: `review.config.${error.code}` }, open);
    if (choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', error.code === 'no-agents' ? 'quorum.agents' : 'quorum.customAgents');
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
    const key = anchor ? targetKeyOf(session.uri, anchor.range.start + 1, anchor.range.end + 1) : session.targetKey;
    const summary = await this.rerunTarget(key, { noCache: true });
    // The lines moved, so the new review has another target: the old findings go once it has run.
    if (summary && key !== session.targetKey) this.deps.store.discard(session.id);
    return summary;
  }

  /** Reviews the same lines again, as they read now. */
  async rerunTarget(targetKey: string, options: { noCache: boolean }): Promise<ReviewSummary | undefined> {
    const last = this.latest.get(targetKey);
    let uri: vscode.Uri;
    let start: number;
    let end: number;
    const lastRegion = last ? soleRegion(last.fullTarget) : undefined;
    if (last && last.fullTarget.kind === 'changes') {
      return this.rerunChanges?.(last.targetKey, options);
    }
    if (last && lastRegion) {
      uri = last.uri;
      start = lastRegion.startLine;
      end = lastRegion.endLine;
    } else {
      // A panel restored after a reload: the key carries the document and the lines.
      const m = /^(.*)#L(\d+)-L(\d+)$/.exec(targetKey);
      if (!m) return undefined;
      uri = vscode.Uri.parse(m[1] as string);
      start = Number(m[2]);
      end = Number(m[3]);
    }
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
      void this.deps.prompter.message('warning', vscode.l10n.t('The reviewed document is no longer available.'), { id: 'review.gone' });
      return undefined;
    }
    if (end > doc.lineCount) {
      void this.deps.prompter.message('warning', vscode.l10n.t('The reviewed lines no longer exist; select the code and review it again.'), { id: 'review.linesGone' });
      return undefined;
    }
    const text = doc.getText(new vscode.Range(start - 1, 0, end - 1, doc.lineAt(end - 1).text.length)).replace(/\r\n?/g, '\n');
    const prepared: PreparedTarget = {
      uri,
      target: singleTarget({ file: displayFile(doc), language: doc.languageId, text, startLine: start, endLine: end }),
      targetKey: targetKeyOf(uri, start, end),
      wholeFile: false,
    };
    return this.start(prepared, options);
  }

  private resolve(sessionId: string, findingId: string): string {
    return this.sessions.get(sessionId)?.aliases.get(findingId) ?? findingId;
  }

  revealFinding(sessionId: string, findingId: string): void {
    void this.reveal(sessionId, findingId);
  }

  async reveal(sessionId: string, findingId: string): Promise<void> {
    const id = this.resolve(sessionId, findingId);
    const tracked = this.deps.store.get(sessionId, id);
    const session = this.sessions.get(sessionId);
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

  previewFix(sessionId: string, findingId: string): void {
    void this.deps.fixes.preview(sessionId, this.resolve(sessionId, findingId));
  }

  applyFix(sessionId: string, findingId: string): void {
    void this.deps.fixes.apply(sessionId, this.resolve(sessionId, findingId));
  }

  dismissFinding(sessionId: string, findingId: string): void {
    this.deps.fixes.dismiss(sessionId, this.resolve(sessionId, findingId));
  }

  previewImprovedCode(sessionId: string): void {
    void this.deps.fixes.preview(sessionId, IMPROVED_CODE);
  }

  applyImprovedCode(sessionId: string): void {
    void this.deps.fixes.apply(sessionId, IMPROVED_CODE);
  }

  setApiKey(): void {
    void this.deps.keys.setKey();
  }

  switchModel(agentId?: string, suggestions?: readonly string[]): void {
    void vscode.commands.executeCommand(Commands.switchModel, agentId, suggestions ? [...suggestions] : undefined);
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    for (const s of this.sessions.values()) {
      s.cancel();
      s.dispose();
    }
    this.sessions.clear();
    this.latest.clear();
    this.emitter.dispose();
  }
}

/**
 * A suggestion or improved code with the review's secret placeholders put back to the user's real text, so
 * that applying it never writes `[REDACTED:…]` over a value.
 */
function restoreSecrets(session: ReviewSession, text: string | undefined): string | undefined {
  return text === undefined || !session.vault ? text : session.vault.restore(text);
}
