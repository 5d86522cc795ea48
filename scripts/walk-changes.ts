// The walkthrough of a review of changes, scripted: installs the packaged quorum.vsix into a user's workbench
// (shared/toolchain/workbench.cjs --vsix), opens a real git repository with uncommitted changes in five files (two
// big enough that the review goes in several requests per agent; one named with quotes and spaces) and runs
// "Quorum: Review Changes…" → Uncommitted changes against a loopback gateway whose later batches answer before the
// first. Prints what the panel, the Problems view and the status bar showed, and takes screenshots.
// Run: npm run package && npx tsx scripts/walk-changes.ts [outDir]   (default /tmp/quorum-walk-changes)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { openWorkbench, setApiKey, untilQuorumActive, walkLog } from './walkKit';
import { startTestGateway, type RecordedRequest, type Reply } from '../test/fixtures/gateway/server';



const KEY = 'sk-walkthrough-key-0123456789abcdef';
const { out, say, step, save } = walkLog('/tmp/quorum-walk-changes');


const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

function makeRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-walk-repo-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=walk@example.com', '-c', 'user.name=walk', ...args], { cwd: dir });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  git('init', '-q');
  write('src/db.py', 'import sqlite3\n\n\ndef find(conn, uid):\n    return conn.execute("SELECT 1").fetchone()\n');
  write('src/app.ts', 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  write('src/db.py', 'import sqlite3\n\n\ndef find(conn, uid):\n    return conn.execute("SELECT * FROM users WHERE id = " + uid).fetchone()\n');
  write('src/app.ts', 'export function greet(name: string): string {\n  document.body.innerHTML = name;\n  return `hello ${name}`;\n}\n');
  write('src/big1.ts', lines(160, (i) => `export const first${i} = ${i}; // a longer line of big1.ts, number ${i}`));
  write('src/big2.ts', lines(160, (i) => `export const second${i} = ${i}; // a longer line of big2.ts, number ${i}`));
  write('docs/say "hi" now.ts', 'export const hi = "hi";\n');
  return dir;
}

/** The file a request holds first, from its user message. */
function fileOf(req: RecordedRequest): string {
  const messages = (req.body?.messages ?? []) as { role: string; content: string }[];
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  return /^File: (.+)$/m.exec(user)?.[1] ?? '?';
}

function reply(req: RecordedRequest): Reply | undefined {
  if (req.method !== 'POST' || !req.model) return undefined;
  const file = fileOf(req);
  // The request holding the first file answers last: the panel must not mix its stream with the others'.
  const timing = file.startsWith('docs/') || file === 'src/app.ts' ? { ttftMs: 1500, tokensPerSecond: 150 } : { ttftMs: 200, tokensPerSecond: 600 };
  if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: `Nothing to replace in ${file}.`, replacements: [] }), ...timing };
  return { text: JSON.stringify({ findings: [{ file, severity: 'medium', title: `Checked ${file}`, explanation: `The change to ${file} was read.`, startLine: 1, endLine: 1, confidence: 0.8 }] }), ...timing };
}

async function main(): Promise<void> {
  const repo = makeRepository();
  const gateway = await startTestGateway({ apiKey: KEY, ttftMs: 200, tokensPerSecond: 400, models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'] });
  gateway.script(reply);
  const wb = await openWorkbench({
    vsix: resolve('quorum.vsix'),
    folder: repo,
    settings: {
      'quorum.gateway.baseUrl': gateway.url, 'quorum.cache.ttlMinutes': 0, 'quorum.changes.batchTokens': 1500,
      'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0, 'security.workspace.trust.enabled': false,
    },
  });
  const { page } = wb;
  const shot = async (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  const toasts = async () => (await page.locator('.notifications-toasts').innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
  try {
    await untilQuorumActive(wb);
    say(`status bar at start: ${JSON.stringify((await wb.statusBarText()).replace(/\s+/g, ' '))}`);
    await setApiKey(wb, KEY);

    await step('review changes', async () => {
      await wb.runCommand('Quorum: Review Changes…');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Uncommitted changes' }).first().waitFor({ timeout: 30000 });
      say(`pick: ${(await page.locator('.quick-input-list').innerText()).replace(/\s+/g, ' ')}`);
      await shot('01-pick');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Uncommitted changes' }).first().click();
      // While it streams: each card's text so far.
      await page.waitForTimeout(2500);
      const frame = wb.webviewFrame();
      const mid = await frame.locator('body').innerText().catch(() => '');
      writeFileSync(join(out, 'panel-streaming.txt'), mid);
      await shot('02-streaming');
      await page.waitForTimeout(9000);
      const body = await frame.locator('body').innerText();
      writeFileSync(join(out, 'panel-text.txt'), body);
      say(`notifications: ${await toasts()}`);
      say(`panel header: ${JSON.stringify((await frame.locator('.review-head').innerText()).replace(/\s+/g, ' '))}`);
      const files = ['src/app.ts', 'src/big1.ts', 'src/big2.ts', 'src/db.py', 'docs/say "hi" now.ts'];
      say(`panel names every file: ${files.map((f) => `${f}=${body.includes(f)}`).join(' ')}`);
      say(`a JSON answer interleaved mid-stream (two answers' openings within one line): ${/\{"findings":\[[^\n]*\{"findings":\[/.test(mid)}`);
      await shot('03-done');
    });

    await step('problems', async () => {
      await page.keyboard.press('Control+Shift+M');
      await page.waitForTimeout(1000);
      say(`Problems: ${(await page.locator('.markers-panel').innerText().catch(() => '(none)')).replace(/\s+/g, ' ').slice(0, 1200)}`);
      await shot('04-problems');
    });

    say(`status bar: ${JSON.stringify((await wb.statusBarText()).replace(/\s+/g, ' '))}`);
    const chats = gateway.requests.filter((r) => r.path.endsWith('/chat/completions'));
    say(`chat requests: ${chats.length}; files sent first per request: ${[...new Set(chats.map(fileOf))].join(', ')}`);
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
