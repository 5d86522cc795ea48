import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { linkRefusal } from '../../src/shared/linkPolicy';
import { PANEL_STRINGS, formatString } from '../../src/shared/panelStrings';
import { FINDINGS, STRINGS, doneReview, snapshot } from './fixtures';
import { actions, closeBrowser, openReady, settle, type PanelPage } from './harness';
import { DARK } from './themes';

const PUBLIC = 'https://owasp.org/www-community/attacks/SQL_Injection';
const NOT_CLICKABLE = [
  'https://user:secret@example.com/x',
  'http://127.0.0.1:8080/admin',
  'http://localhost:3000/',
  'http://[::1]/',
  'http://192.168.1.1/setup',
  'http://10.0.0.5/',
  'http://172.16.3.4/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fe80::1]/',
  'http://[fd00::2]/',
  'http://0.0.0.0:9000/',
];

function hostileReview() {
  const explanation = [
    `Public: ${PUBLIC}`,
    `Markdown link: [docs](${PUBLIC}#md)`,
    ...NOT_CLICKABLE.map((u, i) => (i % 2 === 0 ? `Bare ${u}` : `[link ${i}](${u})`)),
  ].join('\n\n');
  const review = doneReview({ findings: [{ ...(FINDINGS[0] as (typeof FINDINGS)[number]), explanation }] });
  const analyst = review.agents[0];
  if (analyst) {
    // A prose answer (not findings JSON): the card renders it as Markdown.
    analyst.text = `See [here](http://127.0.0.1:5000/) and [there](${PUBLIC}#card).`;
    if (analyst.outcome) analyst.outcome = { ...analyst.outcome, text: analyst.text, unparsed: true };
  }
  if (analyst?.outcome) analyst.outcome.text = analyst.text;
  return review;
}

describe('webview: links in model output open only through the host', () => {
  let panel: PanelPage;
  afterEach(async () => {
    if (panel) await panel.close();
  });
  after(closeBrowser);

  it('loopback, private and credential links are text, not links', async () => {
    panel = await openReady({ themeClass: DARK.bodyClass, themeVars: DARK.vars });
    await panel.send(snapshot(hostileReview()));
    await settle(panel);
    const hrefs = await panel.page.locator('#app a[href]').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    for (const bad of [...NOT_CLICKABLE, 'http://127.0.0.1:5000/']) assert.ok(!hrefs.includes(bad), `${bad} is clickable`);
    assert.ok(hrefs.includes(PUBLIC), 'the public link is a link');
    const text = await panel.page.locator('#app').innerText();
    for (const bad of NOT_CLICKABLE) assert.ok(text.includes(bad.replace(/\/$/, '')) || text.includes(`link ${NOT_CLICKABLE.indexOf(bad)}`), `${bad} is shown`);
    // They do not look like links either: the text's own colour, and a title that says why and where it pointed.
    const refused = await panel.page.locator('#app a:not([href])').evaluateAll((els) => els.map((e) => ({
      title: e.getAttribute('title') ?? '', color: getComputedStyle(e).color, parent: getComputedStyle(e.parentElement ?? e).color,
    })));
    assert.ok(refused.length >= NOT_CLICKABLE.length / 2, `the refused Markdown links are kept as text (${refused.length})`);
    for (const r of refused) {
      assert.equal(r.color, r.parent, `a refused link is coloured as its text, not as a link (${r.title})`);
      assert.match(r.title, /^Not a link \((it carries a user name or password|a loopback or private network address)\): https?:\/\//);
    }
    const linkColor = await panel.page.locator(`#app a[href="${PUBLIC}"]`).first().evaluate((e) => getComputedStyle(e).color);
    assert.ok(refused.every((r) => r.color !== linkColor), 'no refused link has the colour of a link');
    assert.ok(refused.some((r) => r.title.includes('127.0.0.1:8080/admin')), 'the title names where it pointed');
  });

  it("a refused link's title is the host's localised string (Korean here), with where it pointed", async () => {
    const bundle = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'l10n', 'bundle.l10n.ko.json'), 'utf8')) as Record<string, string>;
    // As the host sends them: each English panel string through the Korean bundle.
    const ko: Record<string, string> = Object.fromEntries(Object.entries(STRINGS).map(([k, en]) => [k, bundle[en] ?? en]));
    for (const key of ['linkCredentials', 'linkPrivateHost'] as const) assert.notEqual(ko[key], PANEL_STRINGS[key], `${key} has a Korean translation`);
    panel = await openReady();
    const explanation = '[a](https://user:secret@example.com/x) and [b](http://127.0.0.1:8080/admin)';
    await panel.send(snapshot(doneReview({ findings: [{ ...(FINDINGS[0] as (typeof FINDINGS)[number]), explanation }] }), 1, ko));
    await settle(panel);
    const titles = await panel.page.locator('#app a:not([href])').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
    assert.ok(titles.includes(formatString(ko.linkCredentials ?? '', ['https://user:secret@example.com/x'])), titles.join('\n'));
    assert.ok(titles.includes(formatString(ko.linkPrivateHost ?? '', ['http://127.0.0.1:8080/admin'])), titles.join('\n'));
    assert.ok(titles.every((t) => !t.includes('Not a link')), 'no English title is left');
  });

  it('left click, middle click and Enter: VS Code never opens the link itself; the host is asked for public links only', async () => {
    panel = await openReady();
    await panel.send(snapshot(hostileReview()));
    await settle(panel);
    await panel.page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    await settle(panel);
    const before = panel.page.url();
    const links = panel.page.locator('#app a');
    const n = await links.count();
    assert.ok(n >= 5, `found ${n} links`);
    for (let i = 0; i < n; i++) {
      const link = links.nth(i);
      if (!(await link.isVisible())) continue;
      await link.click();
      await link.click({ button: 'middle' });
      await link.click({ modifiers: ['Control'] });
      if ((await link.getAttribute('href')) !== null) {
        await link.focus();
        await panel.page.keyboard.press('Enter');
      }
    }
    await settle(panel);
    assert.equal(panel.page.url(), before, 'the page never navigated');
    assert.deepEqual(await panel.workbenchOpened(), [], 'no click reached VS Code\'s own link handler');
    const opened = (await actions(panel)).filter((m) => (m as { type?: string }).type === 'openLink').map((m) => (m as { href: string }).href);
    for (const href of [PUBLIC, `${PUBLIC}#md`, `${PUBLIC}#card`]) assert.ok(opened.includes(href), `${href} was opened through the host`);
    for (const href of opened) {
      assert.equal(linkRefusal(new URL(href)), undefined, href);
      assert.ok(!NOT_CLICKABLE.includes(href), href);
    }
    assert.deepEqual(panel.blockedRequests, []);
  });
});
