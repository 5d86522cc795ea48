// The walkthrough of issue 9, scripted: installs the packaged quorum.vsix into a user's workbench
// (shared/toolchain/workbench.cjs --vsix) and uses it as a newcomer would against a hostile loopback gateway:
// a wrong key, model ids and error messages with command links, answers with links, HTML, bidi controls and
// prose where code belongs, a stopped review. Prints what it saw and takes screenshots.
// Run: npm run package && npx tsx scripts/walk-hostile.ts [outDir]   (default /tmp/quorum-walk)
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openWorkbench, quickOpen, setApiKey, walkLog } from './walkKit';
import { startTestGateway, type Reply } from '../test/fixtures/gateway/server';

const KEY = 'sk-walkthrough-key-0123456789abcdef';
const { out, say, step, save } = walkLog('/tmp/quorum-walk');

const HOSTILE_IDS = ['[x](command:quorum.resetCost)', 'gemini-2.5-flash-[y](command:workbench.action.quickOpen?%5B%22%3E%22%5D)', '<img src=x onerror=alert(1)>', 'gemini-2.5-flash-lite'];
const analyst = {
  findings: [
    {
      severity: 'critical', title: 'SQL injection [click me](command:quorum.resetCost) <img src=x onerror=alert(1)> \u202Eevil\u202C',
      explanation: 'See [the docs](https://example.com/sqli), [internal](http://127.0.0.1:8080/admin), [creds](https://user:secret@evil.example/x) and <script>alert(1)</script>.',
      startLine: 4, endLine: 4, confidence: 0.9, cwe: 'javascript:alert(1)//89',
      replacement: 'Use a parameterized query: db.query("SELECT * FROM users WHERE name = ?", [name])',
      advice: 'Pass **name** as a parameter; see [OWASP](https://owasp.org/www-community/attacks/SQL_Injection).',
    },
    {
      severity: 'high', title: 'Command injection in listFiles', explanation: 'dir reaches a shell.',
      startLine: 9, endLine: 9, confidence: 0.8, cwe: 'CWE-78',
      replacement: "  return execFileSync('ls', [dir]).toString(); \u2066// safe\u2069",
    },
    {
      severity: 'medium', title: 'Off-by-one in average', explanation: 'i <= values.length reads past the end.',
      startLine: 14, endLine: 14, confidence: 0.9, replacement: '  for (let i = 0; i < values.length; i++) total += values[i];',
    },
    {
      severity: 'low', title: 'Placed outside the selection', explanation: 'Lines 54-56.', startLine: 54, endLine: 56, confidence: 0.3,
    },
  ],
};
const architectureProse = [
  '## Design notes',
  '',
  'The module mixes data access and process execution. Read [the guide](https://example.com/guide) or',
  '[this](command:workbench.action.terminal.new) or <a href="javascript:alert(1)">that</a>.',
  '',
  '<iframe src="https://evil.example"></iframe><img src="https://evil.example/track.png">',
  '',
  '```ts',
  "const s = 'abc\u202E'; // trojan",
  '```',
].join('\n');
const coding = { rationale: 'Parameterised the query [x](command:quorum.resetCost).', improvedCode: 'export function findUser(db: { query(sql: string, p?: unknown[]): unknown[] }, name: string) {\n  const rows = db.query("SELECT * FROM users WHERE name = ?", [name]);\n  return rows[0];\n}' };

function reply(model: string | undefined, slow: boolean): Reply | undefined {
  const tps = slow ? 15 : 400;
  if (model === 'gpt-4.1') return { text: JSON.stringify(analyst), promptTokens: 900, tokensPerSecond: tps };
  if (model === 'claude-sonnet-4.5') return { text: architectureProse, promptTokens: 900, tokensPerSecond: tps };
  if (model === 'gemini-2.5-flsh') return { kind: 'error', status: 404, message: 'The model `gemini-2.5-flsh` does not exist. See [docs](command:quorum.resetCost)', type: 'invalid_request_error', code: 'model_not_found' };
  if (model === 'deepseek-v3.2') return { text: JSON.stringify(coding), promptTokens: 1500, tokensPerSecond: tps, usage: slow ? 'none' : 'final' };
  return undefined;
}


