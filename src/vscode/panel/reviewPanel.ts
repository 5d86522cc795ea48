import * as vscode from 'vscode';
import {
  webviewToHostSchema, type HostToWebview, type ReviewView, type ReviewViewEvent, type WebviewToHost,
} from '../../shared/protocol';
import type { HiddenReason } from '../../shared/reviewCodes';
import type { PanelStrings } from '../../shared/panelStrings';
import { applyViewEvent, emptyReview, improvedCodeAgent } from '../../shared/reviewReducer';
import type { ReviewSessionHandle } from './panelContract';
import { panelCommand, type PanelAction } from './panelCommands';
import { renderWebviewHtml } from '../../shared/webviewHtml';
import { WebviewPage } from './webviewPage';
import { safeExternalUrl } from './links';
import { toTargetView, toViewEvent } from '../../core/report/viewEvents';

/** What a panel needs from its manager. */
export interface PanelHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  strings(): PanelStrings;
  save(view: ReviewView): void;
  /** Opens the review as a Markdown document; hidden findings in a section of their own when `showHidden`. */
  exportMarkdown(view: ReviewView, showHidden: boolean): Promise<void>;
  posted(targetKey: string, message: HostToWebview): void;
  received(targetKey: string, message: WebviewToHost): void;
  disposed(panel: ReviewPanel): void;
}

/** The view event that brings the view's hidden findings up to the session's, or undefined when they agree. */
function hiddenEvent(view: ReviewView, session: ReviewSessionHandle): ReviewViewEvent | undefined {
  const findings = [...(session.hidden ?? new Map<string, HiddenReason>())].map(([id, reason]) => ({ id, reason }));
  if (JSON.stringify(findings) === JSON.stringify(view.hidden ?? [])) return undefined;
  return { kind: 'hidden', findings };
}

/** Events are sent in batches at most this often; the page renders once per animation frame anyway. */
const FLUSH_MS = 16;

/**
 * One webview panel showing one review target. It keeps the target's `ReviewView` up to date from the
 * session's events with the same reducer the page runs, sends a snapshot whenever the page (re)loads, and
 * then numbered batches of events. A re-run of the same target reuses the panel with the new session.
 */
export class ReviewPanel implements vscode.Disposable {
  private session: ReviewSessionHandle | undefined;
  private view: ReviewView | null;
  private seq = 0;
  private ready = false;
  private pending: ReviewViewEvent[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private sessionSubscription: vscode.Disposable | undefined;
  private readonly page: WebviewPage<WebviewToHost>;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly host: PanelHost,
    readonly targetKey: string,
    restored: ReviewView | null,
  ) {
    this.view = restored;
    this.page = new WebviewPage(panel, {
      extensionUri: host.extensionUri,
      log: host.log,
      name: 'review panel',
      schema: webviewToHostSchema,
      onMessage: (m) => {
        this.host.received(this.targetKey, m);
        this.handle(m);
      },
      onClosed: () => this.release(),
    });
    this.page.follow(panel.onDidChangeViewState(() => {
      // A hidden webview is torn down (no retainContextWhenHidden); it says `ready` again when shown.
      if (!panel.visible) {
        this.ready = false;
        this.pending = [];
      } else if (this.ready) {
        this.sendSnapshot();
      }
    }));
    this.updateTitle();
    const title = this.host.strings().panelTitle;
    panel.webview.html = renderWebviewHtml({ ...this.page.resources(['dist', 'webview.js'], [['dist', 'codicons', 'codicon.css'], ['media', 'panel.css']]), title });
  }

  get sessionId(): string | undefined {
    return this.session?.id;
  }

