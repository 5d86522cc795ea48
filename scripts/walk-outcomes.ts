// The walkthrough of Show Review Outcomes (issue 35), scripted: installs the packaged quorum.vsix into a user's
// workbench (shared/toolchain/workbench.cjs --vsix), opens a real git repository with two risky changes, reviews
// the uncommitted changes against a loopback gateway, fixes one of them on disk and reviews again, then runs
// "Quorum: Show Review Outcomes" and prints what the Explorer's view says, with screenshots.
// Run: npm run package && npx tsx scripts/walk-outcomes.ts [outDir]   (default /tmp/quorum-walk-outcomes)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setApiKey, untilQuorumActive, userWorkbench, walkLog } from './walkKit';
import { startTestGateway, type RecordedRequest, type Reply } from '../test/fixtures/gateway/server';

const KEY = 'sk-walkthrough-key-outcomes-0123456789';
const { out, say, step, save } = walkLog('/tmp/quorum-walk-outcomes');

const risky = ['import os', '', 'def run(cmd):', '    return os.system("sh -c " + cmd)', '', 'def query(db, name):', '    return db.execute("SELECT * FROM t WHERE n = \'" + name + "\'")', ''].join('\n');
const fixed = ['import os', 'import subprocess', '', 'def run(cmd):', '    return subprocess.run([cmd])', '', 'def query(db, name):', '    return db.execute("SELECT * FROM t WHERE n = \'" + name + "\'")', ''].join('\n');

function makeRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-walk-outcomes-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=walk@example.com', '-c', 'user.name=walk', ...args], { cwd: dir });
  git('init', '-q');
  writeFileSync(join(dir, 'tasks.py'), 'import os\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  writeFileSync(join(dir, 'tasks.py'), risky);
  return dir;
}

const userOf = (req: RecordedRequest) => ((req.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

/** The security agent reports each risky line it is shown; the analyst the shell call too; the others nothing. */
function reply(req: RecordedRequest): Reply | undefined {
  if (req.method !== 'POST' || !req.model) return undefined;
  if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'Nothing to replace.', replacements: [] }) };
  const user = userOf(req);
  const line = (pattern: RegExp) => Number(new RegExp(`^[+ ]?\\s*(\\d+) \\| .*${pattern.source}`, 'm').exec(user)?.[1] ?? 0);
  const shell = line(/sh -c/);
  const sql = line(/SELECT/);
  const f = (title: string, at: number, severity: string, cwe?: string) => ({ file: 'tasks.py', severity, title, explanation: 'Untrusted input reaches it.', startLine: at, endLine: at, confidence: 0.9, ...(cwe ? { cwe } : {}) });
  const findings =
    req.model === 'gemini-2.5-flash' ? [...(shell ? [f('Command injection through sh -c', shell, 'critical', 'CWE-78')] : []), ...(sql ? [f('SQL built from a string', sql, 'high', 'CWE-89')] : [])]
      : req.model === 'gpt-4.1' ? (shell ? [f('Shell call with user input', shell, 'high')] : [])
        : [];
  return { text: JSON.stringify({ findings }), promptTokens: 1200 };
}

async function main(): Promise<void> {
  const repo = makeRepository();
  const gateway = await startTestGateway({ apiKey: KEY, ttftMs: 100, tokensPerSecond: 800, models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'] });
  gateway.script(reply);
  const wb = await userWorkbench(repo, gateway.url);
  const { page } = wb;
  const shot = async (name: string) => page.screenshot({ path: join(out, `${name}.png`) });
  const reviewChanges = async () => {
    await wb.runCommand('Quorum: Review Changes…');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Uncommitted changes' }).first().click({ timeout: 30000 });
    await page.waitForTimeout(9000);
  };
  try {
    await untilQuorumActive(wb);
    await setApiKey(wb, KEY);
    await step('first review', reviewChanges);
    await step('fix the shell call and review again', async () => {
      writeFileSync(join(repo, 'tasks.py'), fixed);
      await page.waitForTimeout(1500);
      await reviewChanges();
    });
    await step('show review outcomes', async () => {
      await wb.runCommand('View: Close All Editors');
      await wb.runCommand('Quorum: Show Review Outcomes');
      await page.waitForTimeout(2500);
      // The folder's own section folded away: the view gets the Explorer's height.
      await page.locator('.pane-header', { hasText: 'quorum-walk-outcomes' }).first().click();
      await page.waitForTimeout(800);
      const view = page.locator('.pane', { hasText: 'Review Outcomes' }).nth(-1);
      say(`view: ${JSON.stringify((await view.innerText()).replace(/\s+/g, ' '))}`);
      await shot('01-outcomes');
      await view.locator('.monaco-list-row', { hasText: 'security' }).first().click({ timeout: 10000 });
      await page.waitForTimeout(800);
      await view.locator('.monaco-list-row', { hasText: 'analyst' }).first().click({ timeout: 10000 });
      await page.waitForTimeout(800);
      say(`expanded: ${JSON.stringify((await view.innerText()).replace(/\s+/g, ' '))}`);
      await shot('02-expanded');
    });
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
