import { strict as assert } from 'node:assert';
import { escapeHtml, pageHtml, renderWebviewHtml } from '../../../src/shared/webviewHtml';

const load = { cspSource: 'https://webview.test', nonce: 'bm9uY2Vub25jZW5vbmNl', scriptUri: 'https://webview.test/dist/webview.js', styleUris: ['https://webview.test/media/panel.css'], lang: 'ko', title: 'Quorum Review' };

describe('the one page skeleton (review panel, compare page, eval report)', () => {
  it('builds a webview page: the CSP with the load\'s nonce, its styles, the review panel\'s app root, its one script last', () => {
    const html = renderWebviewHtml(load);
    assert.match(html, /^<!DOCTYPE html>\n<html lang="ko">/);
    assert.match(html, /content="default-src &#39;none&#39;; [^"]*script-src &#39;nonce-bm9uY2Vub25jZW5vbmNl&#39;/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/webview.test\/media\/panel.css">/);
    assert.match(html, /<main id="app" aria-busy="true"><\/main>\s*<script nonce="bm9uY2Vub25jZW5vbmNl" src="https:\/\/webview.test\/dist\/webview.js"><\/script>\s*<\/body>/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
  });

  it('puts another page\'s content in place of the app root, and escapes what it is given as text', () => {
    const html = renderWebviewHtml({ ...load, title: '"><script>x</script>', body: '<main id="compare"><h1>Compare</h1></main>' });
    assert.match(html, /<body>\s*<main id="compare"><h1>Compare<\/h1><\/main>\s*<script nonce=/);
    assert.doesNotMatch(html, /id="app"/);
    assert.match(html, /<title>&quot;&gt;&lt;script&gt;x&lt;\/script&gt;<\/title>/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
  });

  it('refuses a nonce too short to be unguessable', () => {
    assert.throws(() => renderWebviewHtml({ ...load, nonce: 'abc' }), /nonce/);
  });

  it('builds a self-contained page (the eval report) under its own CSP, with no script', () => {
    const html = pageHtml({ lang: 'en', title: 'Report', csp: "default-src 'none'; style-src 'unsafe-inline'", head: '<style>p { color: red; }</style>', body: '<p>figures</p>' });
    assert.match(html, /content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"/);
    assert.match(html, /<style>p \{ color: red; \}<\/style>\s*<title>Report<\/title>/);
    assert.doesNotMatch(html, /<script/);
  });

  it('escapes the five characters that can end a text or an attribute', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
