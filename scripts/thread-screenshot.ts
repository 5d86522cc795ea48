// Takes the README's screenshot of a review thread (a finding on its lines, with Apply / Dismiss / Dismiss in this
// project and a follow-up answered by the agent) in the real workbench (shared/toolchain/workbench.cjs), against
// the loopback test gateway. Run: npm run build && npx tsx scripts/thread-screenshot.ts [outDir]   (default docs/screenshots)
import { join, resolve } from 'node:path';
import { startTestGateway } from '../test/fixtures/gateway/server';
import { openWorkbench, quickOpen, setApiKey } from './walkKit';

const KEY = 'sk-screenshot-demo-key-000000';
const out = resolve(process.argv[2] ?? 'docs/screenshots');
const FIX = '    cur = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,))';
const ANSWER = 'Yes. `find_order(conn, "x\' OR \'1\'=\'1")` builds `WHERE id = \'x\' OR \'1\'=\'1\'`, which matches every row. With a `?` placeholder the driver sends `order_id` as a value, never as SQL.';

const answers: Record<string, unknown> = {
  'gpt-4.1': { findings: [] },
  'claude-sonnet-4.5': { findings: [] },
  'gemini-2.5-flash': { findings: [{ severity: 'critical', title: 'SQL injection in find_order', explanation: 'order_id is concatenated into the SQL text; pass it as a parameter.', startLine: 5, endLine: 5, cwe: 'CWE-89', suggestion: FIX, confidence: 0.95 }] },
  'deepseek-v3.2': { rationale: 'none', improvedCode: 'pass' },
};

async function main(): Promise<void> {
  const gateway = await startTestGateway({ apiKey: KEY, ttftMs: 200, tokensPerSecond: 400 });
  gateway.script((req) => {
    if (req.method !== 'POST' || !req.model) return undefined;
    if (JSON.stringify(req.body ?? {}).includes('follow-up question')) return { text: ANSWER, promptTokens: 900 };
    return answers[req.model] ? { text: JSON.stringify(answers[req.model]), promptTokens: 1400 } : undefined;
  });
  const wb = await openWorkbench({
    extensionPath: '.',
    folder: 'test/fixtures/workspace',
    settings: { 'quorum.gateway.baseUrl': gateway.url, 'quorum.cache.ttlMinutes': 0, 'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0 },
  });
  const { page } = wb;
  try {
    // The status bar item appears once Quorum is active (a busy machine takes a while).
    await page.locator('.statusbar-item', { hasText: '$0.00' }).first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(3000);
    await setApiKey(wb, KEY);

    await quickOpen(wb, 'orders.py');
    await wb.runCommand('Go to Line/Column...');
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 10; i++) await page.keyboard.press('Shift+ArrowDown');
    await wb.runCommand('Quorum: Review Selection');
    await page.waitForTimeout(8000);
    // The panel opened beside the editor: close it, so that the editor with its thread has the width.
    await wb.runCommand('View: Close All Editor Groups');
    await quickOpen(wb, 'orders.py');

    // No selection, no bottom panel: the thread has the room.
    await wb.runCommand('Go to Line/Column...');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await wb.runCommand('View: Hide Panel');
    // Ask the agent in the thread's reply box (collapsed to its prompt until clicked).
    await page.locator('.review-widget .comment-form').first().waitFor({ timeout: 15000 });
    await page.locator('.review-widget .comment-form').first().click();
    await page.waitForTimeout(800);
    await page.keyboard.type('Is this exploitable with the ids we use?');
    await page.locator('.review-widget .monaco-button', { hasText: 'Ask the Agent' }).first().click();
    await page.waitForTimeout(4000);
    await page.screenshot({ path: join(out, 'review-thread.png') });
    console.log(`screenshot in ${out}`);
  } catch (error) {
    await page.screenshot({ path: join(out, 'review-thread-failed.png') });
    throw error;
  } finally {
    await wb.close().catch(() => undefined);
    await gateway.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
