// The walkthrough of tool results (issue 34), scripted: installs the packaged quorum.vsix into a user's workbench
// (shared/toolchain/workbench.cjs --vsix), opens a TypeScript file on which VS Code's own TypeScript server reports
// a type error and an unused variable, and runs "Quorum: Review Selection" (the whole file) against a loopback
// gateway whose analyst repeats the type error and finds an off-by-one. Prints what the TypeScript server reported,
// what the request carried, the panel header and the hidden list, and takes screenshots.
// Run: npm run package && npx tsx scripts/walk-tools.ts [outDir]   (default /tmp/quorum-walk-tools)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openWorkbench, quickOpen, setApiKey, untilQuorumActive, walkLog } from './walkKit';
import { startTestGateway, type RecordedRequest, type Reply } from '../test/fixtures/gateway/server';

const KEY = 'sk-walkthrough-key-0123456789abcdef';
const { out, say, step, save } = walkLog('/tmp/quorum-walk-tools');

function makeRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-walk-tools-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'total.ts'), [
    'export function total(prices: number[]): number {',
    '  let sum = 0;',
    '  for (let i = 0; i <= prices.length; i++) sum += prices[i];',
    "  const label: number = 'total';",
    '  return sum;',
    '}',
    '',
  ].join('\n'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

const userOf = (req: RecordedRequest) => ((req.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

function reply(req: RecordedRequest): Reply | undefined {
  if (req.method !== 'POST' || !req.model) return undefined;
  if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'Nothing to change.', improvedCode: '' }) };
  if (req.model !== 'gpt-4.1') return { text: JSON.stringify({ findings: [] }) };
  return {
    text: JSON.stringify({
      findings: [
        { severity: 'medium', title: 'Type mismatch: a string is assigned to a number', explanation: "label is declared number and given 'total'.", startLine: 4, endLine: 4, confidence: 0.9 },
        { severity: 'high', title: 'Off-by-one: the loop reads past the end of prices', explanation: 'i <= prices.length reads prices[prices.length], which is undefined: sum becomes NaN.', startLine: 3, endLine: 3, confidence: 0.9 },
      ],
    }),
  };
}

async function main(): Promise<void> {
  const repo = makeRepository();
  const gateway = await startTestGateway({ apiKey: KEY, ttftMs: 100, tokensPerSecond: 800, models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'] });
  gateway.script(reply);
  const wb = await openWorkbench({
    vsix: resolve('quorum.vsix'),
    folder: repo,
    settings: {
      'quorum.gateway.baseUrl': gateway.url, 'quorum.cache.ttlMinutes': 0, 'quorum.review.verify': 'off',
      'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0, 'security.workspace.trust.enabled': false,
    },
  });
  const { page } = wb;
  const shot = async (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  try {
    await untilQuorumActive(wb);
    await setApiKey(wb, KEY);
    await step('open the file, let the TypeScript server report', async () => {
      await quickOpen(wb, 'total.ts');
      await page.waitForTimeout(12000);
      await wb.runCommand('View: Show Problems');
      await page.waitForTimeout(1500);
      say(`problems: ${JSON.stringify((await page.locator('.markers-panel').innerText().catch(() => '?')).replace(/\s+/g, ' '))}`);
      await shot('01-problems');
    });
    await step('review the file', async () => {
      await quickOpen(wb, 'total.ts');
      await wb.runCommand('Quorum: Review Selection');
      await page.waitForTimeout(10000);
      const frame = wb.webviewFrame();
      say(`panel header: ${JSON.stringify((await frame.locator('.review-head').innerText()).replace(/\s+/g, ' '))}`);
      await shot('02-done');
      await frame.locator('button.hidden-toggle').click();
      await page.waitForTimeout(800);
      say(`hidden: ${JSON.stringify((await frame.locator('.finding-hidden-reason').first().innerText().catch(() => '(none)')).replace(/\s+/g, ' '))}`);
      await shot('03-hidden');
    });
    const chats = gateway.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const block = userOf(chats[0] ?? ({ body: {} } as RecordedRequest)).split("Already reported by the project's tools (read-only):")[1] ?? '(no block)';
    say(`chat requests: ${chats.length}; with the tool results: ${chats.filter((r) => userOf(r).includes("Already reported by the project's tools")).length}`);
    say(`the block: ${JSON.stringify(block.trim())}`);
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
