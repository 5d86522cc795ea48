import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { closeBrowser, openReady, settle, type PanelPage } from './harness';
import { screenshotReview, snapshot } from './fixtures';
import { THEMES } from './themes';

const SCREENSHOTS = resolve(__dirname, '..', '..', 'docs', 'screenshots');

/** Text elements and the contrast they need against what is behind them (WCAG: 4.5 text, 3 large/bold UI). */
const CHECKS: [selector: string, minRatio: number][] = [
  ['.card .markdown p', 4.5],
  ['.target .file', 4.5],
  ['.status-line .status', 4.5],
  ['.status-line .cost', 4.5],
  ['.metrics dd', 4.5],
  ['.finding-title', 4.5],
  ['.finding-meta', 4.5],
  ['.btn:not(.secondary):not(.icon-only) span', 4.5],
  ['.btn.secondary span', 4.5],
  ['.state-badge', 4.5],
  ['.chip', 4.5],
  ['.markdown code', 4.5],
  ['.improved-code code', 4.5],
  ['.sev-label.sev-critical', 4.5],
  ['.sev-label.sev-medium', 4.5],
  ['.notice-text', 4.5],
  ['.raw-answer > summary', 4.5],
  ['.card-head .model', 3],
];

// A string, not a function: the test runner's transpiler would add helpers (`__name`) the page does not have.
const CONTRAST_JS = `(sel) => {
  const el = document.querySelector(sel);
  if (!el) throw new Error('no element for ' + sel);
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const blend = (top, bottom) => {
    const a = top[3] === undefined ? 1 : top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a));
  };
  // The effective background: layers from the element up, composited over white.
  const layers = [];
  for (let n = el; n; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    const a = c[3] === undefined ? 1 : c[3];
    if (a > 0) layers.push(c);
    if (a === 1) break;
  }
  let bg = [255, 255, 255];
  for (const layer of layers.reverse()) bg = blend(layer, bg);
  const fg = blend(parse(getComputedStyle(el).color), bg);
  const lum = (rgb) => {
    const [r, g, b] = rgb.map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  return { ratio: (l1 + 0.05) / (l2 + 0.05), fg: fg.map(Math.round).join(','), bg: bg.map(Math.round).join(',') };
}`;

async function contrast(panel: PanelPage, selector: string): Promise<{ ratio: number; fg: string; bg: string }> {
  return panel.page.evaluate(`(${CONTRAST_JS})(${JSON.stringify(selector)})`);
}

describe('webview: themes', () => {
  after(closeBrowser);

  for (const theme of THEMES) {
    it(`${theme.name}: colours come from the theme variables, text stays readable; screenshot`, async () => {
      const panel = await openReady({ themeClass: theme.bodyClass, themeVars: theme.vars, viewport: { width: 1100, height: 900 } });
      try {
        await panel.send(snapshot(screenshotReview()));
        await settle(panel);
        await panel.page.evaluate(() => document.fonts.ready);
        const body = await panel.page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
        const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
        assert.deepEqual(body, [rgb(theme.vars['--vscode-editor-background']!), rgb(theme.vars['--vscode-foreground']!)]);
        const primary = await panel.page.locator('header .btn:not(.secondary)').first().evaluate((b) => getComputedStyle(b).backgroundColor);
        assert.equal(primary, rgb(theme.vars['--vscode-button-background']!));
        // The codicon font is loaded from dist/codicons under the CSP.
        assert.equal(await panel.page.evaluate(() => document.fonts.check('16px codicon')), true);
        const failures: string[] = [];
        for (const [selector, min] of CHECKS) {
          const c = await contrast(panel, selector);
          if (c.ratio < min) failures.push(`${selector}: ${c.ratio.toFixed(2)} < ${min} (${c.fg} on ${c.bg})`);
        }
        assert.deepEqual(failures, []);
        if (theme.name === 'hc') {
          const border = await panel.page.locator('.card').first().evaluate((c) => getComputedStyle(c).borderTopColor);
          assert.equal(border, rgb(theme.vars['--vscode-contrastBorder']!));
        }
        assert.deepEqual(await panel.violations(), []);
        assert.deepEqual(panel.blockedRequests, []);
        mkdirSync(SCREENSHOTS, { recursive: true });
        await panel.page.screenshot({ path: join(SCREENSHOTS, `panel-${theme.name}.png`), fullPage: true });
      } finally {
        await panel.close();
      }
    });
  }
});
