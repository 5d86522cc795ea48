/**
 * The one skeleton of Quorum's HTML pages: the review panel's and the Compare Models page's (built the same way by
 * the extension host and by the webview tests, so that both load under the same Content-Security-Policy), and the
 * self-contained eval report of `quorum eval --format html`. No Node, no DOM: a webview page's caller supplies a
 * fresh nonce (from `crypto.randomBytes`) and URIs already passed through `asWebviewUri`.
 */
interface WebviewHtmlOptions {
  /** `webview.cspSource` of the hosting webview. */
  cspSource: string;
  /** Base64 nonce, fresh for every load. */
  nonce: string;
  scriptUri: string;
  styleUris: readonly string[];
  /** BCP 47 language of the UI, for `<html lang>`. */
  lang: string;
  title: string;
  /** The page's content (HTML the caller built and escaped); the review panel's app root when absent. */
  body?: string;
}

/** Text in HTML, attribute values included: `& < > " '` escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** A page: `head` and `body` are HTML the caller built and escaped; `lang`, `title` and `csp` are escaped here. */
export function pageHtml(o: { lang: string; title: string; csp: string; head: string; body: string }): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(o.lang)}">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(o.csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${o.head}
    <title>${escapeHtml(o.title)}</title>
  </head>
  <body>
    ${o.body}
  </body>
</html>
`;
}

/** A webview page: its styles, its content, and its one script under the load's nonce, last. */
export function renderWebviewHtml(o: WebviewHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(o.nonce)) throw new Error('nonce must be base64 of at least 12 random bytes');
  return pageHtml({
    lang: o.lang,
    title: o.title,
    csp: contentSecurityPolicy(o.cspSource, o.nonce),
    head: o.styleUris.map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}">`).join('\n    '),
    body: `${o.body ?? '<main id="app" aria-busy="true"></main>'}
    <script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>`,
  });
}
