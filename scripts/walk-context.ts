// The walkthrough of the context a review sends (issue 22), scripted: installs the packaged quorum.vsix into a
// user's workbench (shared/toolchain/workbench.cjs --vsix), opens a real git repository where a change calls a
// function defined in another file — one whose name holds HTML — and runs "Quorum: Review Changes…" →
// Uncommitted changes against a loopback gateway. Prints the panel header's context line, the list it opens on
// click, what the requests carried and which editor an entry opened, and takes screenshots.
// Run: npm run package && npx tsx scripts/walk-context.ts [outDir]   (default /tmp/quorum-walk-context)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setApiKey, untilQuorumActive, userWorkbench, walkLog } from './walkKit';
import { startTestGateway, type RecordedRequest, type Reply } from '../test/fixtures/gateway/server';

const KEY = 'sk-walkthrough-key-0123456789abcdef';
const { out, say, step, save } = walkLog('/tmp/quorum-walk-context');
const BILLING = 'src/<b>billing</b>.ts';

function makeRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-walk-context-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=walk@example.com', '-c', 'user.name=walk', ...args], { cwd: dir });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  git('init', '-q');
  write(BILLING, [
    '/** Charges a customer: the customer first, then the amount in cents. */',
    'export function chargeCustomer(customerId: string, cents: number): string {',
    '  if (cents <= 0) throw new Error("nothing to charge");',
    '  return `${customerId}:${cents}`;',
    '}',
    '',
  ].join('\n'));
  write('src/checkout.ts', [
    "import { chargeCustomer } from './<b>billing</b>';",
    '',
    'export function checkout(order: { customerId: string; totalCents: number }): string {',
    '  return chargeCustomer(order.customerId, order.totalCents);',
    '}',
    '',
  ].join('\n'));
  git('add', '.');
  git('commit', '-qm', 'init');
  write('src/checkout.ts', [
    "import { chargeCustomer } from './<b>billing</b>';",
    '',
    'export function checkout(order: { customerId: string; totalCents: number }): string {',
    '  const total = Math.round(order.totalCents);',
    '  return chargeCustomer(String(total), Number(order.customerId));',
    '}',
    '',
  ].join('\n'));
  return dir;
}

const userOf = (req: RecordedRequest) => ((req.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

function reply(req: RecordedRequest): Reply | undefined {
  if (req.method !== 'POST' || !req.model) return undefined;
  if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'Nothing to replace.', replacements: [] }) };
  // Like a reviewer that sees the definition only when the context carries it.
  const seen = userOf(req).includes('chargeCustomer(customerId: string, cents: number)');
  const findings = seen
    ? [{ file: 'src/checkout.ts', severity: 'high', title: 'Arguments swapped', explanation: 'chargeCustomer takes the customer first.', startLine: 5, endLine: 5, confidence: 0.9 }]
    : [];
  return { text: JSON.stringify({ findings }) };
}

async function main(): Promise<void> {
  const repo = makeRepository();
  const gateway = await startTestGateway({ apiKey: KEY, ttftMs: 100, tokensPerSecond: 800, models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'] });
  gateway.script(reply);
  const wb = await userWorkbench(repo, gateway.url);
  const { page } = wb;
  const shot = async (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  try {
    await untilQuorumActive(wb);
    await setApiKey(wb, KEY);

    await step('review changes', async () => {
      await wb.runCommand('Quorum: Review Changes…');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Uncommitted changes' }).first().click({ timeout: 30000 });
      await page.waitForTimeout(9000);
      const frame = wb.webviewFrame();
      say(`panel header: ${JSON.stringify((await frame.locator('.review-head').innerText()).replace(/\s+/g, ' '))}`);
      await shot('01-done');
      await frame.locator('[data-action="toggleContext"]').click();
      await page.waitForTimeout(500);
      say(`context list: ${JSON.stringify((await frame.locator('#context-list').innerText().catch(() => '(none)')).replace(/\s+/g, ' '))}`);
      say(`an HTML element made of the file name: ${await frame.locator('#context-list b').count()}`);
      await shot('02-context-list');
      await frame.locator('[data-action="openContext"]').first().click();
      await page.waitForTimeout(1500);
      say(`editor opened: ${JSON.stringify((await page.locator('.tabs-container .tab.active').innerText().catch(() => '?')).trim())}`);
      await shot('03-opened');
    });

    const chats = gateway.requests.filter((r) => r.path.endsWith('/chat/completions'));
    say(`chat requests: ${chats.length}; carrying the definition: ${chats.filter((r) => userOf(r).includes('chargeCustomer(customerId: string, cents: number)')).length}`);
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
