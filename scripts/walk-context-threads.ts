// The walkthrough of the context in a repository large enough for the index's threads (issue 31), scripted: installs
// the packaged quorum.vsix into a user's workbench, opens a real git repository of 400 Python files (no language
// server answers for Python there, so the editor falls back to the repository index, which starts its threads: more
// than 256 files to read), changes one file to call a function defined in another folder, and runs "Quorum: Review
// Changes…" → Uncommitted changes against a loopback gateway. Prints the panel header's context line, what the
// requests carried and the extension host's time for the review, and takes screenshots.
// Run: npm run package && npx tsx scripts/walk-context-threads.ts [outDir]   (default /tmp/quorum-walk-context-threads)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setApiKey, untilQuorumActive, userWorkbench, walkLog } from './walkKit';
import { startTestGateway, type RecordedRequest, type Reply } from '../test/fixtures/gateway/server';

const KEY = 'sk-walkthrough-key-0123456789abcdef';
const { out, say, step, save } = walkLog('/tmp/quorum-walk-context-threads');
const FILES = 400;
const SIGNATURE = 'def charge_customer(customer_id, cents):';

function makeRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-walk-context-threads-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=walk@example.com', '-c', 'user.name=walk', ...args], { cwd: dir });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  git('init', '-q');
  for (let i = 0; i < FILES; i++) write(`pkg/m${i % 20}/mod${i}.py`, `def helper${i}(x):\n    return x + ${i}\n\n\ndef other${i}(y):\n    return helper${i}(y) * 2\n`);
  write('pkg/billing/charge.py', `${SIGNATURE}\n    """The customer first, then the amount in cents."""\n    if cents <= 0:\n        raise ValueError("nothing to charge")\n    return f"{customer_id}:{cents}"\n`);
  write('pkg/orders/checkout.py', 'def checkout(order):\n    return order["total"]\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  write('pkg/orders/checkout.py', 'from pkg.billing.charge import charge_customer\n\n\ndef checkout(order):\n    total = round(order["total"])\n    return charge_customer(total, order["customer"])\n');
  return dir;
}

const userOf = (req: RecordedRequest) => ((req.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

function reply(req: RecordedRequest): Reply | undefined {
  if (req.method !== 'POST' || !req.model) return undefined;
  if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'Nothing to replace.', replacements: [] }) };
  // Like a reviewer that sees the definition only when the context carries it.
  const findings = userOf(req).includes(SIGNATURE)
    ? [{ file: 'pkg/orders/checkout.py', severity: 'high', title: 'Arguments swapped', explanation: 'charge_customer takes the customer first.', startLine: 6, endLine: 6, confidence: 0.9 }]
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
      await shot('02-context-list');
    });

    const chats = gateway.requests.filter((r) => r.path.endsWith('/chat/completions'));
    say(`chat requests: ${chats.length}; carrying the definition: ${chats.filter((r) => userOf(r).includes(SIGNATURE)).length}`);
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
