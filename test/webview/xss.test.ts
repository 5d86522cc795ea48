import { strict as assert } from 'node:assert';
import { actions, closeBrowser, openReady, settle, type PanelPage } from './harness';
import { baseReview, events, outcome, snapshot } from './fixtures';
import type { FindingView, ReviewViewEvent } from '../../src/shared/protocol';

/** Things a model (or the code under review, quoted by a model) may put into an answer. */
const PAYLOADS = [
  '<script>window.__xss = 1</script>',
  '<img src=x onerror="window.__xss = 2">',
  '<svg onload="window.__xss = 3"><circle r=1></svg>',
  '[click me](javascript:window.__xss=4)',
  '[click me](JaVaScRiPt:window.__xss=5)',
  '[data](data:text/html,<script>window.__xss=6</script>)',
  '![tracker](https://evil.example/pixel.png)',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<a href="javascript:window.__xss=7">raw link</a>',
  '<style>body { display: none }</style>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=8>',
  '<details open ontoggle="window.__xss=9">x</details>',
  '[vb](vbscript:msgbox(1))',
  '<form action="https://evil.example/post"><button>go</button></form>',
  '<javascript:window.__xss=10>',
  '```html\n<script>window.__xss = 11</script>\n```',
  '[t](https://evil.example "t\\" onmouseover=\\"window.__xss=12")',
  '<base href="https://evil.example/">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/y">',
  '[proto-relative](//evil.example/x)',
  '<a href="https://evil.example" onclick="window.__xss=13">x</a>',
  '<div style="background:url(https://evil.example/bg.png)">styled</div>',
  '[file](file:///etc/passwd) [cmd](command:workbench.action.terminal.new)',
  '<video src="https://evil.example/v.mp4" autoplay></video><audio src=x onerror=window.__xss=14>',
  '<input autofocus onfocus="window.__xss=15">',
  '\u0000<scr\u0000ipt>window.__xss=16</script>',
  '<!--><img src=x onerror=window.__xss=17>-->',
  '&lt;img src=x onerror=window.__xss=18&gt;',
];
const ANSWER = `# Review\n\nSee https://owasp.org/Top10/ for background.\n\n${PAYLOADS.join('\n\n')}\n\nDone.\n`;

async function assertInert(panel: PanelPage): Promise<void> {
  await settle(panel);
  const report = await panel.page.evaluate(() => {
    const app = document.getElementById('app') as HTMLElement;
    const forbidden = [...app.querySelectorAll('script, iframe, img, svg, math, style, form, object, embed, base, meta, link, video, audio, input, textarea')].map((e) => e.tagName);
    const handlers: string[] = [];
    const styles: string[] = [];
    for (const el of app.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (a.name.startsWith('on')) handlers.push(`${el.tagName} ${a.name}`);
        if (a.name === 'style') styles.push(el.tagName);
      }
    }
    const hrefs = [...app.querySelectorAll('[href], [src], [action], [formaction], [xlink\\:href]')]
      .map((e) => e.getAttribute('href') ?? e.getAttribute('src') ?? e.getAttribute('action') ?? '');
    return { xss: (window as unknown as { __xss?: unknown }).__xss ?? null, forbidden, handlers, styles, hrefs, headChildren: document.head.children.length };
  });
  assert.equal(report.xss, null, 'no payload ran');
  assert.deepEqual(report.forbidden, [], 'no dangerous elements');
  assert.deepEqual(report.handlers, [], 'no event handler attributes');
  assert.deepEqual(report.styles, [], 'no inline styles');
  for (const href of report.hrefs) assert.match(href, /^https:\/\/(owasp\.org|evil\.example)(\/|$)/, href);
  assert.deepEqual(await panel.violations(), [], 'nothing tripped the CSP');
  assert.deepEqual(panel.blockedRequests, [], 'nothing was requested from the network');
}

const hostileFinding = (id: string, text: string): FindingView => ({
  id, agents: ['security'], severity: 'high', title: text, explanation: text, startLine: 1, endLine: 2, confidence: 0.5,
  suggestion: text, cwe: text.slice(0, 100),
});

describe('webview: hostile model output stays inert', () => {
  let panel: PanelPage;
  afterEach(async () => {
    if (panel) await panel.close();
  });
  after(closeBrowser);

  it('in streamed answers, split at every possible point between deltas', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, { kind: 'queued', agent: 'analyst', title: 'Analyst', model: 'gpt-4.1' }));
    // Chunks of 1..7 characters, so every payload is cut mid-tag somewhere.
    const chunks: ReviewViewEvent[] = [];
    for (let i = 0, n = 1; i < ANSWER.length; i += n, n = (n % 7) + 1) chunks.push({ kind: 'delta', agent: 'analyst', text: ANSWER.slice(i, i + n) });
    let seq = 3;
    for (let i = 0; i < chunks.length; i += 40) await panel.send(events(seq++, ...chunks.slice(i, i + 40)));
    await assertInert(panel);
    const text = await panel.page.locator('section.card[data-agent="analyst"] .answer-body').innerText();
    assert.match(text, /<script>window\.__xss = 1<\/script>/, 'raw HTML is shown as text');
    await panel.send(events(seq, {
      kind: 'ended', agent: 'analyst', title: 'Analyst', outcome: outcome({ state: 'done', model: 'gpt-4.1', text: ANSWER, unparsed: true }),
    }));
    await assertInert(panel);
  });

  it('in findings, improved code, rationale, errors, model names, titles and the file name', async () => {
    panel = await openReady();
    const review = baseReview({ status: 'done', elapsedMs: 10 });
    const evil = PAYLOADS.join(' ');
    review.target.file = `/tmp/${PAYLOADS[1]}.ts`;
    review.target.language = PAYLOADS[0]!;
    review.agents = [
      {
        agent: 'coding', title: PAYLOADS[2]!, model: PAYLOADS[1]!, state: 'done', text: ANSWER, chunks: 1,
        outcome: outcome({ state: 'done', model: PAYLOADS[1]!, text: ANSWER, improvedCode: evil, rationale: ANSWER }),
      },
      {
        agent: 'security', title: 'Security', model: 'm', state: 'failed', text: '', chunks: 0,
        outcome: outcome({ state: 'failed', model: 'm', error: { code: 'model-not-found', model: PAYLOADS[1]!, message: evil, suggestions: PAYLOADS.slice(0, 5) } }),
      },
    ];
    review.findings = PAYLOADS.map((p, i) => hostileFinding(`f${i}`, p));
    await panel.send(snapshot(review));
    await assertInert(panel);
    // Fold out every <details> so hidden content is laid out too, then click every link.
    await panel.page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    const links = panel.page.locator('#app a');
    const n = await links.count();
    for (let i = 0; i < n; i++) await links.nth(i).click();
    await assertInert(panel);
    for (const m of await actions(panel)) {
      assert.equal((m as { type: string }).type, 'openLink');
      assert.match((m as { href: string }).href, /^https:\/\//);
    }
  });

  it('in the localised strings, too (rendered as text)', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview({ status: 'done', elapsedMs: 1 }), 1, { statusDone: PAYLOADS[1]!, findings: PAYLOADS[0]!, emptyTitle: PAYLOADS[2]! }));
    await assertInert(panel);
    await panel.send(snapshot(null, 2, { emptyTitle: PAYLOADS[1]! }));
    await assertInert(panel);
    assert.match(await panel.page.locator('.empty-state h2').innerText(), /onerror/);
  });
});
