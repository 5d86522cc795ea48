import { strict as assert } from 'node:assert';
import { evalHtmlReport } from '../../src/core/eval/html';
import type { RunFigures } from '../../src/core/eval/score';
import { closeBrowser, launch } from './harness';

const run = (model: string, f1: number | null, costUsd: number): RunFigures => ({
  agent: 'security', model, cases: 58, precision: f1, recall: f1, f1, falsePositivesPerCleanCase: 0.25, costUsd,
  costPerTruePositiveUsd: f1 === null ? null : costUsd / 10, p50Ms: 900, p95Ms: 2100, failures: f1 === null ? 58 : 0,
  thresholds: [0, 0.3, 0.5, 0.7, 0.9].map((t) => ({ minConfidence: t, precision: f1, recall: f1 })),
});

describe('eval HTML report (headless Chromium)', () => {
  after(() => closeBrowser());

  it('renders the table and the cost-versus-F1 chart with zero network requests, even with hostile model ids', async () => {
    const runs = [run('gemini-2.5-flash', 0.8, 0.12), run('gpt-4.1-mini', 0.5, 0.05), run('<img src=https://evil.test/x.png onerror=alert(1)>', null, 0)];
    const html = evalHtmlReport(runs, { corpus: 'eval/corpus', generatedAt: '2026-12-02T17:00:00Z' });
    const browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url() !== 'about:blank') requests.push(r.url());
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      await page.setContent(html, { waitUntil: 'load' });
      await page.waitForTimeout(100);
      assert.deepEqual(requests, [], 'no request leaves the page');
      assert.deepEqual(dialogs, []);
      assert.equal(await page.locator('#figures tbody tr').count(), 3);
      assert.equal(await page.locator('img').count(), 0, 'model ids are text, not markup');
      assert.match((await page.locator('#figures tbody tr').nth(2).textContent()) ?? '', /<img src=/);
      const svg = page.locator('svg.cost-f1-chart');
      assert.equal(await svg.count(), 1);
      const box = await svg.boundingBox();
      assert.ok(box && box.width > 200 && box.height > 100, 'the chart is laid out');
      assert.equal(await svg.locator('g.point circle').count(), 2, 'one point per run with an F1');
      const [a, b] = await svg.locator('g.point circle').evaluateAll((els) => els.map((e) => ({ cx: Number(e.getAttribute('cx')), cy: Number(e.getAttribute('cy')) })));
      assert.ok(a && b && a.cx > b.cx && a.cy < b.cy, 'higher cost further right, higher F1 higher up');
      assert.match((await svg.textContent()) ?? '', /no F1/);
    } finally {
      await context.close();
    }
  });
});
