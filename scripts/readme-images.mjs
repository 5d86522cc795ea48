// Makes the small copies of the README's screenshots that ship in the .vsix (the extension's page shows
// them from the installed extension): each docs/screenshots/<name>.png scaled to at most 760 px wide, as JPEG.
// Run after the screenshots change: node scripts/readme-images.mjs   (needs Chromium: CHROMIUM_PATH or /usr/bin/chromium)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const NAMES = ['panel-dark', 'panel-light', 'panel-hc', 'problems-quick-fix', 'status-bar-cost', 'switch-model', 'review-thread'];
const WIDTH = 760;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (const name of NAMES) {
    const png = readFileSync(join('docs', 'screenshots', `${name}.png`));
    const w = png.readUInt32BE(16);
    const h = png.readUInt32BE(20);
    const scale = Math.min(1, WIDTH / w);
    const page = await browser.newPage({ viewport: { width: Math.round(w * scale), height: Math.round(h * scale) } });
    await page.setContent(`<body style="margin:0"><img style="display:block;width:100%" src="data:image/png;base64,${png.toString('base64')}"></body>`);
    await page.screenshot({ path: join('docs', 'readme', `${name}.jpg`), type: 'jpeg', quality: 72, fullPage: true });
    await page.close();
  }
} finally {
  await browser.close();
}
