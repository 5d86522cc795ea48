import * as vscode from 'vscode';
import * as z from 'zod';
import type { HostToWebview, ReviewView, WebviewToHost } from '../../shared/protocol';
import type { PanelStrings } from '../../shared/panelStrings';
import { reviewToMarkdown } from '../../shared/reviewMarkdown';
import type { ReviewSessionHandle } from './panelContract';
import { PANEL_VIEW_TYPE } from '../contributions';
import { webviewOptions } from './webviewPage';
import { PanelStore } from './panelStore';
import { localPanelStrings } from './panelStrings';
import { ReviewPanel, type PanelHost } from './reviewPanel';

interface ReviewPanelsDeps {
  log: vscode.LogOutputChannel;
}

export interface PanelMessage<T> {
  targetKey: string;
  message: T;
}

/** What the page saves with `setState` (UI state only); the serializer reads the target from it. */
const pageStateSchema = z.object({ targetKey: z.string().max(2_000) }).loose();

/**
 * The review panels: one per review target, opened beside the editor, reused when the target is reviewed
 * again, and restored after a reload from the last view stored for the target.
 */
export class ReviewPanels implements vscode.Disposable {
  private readonly panels = new Map<string, ReviewPanel>();
  private readonly store: PanelStore;
  private readonly subscriptions: { dispose(): void }[] = [];
  private readonly postedEmitter = new vscode.EventEmitter<PanelMessage<HostToWebview>>();
  private readonly receivedEmitter = new vscode.EventEmitter<PanelMessage<WebviewToHost>>();
  private readonly closedEmitter = new vscode.EventEmitter<string>();
  private readonly host: PanelHost;
  private cachedStrings: PanelStrings | undefined;
  private disposed = false;

  /** Every message sent to a page (after validation on the page side, it is what it renders). */
  readonly onDidPostMessage = this.postedEmitter.event;
  /** Every valid message received from a page. */
  readonly onDidReceiveMessage = this.receivedEmitter.event;
  /** A target's panel was closed by the user (not on a window reload, when panels stay for the serializer). */
  readonly onDidClose = this.closedEmitter.event;

  constructor(
    context: Pick<vscode.ExtensionContext, 'extensionUri' | 'workspaceState'>,
    deps: ReviewPanelsDeps,
  ) {
    this.store = new PanelStore(context.workspaceState);
    const host: PanelHost = {
      extensionUri: context.extensionUri,
      log: deps.log,
      strings: () => (this.cachedStrings ??= localPanelStrings()),
      save: (view) => {
        this.store.save(view).then(undefined, (e: unknown) => deps.log.warn(`review panel: could not store the review: ${e instanceof Error ? e.message : String(e)}`));
      },
      exportMarkdown: (view, showHidden) => this.exportMarkdown(view, showHidden),
      posted: (targetKey, message) => this.postedEmitter.fire({ targetKey, message }),
      received: (targetKey, message) => this.receivedEmitter.fire({ targetKey, message }),
      disposed: (panel) => {
        if (this.panels.get(panel.targetKey) !== panel) return;
        this.panels.delete(panel.targetKey);
        if (!this.disposed) this.closedEmitter.fire(panel.targetKey);
      },
    };
    this.host = host;
    this.subscriptions.push(this.postedEmitter, this.receivedEmitter, this.closedEmitter);
  }

  /** Opens (or reuses) the panel for `session.targetKey` beside the editor and follows the session. */
  show(session: ReviewSessionHandle): void {
    if (this.disposed) return;
    let panel = this.panels.get(session.targetKey);
    if (panel) {
      panel.reveal();
    } else {
      const webviewPanel = vscode.window.createWebviewPanel(
        PANEL_VIEW_TYPE,
        this.host.strings().panelTitle,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        webviewOptions(this.host.extensionUri),
      );
      panel = new ReviewPanel(webviewPanel, this.host, session.targetKey, null);
      this.panels.set(session.targetKey, panel);
    }
    panel.attach(session);
  }

  /** The target keys of the open panels. */
  openTargets(): string[] {
    return [...this.panels.keys()];
  }

  /** Shows in the panel following `sessionId` that these findings' fixes were applied, or that they were dismissed. */
  resolved(sessionId: string, findingIds: readonly string[], how: 'applied' | 'dismissed'): void {
    for (const panel of this.panels.values()) if (panel.sessionId === sessionId) panel.resolved(findingIds, how);
  }

  /** A panel VS Code brings back after a window reload (the serializer activation registers hands it over). */
  restore(webviewPanel: vscode.WebviewPanel, state: unknown): void {
    const parsed = pageStateSchema.safeParse(state);
    const targetKey = parsed.success ? parsed.data.targetKey : '';
    const view = targetKey ? this.store.get(targetKey) ?? null : null;
    if (!view || this.panels.has(targetKey)) {
      // Nothing to show (or that target is already open): a restored empty panel would only confuse.
      webviewPanel.dispose();
      return;
    }
    this.panels.set(targetKey, new ReviewPanel(webviewPanel, this.host, targetKey, view));
  }

  private async exportMarkdown(view: ReviewView, showHidden: boolean): Promise<void> {
    const content = reviewToMarkdown(view, this.host.strings(), new Date(), showHidden);
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Active });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Panels stay open: on a reload VS Code keeps them and the serializer restores them from the store.
    for (const p of [...this.panels.values()]) p.release();
    this.panels.clear();
    for (const d of this.subscriptions) d.dispose();
    this.subscriptions.length = 0;
  }
}
