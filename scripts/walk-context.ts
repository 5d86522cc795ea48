// The walkthrough of the context a review sends (issues 22 and 31), scripted: installs the packaged quorum.vsix into
// a user's workbench (shared/toolchain/workbench.cjs --vsix), opens a real git repository where a change calls a
// function defined in another file, and runs "Quorum: Review Changes…" → Uncommitted changes against a loopback
// gateway. Prints the panel header's context line, the list it opens on click, what the requests carried (and, in
// the small repository, which editor an entry opened), and takes screenshots. Two repositories:
// - small (default): the defining file's name holds HTML (`src/<b>billing</b>.ts`), shown as text everywhere;
// - WALK_CONTEXT=threads: 400 Python files (no language server answers for Python there, so the editor falls back to
//   the repository index, which starts its threads: more than 256 files to read).
// Run: npm run package && [WALK_CONTEXT=threads] npx tsx scripts/walk-context.ts [outDir]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setApiKey, untilQuorumActive, userWorkbench, walkLog } from './walkKit';
import { startTestGateway, type RecordedRequest, type Reply } from '../test/fixtures/gateway/server';

const KEY = 'sk-walkthrough-key-0123456789abcdef';
const THREADS = process.env.WALK_CONTEXT === 'threads';
const { out, say, step, save } = walkLog(THREADS ? '/tmp/quorum-walk-context-threads' : '/tmp/quorum-walk-context');
const BILLING = 'src/<b>billing</b>.ts';

/** A repository where a changed file now calls a definition in another file; `signature` is that definition's first line, `finding` where a reviewer that sees it reports. */
interface Scenario {
  repository: string;
  signature: string;
  finding: { file: string; line: number; title: string };
}

function gitRepository(): { dir: string; git: (...args: string[]) => void; write: (path: string, text: string) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-walk-context-'));
  const git = (...args: string[]) => {
    execFileSync('git', ['-c', 'user.email=walk@example.com', '-c', 'user.name=walk', ...args], { cwd: dir });
  };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  git('init', '-q');
  return { dir, git, write };
}

function smallRepository(): Scenario {
  const { dir, git, write } = gitRepository();
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
  return { repository: dir, signature: 'chargeCustomer(customerId: string, cents: number)', finding: { file: 'src/checkout.ts', line: 5, title: 'chargeCustomer takes the customer first.' } };
}

/** 400 Python files in 20 folders; the change calls a function of another folder. */
function largeRepository(): Scenario {
  const { dir, git, write } = gitRepository();
  for (let i = 0; i < 400; i++) write(`pkg/m${i % 20}/mod${i}.py`, `def helper${i}(x):\n    return x + ${i}\n\n\ndef other${i}(y):\n    return helper${i}(y) * 2\n`);
  const signature = 'def charge_customer(customer_id, cents):';
  write('pkg/billing/charge.py', `${signature}\n    """The customer first, then the amount in cents."""\n    if cents <= 0:\n        raise ValueError("nothing to charge")\n    return f"{customer_id}:{cents}"\n`);
  write('pkg/orders/checkout.py', 'def checkout(order):\n    return order["total"]\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  write('pkg/orders/checkout.py', 'from pkg.billing.charge import charge_customer\n\n\ndef checkout(order):\n    total = round(order["total"])\n    return charge_customer(total, order["customer"])\n');
  return { repository: dir, signature, finding: { file: 'pkg/orders/checkout.py', line: 6, title: 'charge_customer takes the customer first.' } };
}

const userOf = (req: RecordedRequest) => ((req.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

/** Like a reviewer that sees the definition only when the context carries it. */
function reviewer(scenario: Scenario): (req: RecordedRequest) => Reply | undefined {
  return (req) => {
    if (req.method !== 'POST' || !req.model) return undefined;
    if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'Nothing to replace.', replacements: [] }) };
    const { file, line, title } = scenario.finding;
    const findings = userOf(req).includes(scenario.signature) ? [{ file, severity: 'high', title: 'Arguments swapped', explanation: title, startLine: line, endLine: line, confidence: 0.9 }] : [];
    return { text: JSON.stringify({ findings }) };
  };
}

async function main(): Promise<void> {
  const scenario = THREADS ? largeRepository() : smallRepository();
  const gateway = await startTestGateway({ apiKey: KEY, ttftMs: 100, tokensPerSecond: 800, models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'] });
  gateway.script(reviewer(scenario));
  const wb = await userWorkbench(scenario.repository, gateway.url);
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
      if (THREADS) return;
      say(`an HTML element made of the file name: ${await frame.locator('#context-list b').count()}`);
      await frame.locator('[data-action="openContext"]').first().click();
      await page.waitForTimeout(1500);
      say(`editor opened: ${JSON.stringify((await page.locator('.tabs-container .tab.active').innerText().catch(() => '?')).trim())}`);
      await shot('03-opened');
    });

    const chats = gateway.requests.filter((r) => r.path.endsWith('/chat/completions'));
    say(`chat requests: ${chats.length}; carrying the definition: ${chats.filter((r) => userOf(r).includes(scenario.signature)).length}`);
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
