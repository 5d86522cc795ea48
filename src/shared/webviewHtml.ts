/**
 * The review panel's HTML, built the same way by the extension host and by the webview tests so that both
 * load the page under the same Content-Security-Policy. No Node, no DOM: the caller supplies a fresh nonce
 * (from `crypto.randomBytes`) and URIs already passed through `asWebviewUri`.
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
}

const escapeAttr = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
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

export function renderWebviewHtml(o: WebviewHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(o.nonce)) throw new Error('nonce must be base64 of at least 12 random bytes');
  const styles = o.styleUris.map((u) => `<link rel="stylesheet" href="${escapeAttr(u)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="${escapeAttr(o.lang)}">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(o.cspSource, o.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeAttr(o.title)}</title>
  </head>
  <body>
    <main id="app" aria-busy="true"></main>
    <script nonce="${escapeAttr(o.nonce)}" src="${escapeAttr(o.scriptUri)}"></script>
  </body>
</html>`;
}
