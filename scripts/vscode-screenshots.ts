// Takes the README's screenshots of the VS Code side (status bar tooltip, Problems with a quick fix, the
// model picker) in the real workbench (shared/toolchain/workbench.cjs), against the loopback test gateway.
// Run: npm run build && npx tsx scripts/vscode-screenshots.ts [outDir]   (default docs/screenshots)
import { join, resolve } from 'node:path';
import { startTestGateway } from '../test/fixtures/gateway/server';
import { openWorkbench, quickOpen, setApiKey } from './walkKit';

const KEY = 'sk-screenshot-demo-key-000000';
const out = resolve(process.argv[2] ?? 'docs/screenshots');

const answers: Record<string, unknown> = {
  'gpt-4.1': { findings: [{ severity: 'high', title: 'Off-by-one reads past the end of prices', explanation: 'range(len(prices) + 1) indexes prices[len(prices)] and raises IndexError.', startLine: 11, endLine: 11, suggestion: '    for i in range(len(prices)):', confidence: 0.9 }] },
  'claude-sonnet-4.5': { findings: [{ severity: 'medium', title: 'find_order mixes SQL and data access', explanation: 'Keep queries in one repository module so they can be tested.', startLine: 4, endLine: 6, confidence: 0.6 }] },
  'gemini-2.5-flash': { findings: [{ severity: 'critical', title: 'SQL injection in find_order', explanation: 'order_id is concatenated into the SQL text; pass it as a parameter.', startLine: 5, endLine: 5, cwe: 'CWE-89', suggestion: '    cur = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,))', confidence: 0.95 }] },
  'deepseek-v3.2': { rationale: 'Parameterised the query and fixed the loop bound.', improvedCode: 'def find_order(conn: sqlite3.Connection, order_id: str):\n    cur = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,))\n    return cur.fetchone()\n\n\ndef total(prices):\n    return sum(prices)' },
};

async function main(): Promise<void> {
  const gateway = await startTestGateway({ apiKey: KEY, ttftMs: 300, tokensPerSecond: 400 });
  gateway.script((req) => (req.method === 'POST' && req.model && answers[req.model] ? { text: JSON.stringify(answers[req.model]), promptTokens: 1400 } : undefined));
  const wb = await openWorkbench({
    extensionPath: '.',
    folder: 'test/fixtures/workspace',
    settings: { 'quorum.gateway.baseUrl': gateway.url, 'quorum.cache.ttlMinutes': 0, 'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0 },
  });
  const { page } = wb;
  try {
    await page.waitForTimeout(4000);
    await setApiKey(wb, KEY);

    await quickOpen(wb, 'orders.py');
    await wb.runCommand('Go to Line/Column...');
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 10; i++) await page.keyboard.press('Shift+ArrowDown');
    await wb.runCommand('Quorum: Review Selection');
    await page.waitForTimeout(9000);

    // 1. The cost in the status bar and its tooltip.
    await page.locator('.statusbar-item', { hasText: '$0.' }).first().hover();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(out, 'status-bar-cost.png') });

    // 2. Problems with the quick fixes of the SQL injection.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+M');
    await page.waitForTimeout(800);
    await page.locator('.editor-group-container').first().click();
    await wb.runCommand('Go to Line/Column...');
    await page.keyboard.type('5:10');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    await page.keyboard.press('Control+.');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(out, 'problems-quick-fix.png') });

    // 3. The model picker.
    await page.keyboard.press('Escape');
    await wb.runCommand('Quorum: Switch Model…');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Security' }).first().waitFor();
    await page.keyboard.type('Security');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'MTok' }).first().waitFor({ timeout: 15000 });
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(out, 'switch-model.png') });
    console.log(`screenshots in ${out}`);
  } finally {
    await wb.close();
    await gateway.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
