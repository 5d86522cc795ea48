// Compare Models as a newcomer would, scripted: installs the packaged quorum.vsix into a user's workbench
// (shared/toolchain/workbench.cjs --vsix), against a loopback gateway whose /models lists oracle models (answers
// known from the shipped corpus) beside hostile ids (Markdown and command links, HTML, bidi controls, icons).
// Picks models in the quick pick, runs, reloads the window (the page comes back), runs again and presses Cancel on
// the progress notification. Prints what it saw and takes screenshots.
// Run: npm run package && npx tsx scripts/walk-compare.ts [outDir]   (default /tmp/quorum-walk-compare)
import { join, resolve } from 'node:path';
import { corpusOracles } from '../test/fixtures/gateway/oracle';
import { openWorkbench, setApiKey, walkLog } from './walkKit';
import { startTestGateway } from '../test/fixtures/gateway/server';

const KEY = 'sk-walk-compare-key-0123456789abcdef';
const { out, say, step } = walkLog('/tmp/quorum-walk-compare');
const HOSTILE_IDS = ['[x](command:quorum.resetCost)', '<img src=x onerror=alert(1)>', 'oracle\u202Eevil\u202C', '$(alert) boom', 'evil](command:quorum.clearApiKey)'];


async function main(): Promise<void> {
  const gateway = await startTestGateway({
    apiKey: KEY, ttftMs: 50, tokensPerSecond: 20_000, oracles: corpusOracles(resolve('eval', 'corpus')),
    models: ['oracle-perfect', 'oracle-noisy', 'gpt-4.1-mini', ...HOSTILE_IDS],
    modelFields: { 'oracle-noisy': { pricing: { prompt: '0.0000001', completion: '0.0000004' } }, '<img src=x onerror=alert(1)>': { pricing: { prompt: '0.000001', completion: '0.000002' } } },
  });
  const wb = await openWorkbench({
    vsix: resolve('quorum.vsix'),
    folder: 'test/fixtures/workspace',
    settings: { 'quorum.gateway.baseUrl': gateway.url, 'quorum.agents.security.model': 'oracle-perfect', 'quorum.limits.maxConcurrent': 4, 'workbench.colorTheme': 'Default Dark Modern', 'security.workspace.trust.enabled': false },
  });
  const { page } = wb;
  const shot = async (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  const toasts = async () => (await page.locator('.notifications-toasts').innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
  const toastLinks = async () => page.locator('.notifications-toasts a').evaluateAll((els) => els.map((e) => `${e.textContent} -> ${e.getAttribute('href') ?? ''}`));
  const rows = async () => (await page.locator('.quick-input-list').innerText().catch(() => '')).split('\n').filter(Boolean);
  const pickAgent = async () => {
    await wb.runCommand('Quorum: Compare Models');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Security' }).first().waitFor({ timeout: 15000 });
    say(`agents offered: ${JSON.stringify(await rows())}`);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Security' }).first().click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'oracle-noisy' }).first().waitFor({ timeout: 15000 });
  };
  const tick = async (text: string) => {
    await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().locator('.monaco-custom-toggle, input[type="checkbox"], .quick-input-list-checkbox').first().click();
  };
  const accept = async () => {
    await page.locator('.quick-input-widget input').first().press('Enter');
  };
  const run = async () => {
    const modal = page.locator('.monaco-dialog-box');
    await modal.waitFor({ timeout: 20000 });
    say(`confirm: ${(await modal.innerText()).replace(/\s+/g, ' ')}`);
    await modal.locator('a.monaco-button, .monaco-button', { hasText: 'Run' }).first().click();
  };
  try {
    // Quorum is ready when its cost item is in the status bar (a loaded machine takes a while).
    await page.locator('.statusbar-item', { hasText: '$0' }).first().waitFor({ timeout: 120000 });
    await page.waitForTimeout(2000);
    await shot('00-start');
    await setApiKey(wb, KEY);

    await step('hostile ids', async () => {
      await pickAgent();
      const offered = await rows();
      say(`models offered: ${JSON.stringify(offered)}`);
      say(`hostile ids offered: ${JSON.stringify(HOSTILE_IDS.filter((id) => offered.some((r) => r.includes(id))))}`);
      await shot('01-models-offered');
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    });

    await step('compare two oracles', async () => {
      await pickAgent();
      await tick('oracle-noisy');
      await accept();
      await run();
      await page.locator('iframe.webview.ready').first().waitFor({ timeout: 60000 });
      await page.waitForTimeout(2500);
      const frame = wb.webviewFrame();
      say(`page: ${(await frame.locator('main').innerText()).replace(/\s+/g, ' ').slice(0, 600)}`);
      await shot('03-compare-page');
    });

    await step('reload the window', async () => {
      await wb.runCommand('Developer: Reload Window');
      await page.waitForTimeout(4000);
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 90000 });
      await page.locator('iframe.webview.ready').first().waitFor({ timeout: 60000 });
      await page.waitForTimeout(2500);
      const frame = wb.webviewFrame();
      say(`after reload: ${(await frame.locator('main').innerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
      await shot('04-after-reload');
    });

    await step('cancel a comparison', async () => {
      gateway.setOptions({ tokensPerSecond: 40 });
      await pickAgent();
      await tick('gpt-4.1-mini');
      await accept();
      await run();
      await page.waitForTimeout(4000);
      say(`progress: ${await toasts()}`);
      await shot('05-progress');
      await page.locator('.notifications-toasts .monaco-button, .notifications-toasts .action-label', { hasText: 'Cancel' }).first().click();
      await page.waitForTimeout(3000);
      say(`after cancel -> notifications: ${await toasts()}; links in them: ${JSON.stringify(await toastLinks())}; gateway streams open: ${gateway.inFlight}`);
      await shot('06-cancelled');
    });
  } finally {
    await wb.close();
    await gateway.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
