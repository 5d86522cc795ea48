import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type * as z from 'zod/mini';
import { describeIssues } from '../../shared/protocol';

/**
 * The one skeleton of Quorum's webview pages (the review panel, the Compare Models page): the webview's options
 * (scripts, no command URIs, only `dist/` and `media/`), the icon, the resources of one load (a fresh nonce, the
 * CSP source, URIs through `asWebviewUri`), every message from the page validated before it is handled, and the
 * panel's end — released (left for VS Code to restore after a reload) or closed, each harmless twice.
 */

/** Only the bundle and the static assets may be loaded into a page. */
function resourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, enableCommandUris: false, enableFindWidget: true, localResourceRoots: resourceRoots(extensionUri) };
}

/** What one load of a page is built with: a fresh nonce, the webview's CSP source, its script and styles as webview URIs, the UI language. */
interface PageResources {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUris: string[];
  lang: string;
}

/** `script` and each of `styles`: a path below the extension (`['dist', 'webview.js']`). */
function pageResources(webview: vscode.Webview, extensionUri: vscode.Uri, script: readonly string[], styles: readonly (readonly string[])[]): PageResources {
  const uri = (parts: readonly string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  return {
    cspSource: webview.cspSource,
    nonce: randomBytes(18).toString('base64'),
    scriptUri: uri(script),
    styleUris: styles.map(uri),
    lang: vscode.env.language || 'en',
  };
}

/** A message from a page, checked against its schema; undefined (and a warning naming the page) when it does not parse. */
export function pageMessage<M>(schema: z.ZodMiniType<M>, raw: unknown, page: string, log: Pick<vscode.LogOutputChannel, 'warn'>): M | undefined {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  log.warn(`${page}: dropped an invalid message from the page (${describeIssues(parsed.error)})`);
  return undefined;
}

interface WebviewPageOptions<M> {
  extensionUri: vscode.Uri;
  log: Pick<vscode.LogOutputChannel, 'warn' | 'error'>;
  /** How the log names the page (`review panel`, `compare page`). */
  name: string;
  /** What the page may say: anything else is dropped. */
  schema: z.ZodMiniType<M>;
  /** A valid message (a failure is logged, not thrown into VS Code). */
  onMessage(message: M): unknown;
  /** The user closed the panel (or `close()` did). */
  onClosed(): void;
}

/** One webview panel of Quorum: its options, icon and validated messages, until it is released or closed. */
export class WebviewPage<M extends { type: string }> implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private released = false;
  private closed = false;

  constructor(readonly panel: vscode.WebviewPanel, private readonly o: WebviewPageOptions<M>) {
    panel.webview.options = webviewOptions(o.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(o.extensionUri, 'media', 'icon.png');
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => {
        this.closed = true;
        if (this.released) return;
        this.release();
        o.onClosed();
      }),
    );
  }

  /** Follows another of the panel's events for as long as the page is followed. */
  follow(subscription: vscode.Disposable): void {
    if (this.released) subscription.dispose();
    else this.subscriptions.push(subscription);
  }

  /** The resources of a new load of this page. */
  resources(script: readonly string[], styles: readonly (readonly string[])[]): PageResources {
    return pageResources(this.panel.webview, this.o.extensionUri, script, styles);
  }

  private receive(raw: unknown): void {
    const m = pageMessage(this.o.schema, raw, this.o.name, this.o.log);
    if (!m) return;
    const failed = (e: unknown) => this.o.log.error(`${this.o.name}: ${m.type} failed: ${e instanceof Error ? e.message : String(e)}`);
    try {
      const result = this.o.onMessage(m);
      if (result instanceof Promise) result.catch(failed);
    } catch (e) {
      failed(e);
    }
  }

  /** Stops following the page but leaves the panel to VS Code (a window reload restores it). Harmless twice. */
  release(): void {
    if (this.released) return;
    this.released = true;
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }

  /** Stops following the page and closes the panel. Harmless twice. */
  close(): void {
    this.release();
    if (this.closed) return;
    this.closed = true;
    this.panel.dispose();
  }

  dispose(): void {
    this.close();
  }
}
