import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderWebviewHtml } from '../../src/shared/webviewHtml';

/**
 * Loads the built webview bundle (dist/webview.js) in headless Chromium under the same HTML and CSP the
 * extension sets, with a stand-in for `acquireVsCodeApi` that records what the page posts.
 * Nothing leaves the machine: every request goes to a routed fake origin.
 */

const root = resolve(__dirname, '..', '..');
export const ORIGIN = 'https://quorum-webview.test';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export interface PanelPage {
  page: Page;
  /** Messages the webview posted to the host, in order. */
  posted(): Promise<unknown[]>;
  /** Delivers a message as the host's `webview.postMessage` would. */
  send(message: unknown): Promise<void>;
  /** CSP violations reported by the page. */
  violations(): Promise<string[]>;
  /**
   * Links that VS Code's own webview script would have opened: a stand-in for its click handler on the
   * window (bubble phase, opens any <a href> whether or not the page prevented the default) and its middle-
   * click handler. Only links the page let through end up here; Quorum's page must let none through.
   */
  workbenchOpened(): Promise<string[]>;
  /** Requests that tried to leave the fake origin. */
  blockedRequests: string[];
  close(): Promise<void>;
}

let browser: Browser | undefined;

export async function launch(): Promise<Browser> {
  browser ??= await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.png': 'image/png', '.svg': 'image/svg+xml' };

/** What the extension links: the codicon font's CSS (copied to dist/ by esbuild.js) and the panel's CSS. */
export const DEFAULT_STYLES = [`${ORIGIN}/dist/codicons/codicon.css`, `${ORIGIN}/media/panel.css`];

export interface OpenOptions {
  /** Extra CSS class on <body>, as VS Code sets `vscode-dark`, `vscode-light`, `vscode-high-contrast`. */
  themeClass?: string;
  /** CSS custom properties VS Code would inject (`--vscode-…`). */
  themeVars?: Record<string, string>;
  /** A previously saved `setState` value, as VS Code restores it. */
  state?: unknown;
  viewport?: { width: number; height: number };
  styleUris?: string[];
  /** Another page than the review panel's (the Compare Models page), built with this load's nonce. */
  html?: (nonce: string) => string;
}

export async function openPanel(options: OpenOptions = {}): Promise<PanelPage> {
  const b = await launch();
  const context = await b.newContext({ viewport: options.viewport ?? { width: 1000, height: 800 } });
  const page = await context.newPage();
  const nonce = randomBytes(16).toString('base64');
  const html = options.html ? options.html(nonce) : renderWebviewHtml({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/dist/webview.js`,
    styleUris: options.styleUris ?? DEFAULT_STYLES,
    lang: 'en',
    title: 'Quorum Review',
  });
  const blockedRequests: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) {
      blockedRequests.push(url.href);
      return route.abort('blockedbyclient');
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    }
    const file = join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) return route.fulfill({ status: 404 });
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      return route.fulfill({ status: 404 });
    }
    return route.fulfill({ status: 200, contentType: CONTENT_TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream', body });
  });
  // A string, not a function: the test runner's transpiler would add helpers the page does not have.
  await page.addInitScript(`(() => {
    const posted = [];
    const violations = [];
    let saved = ${JSON.stringify(options.state ?? null)};
    window.__posted = posted;
    window.__violations = violations;
    window.__savedState = () => saved;
    const workbenchOpened = [];
    window.__workbenchOpened = workbenchOpened;
    const linkIn = (e) => e.composedPath().find((n) => n && n.tagName && n.tagName.toLowerCase() === 'a' && n.href);
    window.addEventListener('click', (e) => {
      const a = linkIn(e);
      if (a) { workbenchOpened.push('did-click-link ' + a.href); e.preventDefault(); }
    });
    window.addEventListener('auxclick', (e) => {
      const a = linkIn(e);
      if (a && e.button === 1) { workbenchOpened.push('auxclick ' + a.href); e.preventDefault(); }
    });
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => { posted.push(JSON.parse(JSON.stringify(m))); },
      getState: () => saved ?? undefined,
      setState: (s) => { saved = s; return s; },
    });
    const themeClass = ${JSON.stringify(options.themeClass ?? '')};
    const themeVars = ${JSON.stringify(options.themeVars ?? {})};
    document.addEventListener('DOMContentLoaded', () => {
      if (themeClass) document.body.classList.add(themeClass);
      for (const [k, v] of Object.entries(themeVars)) document.documentElement.style.setProperty(k, v);
    });
  })();`);
  await page.goto(`${ORIGIN}/index.html`);
  return {
    page,
    blockedRequests,
    posted: () => page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted.slice()),
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations.slice()),
    workbenchOpened: () => page.evaluate(() => (window as unknown as { __workbenchOpened: string[] }).__workbenchOpened.slice()),
    send: async (message) => {
      await page.evaluate((m) => window.postMessage(m, '*'), message);
    },
    close: () => context.close(),
  };
}

/** Waits until the page has posted a message matching `predicate`. */
export async function waitForPosted(panel: PanelPage, predicate: (m: unknown) => boolean, timeoutMs = 5000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await panel.posted()).find(predicate);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no matching message within ${timeoutMs} ms; posted: ${JSON.stringify(await panel.posted())}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Resolves once the page has rendered everything it was sent: its updates are batched per animation frame,
 * and streamed text re-renders a card at most every 100 ms, so this waits until the DOM has been quiet for
 * three frames in a row AND for at least 250 ms (frames alone can pass faster than the stream interval).
 */
export async function settle(panel: PanelPage): Promise<void> {
  await panel.page.evaluate(`new Promise((resolve) => {
    let quiet = 0;
    let lastChange = performance.now();
    const observer = new MutationObserver(() => { quiet = 0; lastChange = performance.now(); });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const frame = () => {
      if (++quiet >= 3 && performance.now() - lastChange >= 250) { observer.disconnect(); resolve(); } else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`);
}

/** Opens the panel and waits for its `ready`. */
export async function openReady(options: OpenOptions = {}): Promise<PanelPage> {
  const panel = await openPanel(options);
  await waitForPosted(panel, (m) => (m as { type?: string }).type === 'ready');
  return panel;
}

/** The messages posted after `ready`, without the `ready` itself. */
export async function actions(panel: PanelPage): Promise<unknown[]> {
  return (await panel.posted()).filter((m) => (m as { type?: string }).type !== 'ready');
}

/** Ends a test's panel: the page broke no CSP rule, then it closes (nothing when the test opened none). */
export async function closeChecked(panel: PanelPage | undefined): Promise<void> {
  if (!panel) return;
  assert.deepEqual(await panel.violations(), [], 'no CSP violations');
  await panel.close();
}