async function main(): Promise<void> {
  let slow = false;
  const gateway = await startTestGateway({
    apiKey: KEY, ttftMs: 200, tokensPerSecond: 400,
    models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2', 'acme/coder-7', ...HOSTILE_IDS],
    modelFields: { 'acme/coder-7': { pricing: { prompt: '0.000001', completion: '0.000002' } }, '[x](command:quorum.resetCost)': { pricing: { prompt: '-1', completion: '-1' } } },
  });
  gateway.script((req) => (req.method === 'POST' ? reply(req.model, slow) : undefined));
  const wb = await openWorkbench({
    vsix: resolve('quorum.vsix'),
    folder: 'test/fixtures/workspace',
    settings: {
      'quorum.gateway.baseUrl': gateway.url, 'quorum.cache.ttlMinutes': 0, 'quorum.agents.security.model': 'gemini-2.5-flsh',
      'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0, 'security.workspace.trust.enabled': false,
    },
  });
  const { page } = wb;
  const shot = async (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  const toasts = async () => (await page.locator('.notifications-toasts').innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
  const toastLinks = async () => page.locator('.notifications-toasts a').evaluateAll((els) => els.map((e) => `${e.textContent} -> ${e.getAttribute('href') ?? ''}`));
  const clearToasts = async () => {
    await wb.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
    await page.waitForTimeout(500);
  };
  const selectSample = async () => {
    // Earlier steps leave review threads open over the code and the editor scrolled sideways: close the threads,
    // open the file from Quick Open (the focus goes to its editor) and go to its start.
    await wb.runCommand('Comments: Collapse All Comments').catch(() => undefined);
    await quickOpen(wb, 'sample.ts');
    await page.keyboard.press('Control+Home');
    await page.locator('.monaco-editor .view-lines', { hasText: 'findUser' }).first().waitFor({ timeout: 15000 });
    await wb.runCommand('Go to Line/Column...');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 14; i++) await page.keyboard.press('Shift+ArrowDown');
  };
  try {
    // The .vsix is installed and activated once the workbench is up: wait for Quorum's cost item (slow under load).
    for (let waited = 0; waited < 90_000 && !/\$\d/.test(await wb.statusBarText()); waited += 1000) await page.waitForTimeout(1000);
    say(`status bar at start: ${JSON.stringify((await wb.statusBarText()).replace(/\s+/g, ' '))}`);

    await step('wrong key', async () => {
      await setApiKey(wb, 'sk-wrong-key-0000000000');
      await selectSample();
      await wb.runCommand('Quorum: Review Selection');
      await page.waitForTimeout(6000);
      say(`wrong key -> notifications: ${await toasts()}`);
      await shot('01-wrong-key');
      await clearToasts();
    });

    await step('hostile review', async () => {
      await setApiKey(wb, KEY);
      await page.locator('.editor-group-container').first().click();
      await selectSample();
      await wb.runCommand('Quorum: Review Selection');
      await page.waitForTimeout(12000);
      say(`review -> notifications: ${await toasts()}`);
      say(`links in notifications: ${JSON.stringify(await toastLinks())}`);
      await shot('02-hostile-review');
      const frame = wb.webviewFrame();
      const body = await frame.locator('body').innerText();
      writeFileSync(join(out, 'panel-text.txt'), body);
      const anchors = await frame.locator('a').evaluateAll((els) => els.map((e) => `${e.textContent.slice(0, 40)} -> ${e.getAttribute('href') ?? '(no href)'}`));
      say(`panel anchors: ${JSON.stringify(anchors)}`);
      const dangerous = await frame.locator('img, iframe, script:not([nonce]), [onerror]').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 120)));
      say(`panel img/iframe/script/onerror elements: ${JSON.stringify(dangerous)}`);
      say(`panel shows bidi tokens: ${/<U\+202E>/.test(body)}; CWE shown: ${(body.match(/CWE-\d+/g) ?? []).join(',')}; 'javascript:alert' text present: ${body.includes('javascript:alert')}`);
      say(`panel header: ${JSON.stringify((await frame.locator('.review-head').innerText()).replace(/\s+/g, ' '))}`);
    });

    await step('click a link', async () => {
      const frame = wb.webviewFrame();
      await frame.locator('a[href^="https://example.com"]').first().click();
      await page.waitForTimeout(1500);
      const dialog = (await page.locator('.monaco-dialog-box').innerText().catch(() => '(no dialog)')).replace(/\s+/g, ' ');
      say(`clicking https://example.com/… -> ${dialog}`);
      await shot('03-link-click');
      await page.keyboard.press('Escape');
    });

    await step('status bar tooltip', async () => {
      say(`status bar: ${JSON.stringify((await wb.statusBarText()).replace(/\s+/g, ' '))}`);
      await page.locator('.statusbar-item', { hasText: '$0.' }).first().hover();
      await page.waitForTimeout(1500);
      say(`cost tooltip: ${(await page.locator('.monaco-hover').first().innerText().catch(() => '(none)')).replace(/\s+/g, ' ')}`);
      await shot('04-cost-tooltip');
      await page.keyboard.press('Escape');
    });

    await step('quick fixes', async () => {
      await page.locator('.editor-group-container').first().click();
      for (const line of ['4:10', '9:10', '14:10']) {
        await wb.runCommand('Go to Line/Column...');
        await page.keyboard.type(line);
        await page.keyboard.press('Enter');
        await page.waitForTimeout(500);
        await page.keyboard.press('Control+.');
        await page.waitForTimeout(1500);
        const items = (await page.locator('.context-view .action-widget, .context-view').first().innerText().catch(() => '(none)')).replace(/\s+/g, ' ');
        say(`quick fixes at ${line}: ${items}`);
        await shot(`05-quick-fix-${line.replace(':', '-')}`);
        await page.keyboard.press('Escape');
      }
      await page.keyboard.press('Control+Shift+M');
      await page.waitForTimeout(800);
      say(`Problems: ${(await page.locator('.markers-panel').innerText().catch(() => '(none)')).replace(/\s+/g, ' ').slice(0, 1500)}`);
      await shot('06-problems');
    });

    await step('switch model', async () => {
      await wb.runCommand('Quorum: Switch Model…');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Security' }).first().waitFor();
      await page.keyboard.type('Security');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'MTok' }).first().waitFor({ timeout: 15000 });
      await page.waitForTimeout(800);
      say(`model picker: ${(await page.locator('.quick-input-list').innerText()).replace(/\s+/g, ' ')}`);
      await shot('07-switch-model');
      await page.keyboard.press('Escape');
    });

    await step('stopped review', async () => {
      await clearToasts();
      await wb.runCommand('Quorum: Reset Session Cost').catch(() => undefined);
      await page.waitForTimeout(800);
      slow = true;
      await page.locator('.editor-group-container').first().click();
      await selectSample();
      await wb.runCommand('Quorum: Review Selection');
      await page.waitForTimeout(5000);
      await wb.runCommand('Quorum: Cancel Review');
      await page.waitForTimeout(4000);
      const frame = wb.webviewFrame();
      say(`stopped: panel header ${JSON.stringify((await frame.locator('.review-head').innerText()).replace(/\s+/g, ' '))}`);
      say(`stopped: status bar ${JSON.stringify((await wb.statusBarText()).replace(/\s+/g, ' '))}`);
      await shot('08-stopped');
      await page.waitForTimeout(3000);
      say(`stopped, 3 s later: status bar ${JSON.stringify((await wb.statusBarText()).replace(/\s+/g, ' '))}`);
      await wb.runCommand('Quorum: Show Cost');
      await page.waitForTimeout(1500);
      say(`Show Cost: ${(await page.locator('.quick-input-widget').innerText()).replace(/\s+/g, ' ')}`);
      await shot('09-show-cost');
      await page.keyboard.press('Escape');
    });

    say(`requests seen by the gateway: ${gateway.requests.length}; any carrying the key outside Authorization: ${gateway.requests.some((r) => r.raw.replace(/\nBearer [^\n]*/g, '').includes(KEY))}`);
  } finally {
    save();
    await wb.close();
    await gateway.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
