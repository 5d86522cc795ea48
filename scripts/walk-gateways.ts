// The walkthrough of issue 30, scripted: installs the packaged quorum.vsix into a user's workbench and tries
// Test Connection and a review against one loopback emulator that serves OpenAI's gpt-5 (refusing max_tokens
// and temperature, as OpenAI does) and a Mistral-style model (422 extra_forbidden for stream_options), first
// with a wrong key. Prints what it saw and takes screenshots.
// Run: npm run package && npx tsx scripts/walk-gateways.ts [outDir]   (default /tmp/quorum-walk-gateways)
import { join, resolve } from 'node:path';
import { EMULATOR_KEY, startEmulator, type Emulator } from '../test/fixtures/gateway/emulators/emulator';
import { mistral } from '../test/fixtures/gateway/emulators/mistral';
import { openai } from '../test/fixtures/gateway/emulators/openai';
import { openWorkbench, quickOpen, setApiKey, untilQuorumActive, walkLog } from './walkKit';

const { out, say, step, save } = walkLog('/tmp/quorum-walk-gateways');

/** gpt-5 by OpenAI's rules, mistral-large-latest by Mistral's: one server, both kinds of refusal. */
const mixed: Emulator = {
  name: 'OpenAI + Mistral',
  models: ['gpt-5', 'mistral-large-latest'],
  apiKey: EMULATOR_KEY,
  chat: (req, text) => (req.model === 'gpt-5' ? openai.chat(req, text) : mistral.chat(req, text)),
};

async function main(): Promise<void> {
  const gateway = await startEmulator(mixed);
  const wb = await openWorkbench({
    vsix: resolve('quorum.vsix'),
    folder: 'test/fixtures/workspace',
    settings: {
      'quorum.gateway.baseUrl': gateway.url, 'quorum.cache.ttlMinutes': 0, 'quorum.review.verify': 'off',
      'quorum.agents.analyst.model': 'gpt-5', 'quorum.agents.architecture.model': 'mistral-large-latest',
      'quorum.agents.security.model': 'gpt-5', 'quorum.agents.coding.model': 'mistral-large-latest',
      'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0, 'security.workspace.trust.enabled': false,
    },
  });
  const { page } = wb;
  const shot = async (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  const toasts = async () => (await page.locator('.notifications-toasts').innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
  const dialog = async () => (await page.locator('.monaco-dialog-box').innerText().catch(() => '(no dialog)')).trim();
  try {
    await untilQuorumActive(wb);
    await step('wrong key', async () => {
      await setApiKey(wb, 'sk-wrong-key-0000000000');
      await wb.runCommand('Quorum: Test Connection');
      await page.waitForTimeout(6000);
      say(`wrong key -> notifications: ${await toasts()}`);
      await shot('01-wrong-key');
      await wb.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
    });
    await step('test connection', async () => {
      await setApiKey(wb, EMULATOR_KEY);
      await wb.runCommand('Quorum: Test Connection');
      await page.locator('.monaco-dialog-box').waitFor({ timeout: 30000 });
      say(`test connection -> dialog:\n${await dialog()}`);
      await shot('02-test-connection');
      await page.keyboard.press('Escape');
    });
    await step('review', async () => {
      await quickOpen(wb, 'sample.ts');
      await wb.runCommand('Quorum: Review Selection');
      await page.waitForTimeout(15000);
      say(`review -> notifications: ${await toasts()}`);
      const frame = wb.webviewFrame();
      say(`panel header: ${JSON.stringify((await frame.locator('.review-head').innerText()).replace(/\s+/g, ' '))}`);
      say(`panel: ${(await frame.locator('body').innerText()).replace(/\s+/g, ' ').slice(0, 1200)}`);
      await shot('03-review');
      const chats = gateway.requests.filter((q) => q.path.endsWith('/chat/completions'));
      say(`requests: ${chats.map((q) => `${q.model} ${q.status} [${Object.keys(q.body ?? {}).filter((k) => k !== 'messages').join(',')}]`).join(' | ')}`);
    });
  } finally {
    save();
    await wb.close();
    await gateway.close();
  }
}

void main();
