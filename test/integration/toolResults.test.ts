import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { QuorumApi } from '../../src/vscode/api';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { AGENT_OF_MODEL, ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting } from './helpers';

const KEY = 'sk-qrm-diagnostics-7d1e3a9c5b';

/** The security agent repeats what the linter says of line 5; the analyst finds what no linter does. */
const ANSWERS = {
  analyst: { findings: [{ severity: 'high', title: 'Off-by-one reads past the end of prices', explanation: 'range(len(prices) + 1)', startLine: 11, endLine: 11, confidence: 0.9 }] },
  architecture: { findings: [] },
  security: { findings: [{ severity: 'critical', title: 'SQL injection in find_order', explanation: 'order_id is concatenated into the SQL text.', startLine: 5, endLine: 5, cwe: 'CWE-89', confidence: 0.95 }] },
  coding: { rationale: 'none', improvedCode: 'pass' },
};

/** What Ruff's language server publishes for line 5 (rule S608, flake8-bandit's hardcoded-sql-expression). */
const RUFF_MESSAGE = 'Possible SQL injection vector through string-based query construction';

describe('tool results in the editor: diagnostics of other sources reach the request, repeats are hidden', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let linter: vscode.DiagnosticCollection;

  const review = async (): Promise<{ summary: ReviewSummary; uri: vscode.Uri }> => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary, 'the review ran');
    return { summary, uri: editor.document.uri };
  };
  const securityPrompt = () => {
    const req = [...gateway.requests].reverse().find((r) => r.path.endsWith('/chat/completions') && r.model !== undefined && AGENT_OF_MODEL[r.model] === 'security');
    return ((req?.body?.messages ?? []) as { content: string }[]).map((m) => m.content).join('\n');
  };

  before(async () => {
    api = await quorum();
    gateway = await startTestGateway({ apiKey: KEY });
    gateway.script(agentScript(ANSWERS));
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    api.usePrompter(new ScriptedPrompter().onInput('apiKey.input', () => KEY));
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
    linter = vscode.languages.createDiagnosticCollection('ruff');
  });

  after(async () => {
    linter.dispose();
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes']) await setSetting(api, key, undefined);
    await closeAll();
    await gateway.close();
  });

  it("sends Ruff's diagnostic on a reviewed line, never Quorum's own, and hides the finding that repeats it", async () => {
    const editor = await openSample('orders.py');
    const onLine5 = new vscode.Diagnostic(new vscode.Range(4, 10, 4, 72), RUFF_MESSAGE, vscode.DiagnosticSeverity.Warning);
    onLine5.source = 'Ruff';
    onLine5.code = { value: 'S608', target: vscode.Uri.parse('https://docs.astral.sh/ruff/rules/hardcoded-sql-expression/') };
    const outside = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 14), '`sqlite3` imported but unused', vscode.DiagnosticSeverity.Warning);
    outside.source = 'Ruff';
    outside.code = 'F401';
    linter.set(editor.document.uri, [onLine5, outside]);

    const posted: string[] = [];
    const sub = api.panels.onDidPostMessage((m) => posted.push(JSON.stringify(m)));
    try {
      const first = await review();
      const prompt = securityPrompt();
      assert.match(prompt, /Already reported by the project's tools \(read-only\):/);
      assert.match(prompt, /orders\.py:5 ruff S608 \(warning\): Possible SQL injection vector through string-based query construction/);
      assert.doesNotMatch(prompt, /F401/, 'line 1 is not reviewed');
      const sql = first.summary.findings.find((f) => f.cwe === 'CWE-89');
      assert.deepEqual(sql?.reportedBy, { tool: 'ruff', rule: 'S608' });
      assert.equal(api.controller.session(first.summary.reviewId)?.hidden.get(sql?.id ?? ''), 'reported-by-tool');
      const quorumOwn = () => vscode.languages.getDiagnostics(first.uri).filter((d) => d.source === 'Quorum').map((d) => d.message.split('\n')[0]);
      assert.deepEqual(quorumOwn(), ['Off-by-one reads past the end of prices'], 'the repeat stays out of Problems');
      assert.deepEqual(first.summary.target.toolResults?.map((r) => [r.tool, r.rule, r.startLine]), [['ruff', 'S608', 5]]);
      // The panel's header is told what went in: one result, from ruff.
      const told = () => posted.some((m) => m.includes('"tools":{"results":1,"tools":["ruff"]}'));
      // The page gets its snapshot once it says `ready`: wait for it, a few seconds at most.
      for (let i = 0; i < 100 && !told(); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(told(), 'the panel was told about the tool results');

      // A second review: Quorum's own diagnostic of the first (line 11) is in Problems now, and is never sent as a tool result.
      await review();
      const again = securityPrompt();
      assert.match(again, /orders\.py:5 ruff S608/);
      assert.doesNotMatch(again, /orders\.py:11 /);
    } finally {
      sub.dispose();
      linter.clear();
    }
  });
});
