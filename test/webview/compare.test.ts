import { strict as assert } from 'node:assert';
import { comparePageHtml } from '../../src/core/eval/comparePage';
import type { RunFigures } from '../../src/core/eval/score';
import { COMPARE_STRINGS, compareToHostSchema } from '../../src/shared/compareProtocol';
import { ORIGIN, closeBrowser, closeChecked, openPanel, type PanelPage } from './harness';
import { DARK } from './themes';

const figures = (model: string, f1: number | null, costUsd: number, failures = 0): RunFigures => ({
  agent: 'security', model, cases: 58, precision: f1, recall: f1, f1, falsePositivesPerCleanCase: 0.25, costUsd,
  costPerTruePositiveUsd: f1 === null ? null : costUsd / 10, p50Ms: 900, p95Ms: 2100, failures,
  thresholds: [0, 0.3, 0.5, 0.7, 0.9].map((t) => ({ minConfidence: t, precision: f1, recall: f1 })),
});

const HOSTILE = '<img src=https://evil.test/x.png onerror=alert(1)>';

const counts = (raised: number, addressed: number, dismissed: number, refuted: number, costUsd: number) => ({ raised, addressed, dismissed, open: raised - addressed - dismissed, gone: 0, refuted, costUsd });

function open(runs: RunFigures[], failureCodes: Record<string, number>[], theme?: typeof DARK, outcomes?: { byModel: Record<string, ReturnType<typeof counts>>; minimum: number }): Promise<PanelPage> {
  return openPanel({
    ...(theme ? { themeClass: theme.bodyClass, themeVars: theme.vars } : {}),
    html: (nonce) => comparePageHtml({
      cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/dist/compare.js`, styleUris: [`${ORIGIN}/media/panel.css`, `${ORIGIN}/media/compare.css`], lang: 'en',
      strings: { ...COMPARE_STRINGS }, agent: { id: 'security', title: 'Security' }, currentModel: 'gemini-2.5-flash',
      corpus: { label: 'shipped corpus', cases: 58, clean: 29 }, runs, failureCodes, ...(outcomes ? { outcomes } : {}),
    }),
  });
}

describe('webview: Compare Models page (headless Chromium, the panel CSP)', () => {
  let panel: PanelPage | undefined;
  afterEach(async () => {
    await panel?.close();
    panel = undefined;
  });
  after(closeBrowser);

  it('shows what became of the findings on the repository beside the corpus figures once a model has enough outcomes, and the count when not', async () => {
    panel = await open([figures('gemini-2.5-flash', 0.8, 0.12), figures(HOSTILE, 0.5, 0.05)], [{}, {}], DARK, {
      minimum: 10,
      byModel: { 'gemini-2.5-flash': counts(20, 9, 3, 2, 0.36), [HOSTILE]: counts(6, 2, 1, 0, 0.1) },
    });
    const { page } = panel;
    await page.waitForLoadState('load');
    assert.equal(await page.locator('#outcomes tbody tr').count(), 2);
    assert.deepEqual(await page.locator('#outcomes tbody tr').first().locator('td').allInnerTexts(), ['gemini-2.5-flash', '12', '20', '9', '3', '8', '45%', '10%', '$0.0400']);
    assert.deepEqual(await page.locator('#outcomes tbody tr').nth(1).locator('td').allInnerTexts(), [HOSTILE, '3', 'not enough yet: 3 of 10']);
    assert.equal(await page.locator('img').count(), 0, 'a model id is text, not markup');
    assert.match(await page.locator('#outcomes + p.meta').innerText(), /once 10 of a model's findings for this agent have an outcome/);
    await closeChecked(panel);
    panel = undefined;
  });

  it('renders the table, the chart in theme colours and the failures; nothing loads from the network; Use posts a valid message', async () => {
    panel = await open([figures('gemini-2.5-flash', 0.8, 0.12), figures('gpt-4.1-mini', 0.5, 0.05, 8), figures(HOSTILE, null, 0, 58)], [{}, { 'http-501': 8 }, { timeout: 58 }], DARK);
    const { page } = panel;
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.waitForLoadState('load');
    assert.equal(await page.locator('#figures tbody tr').count(), 3);
    const cells = await page.locator('#figures tbody tr').nth(1).locator('td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 11), ['security', 'gpt-4.1-mini', '0.500', '0.500', '0.500', '0.25', '$0.0500', '$0.005', '900ms', '2100ms', '8/58']);
    assert.equal(cells[11]?.trim(), 'Use for Security');
    assert.equal((await page.locator('#figures tbody tr').first().locator('td').last().innerText()).trim(), 'current');
    assert.equal(await page.locator('img').count(), 0, 'a model id is text, not markup');
    assert.match(await page.locator('ul.failures').innerText(), /gpt-4\.1-mini: 8 of 58 cases failed \(http-501 ×8\)/);
    const svg = page.locator('svg.cost-f1-chart');
    const box = await svg.boundingBox();
    assert.ok(box && box.width > 200 && box.height > 100, 'the chart is laid out');
    assert.equal(await svg.locator('g.point circle').count(), 2, 'one point per run with an F1');
    const cut = await svg.evaluate((el) => {
      const box = (el as SVGSVGElement).viewBox.baseVal;
      return [...el.querySelectorAll('text')].map((t) => ({ text: t.textContent ?? '', b: t.getBBox() })).filter(({ b }) => b.x < box.x || b.x + b.width > box.x + box.width).map(({ text }) => text);
    });
    assert.deepEqual(cut, [], 'no label runs past the chart\'s edge (the most expensive point, a run without F1 at $0)');
    const fill = await svg.locator('g.point circle').first().evaluate((c) => getComputedStyle(c).fill);
    assert.equal(fill, 'rgb(55, 148, 255)', 'points take --vscode-charts-blue from the theme');
    assert.equal(await page.locator('#thresholds tbody tr').count(), 3);

    await page.locator('#figures tbody tr').nth(1).locator('button[data-action="useModel"]').click();
    await page.locator('#figures tbody tr').nth(2).locator('button[data-action="useModel"]').click();
    const posted = await panel.posted();
    assert.deepEqual(posted, [{ type: 'useModel', agent: 'security', model: 'gpt-4.1-mini' }, { type: 'useModel', agent: 'security', model: HOSTILE }]);
    for (const m of posted) assert.ok(compareToHostSchema.safeParse(m).success);
    assert.deepEqual(panel.blockedRequests, [], 'no request leaves the page');
    assert.deepEqual(await panel.violations(), [], 'nothing breaks the CSP');
    assert.deepEqual(dialogs, []);
  });
});