  /** Follows `session` from now on (a new review of this target), replaying what already happened. */
  attach(session: ReviewSessionHandle): void {
    this.sessionSubscription?.dispose();
    this.session = session;
    const estimates = session.estimate?.perAgent;
    const view = emptyReview({
      sessionId: session.id,
      targetKey: session.targetKey,
      uri: session.uri.toString(),
      ...toTargetView(session.target, session.counts),
      startedAt: session.startedAt,
      ...(session.estimate ? { estimateUsd: session.estimate.costUsd, likelyUsd: session.estimate.likelyUsd } : {}),
      ...(session.privacy ? { privacy: session.privacy } : {}),
      ...(session.context ? { context: session.context } : {}),
      ...(session.tools ? { tools: session.tools } : {}),
    });
    if (session.projectDismiss) view.projectDismiss = true;
    for (const e of session.events()) applyViewEvent(view, toViewEvent(e, estimates));
    const replayed = hiddenEvent(view, session);
    if (replayed) applyViewEvent(view, replayed);
    this.view = view;
    this.pending = [];
    this.sessionSubscription = session.onEvent((e) => {
      if (this.session !== session || !this.view) return;
      const ve = toViewEvent(e, estimates);
      applyViewEvent(this.view, ve);
      this.enqueue(ve);
      // The noise controls judged the finding (or the merged list) before the event was pushed.
      const hidden = hiddenEvent(this.view, session);
      if (hidden) {
        applyViewEvent(this.view, hidden);
        this.enqueue(hidden);
      }
      if (e.type === 'review-done') this.host.save(this.view);
    });
    this.updateTitle();
    if (this.ready) this.sendSnapshot();
    if (session.isDone) this.host.save(view);
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  private updateTitle(): void {
    const target = this.view?.target;
    if (!target) {
      this.panel.title = this.host.strings().panelTitle;
      return;
    }
    if (this.view?.changes) {
      this.panel.title = vscode.l10n.t('Review: {0}', this.view.changes.label);
      return;
    }
    const name = target.file.split(/[\\/]/).pop() || target.file;
    this.panel.title = vscode.l10n.t('Review: {0}:{1}-{2}', name, target.startLine, target.endLine);
  }

  private enqueue(event: ReviewViewEvent): void {
    if (!this.ready) return; // the snapshot on `ready` will carry it
    this.pending.push(event);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (!this.ready || this.pending.length === 0 || this.disposed) return;
    const events = this.pending;
    this.pending = [];
    this.post({ type: 'events', seq: ++this.seq, events });
  }

  private sendSnapshot(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending = [];
    const review = this.view ? { ...this.view, live: this.session !== undefined } : null;
    this.post({ type: 'snapshot', seq: ++this.seq, review, strings: this.host.strings() });
  }

  private post(message: HostToWebview): void {
    if (this.disposed) return;
    this.host.posted(this.targetKey, message);
    void this.panel.webview.postMessage(message).then(undefined, (e: unknown) => {
      this.host.log.warn(`review panel: could not post ${message.type}: ${e instanceof Error ? e.name : 'error'}`);
    });
  }

  /** A page's message: the panel's own (its life cycle, the export, the clipboard, links, its log), else a button. */
  private handle(m: WebviewToHost): void {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.sendSnapshot();
        return;
      case 'resync':
        this.host.log.debug(`review panel: page asked for a snapshot after seq ${m.lastSeq}`);
        if (this.ready) this.sendSnapshot();
        return;
      case 'export':
        if (this.view) void this.host.exportMarkdown(this.view, m.showHidden === true);
        return;
      case 'copyImproved':
        this.copyImproved();
        return;
      case 'openLink':
        this.openLink(m.href);
        return;
      case 'log':
        if (m.level === 'error') this.host.log.error(`review page: ${m.message}`);
        else this.host.log.warn(`review page: ${m.message}`);
        return;
      default:
        this.press(m);
    }
  }

  /** A button of the page: the extension's command for it (panelCommands.ts), with what only the panel knows. */
  private press(m: PanelAction): void {
    // A restored review has no session to ask: its finding's lines are opened here.
    if (m.type === 'reveal' && !this.session) {
      void this.revealRestored(m.findingId);
      return;
    }
    // A live review's dismissal comes back through `resolved` too; a restored one has no session to ask.
    if (m.type === 'dismiss') this.resolved([m.findingId], 'dismissed');
    const call = panelCommand(m, { sessionId: this.session?.id, running: this.session?.isDone === false, targetKey: this.targetKey, view: this.view });
    if (!call) return;
    vscode.commands.executeCommand(call.command, ...call.args).then(undefined, (e: unknown) => {
      this.host.log.warn(`review panel: ${m.type} failed: ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  private copyImproved(): void {
    const code = this.view ? improvedCodeAgent(this.view)?.outcome?.improvedCode : undefined;
    if (code === undefined) return;
    void vscode.env.clipboard.writeText(code).then(() => vscode.window.setStatusBarMessage(vscode.l10n.t('Improved code copied'), 3000));
  }

  private openLink(href: string): void {
    const url = safeExternalUrl(href);
    if (!url) {
      this.host.log.warn('review panel: refused to open a link that is not a public http(s) URL without credentials');
      return;
    }
    void vscode.env.openExternal(vscode.Uri.parse(url.href, true));
  }

  /** Marks findings as applied or dismissed (each once) and tells the page. */
  resolved(findingIds: readonly string[], how: 'applied' | 'dismissed'): void {
    if (!this.view) return;
    let changed = false;
    for (const findingId of findingIds) {
      const done = how === 'applied' ? (this.view.applied ?? []) : this.view.dismissed;
      if (done.includes(findingId)) continue;
      const event: ReviewViewEvent = how === 'applied' ? { kind: 'applied', findingId } : { kind: 'dismissed', findingId };
      applyViewEvent(this.view, event);
      this.enqueue(event);
      changed = true;
    }
    if (changed && this.session?.isDone !== false) this.host.save(this.view);
  }

  /** A restored review has no session to ask: open the file at the finding's lines ourselves. */
  private async revealRestored(findingId: string): Promise<void> {
    const finding = this.view?.findings.find((f) => f.id === findingId);
    const stored = this.view?.uri;
    if (!finding || !stored) return;
    const uri = vscode.Uri.parse(stored, true);
    const start = new vscode.Position(Math.max(0, finding.startLine - 1), 0);
    const end = new vscode.Position(Math.max(0, finding.endLine - 1), Number.MAX_SAFE_INTEGER);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(start, end), viewColumn: vscode.ViewColumn.One });
  }

  /** Stops following the session and the page (storing the review) but leaves the panel for VS Code. */
  release(): void {
    if (this.disposed) return;
    if (this.view) this.host.save(this.view);
    this.disposed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.sessionSubscription?.dispose();
    this.page.release();
    this.host.disposed(this);
  }

  /** Closes the panel (the user closing it releases it). Harmless twice; a released panel stays open. */
  dispose(): void {
    if (this.disposed) return;
    this.release();
    this.page.close();
  }
}
