import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import { formatUsd } from '../../src/shared/format';
import type { QuorumApi } from '../../src/vscode/api';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import type { HostToWebview } from '../../src/shared/protocol';
import { ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting, until } from './helpers';

const KEY = 'sk-quorum-review-test-2b8e4d6a1c';

const SQL_FIX = '    cur = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,))';
const LOOP_FIX = '    for i in range(len(prices)):';
const IMPROVED = [
  'def find_order(conn: sqlite3.Connection, order_id: str):',
  '    cur = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,))',
  '    return cur.fetchone()',
].join('\n');

/** What each agent answers about orders.py lines 4-13. */
const ANSWERS = {
  analyst: {
    findings: [
      { severity: 'high', title: 'Off-by-one reads past the end of prices', explanation: 'range(len(prices) + 1) indexes prices[len(prices)].', startLine: 11, endLine: 11, suggestion: LOOP_FIX, confidence: 0.9 },
    ],
  },
  architecture: { findings: [] },
  security: {
    findings: [
      { severity: 'critical', title: 'SQL injection in find_order', explanation: 'order_id is concatenated into the SQL text.', startLine: 5, endLine: 5, cwe: 'CWE-89', suggestion: SQL_FIX, confidence: 0.95 },
      { severity: 'low', title: 'Row returned without a type', explanation: 'fetchone returns an untyped tuple.', startLine: 6, endLine: 6, confidence: 0.4 },
    ],
  },
  coding: { rationale: 'Parameterised the query.', improvedCode: IMPROVED },
};

function quorumDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Quorum');
}

function codeValue(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

async function actionsAt(uri: vscode.Uri, line: number): Promise<vscode.CodeAction[]> {
  const range = new vscode.Range(line - 1, 0, line - 1, 0);
  return (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range)).filter((a) => a.title.startsWith('Quorum'));
}

async function run(action: vscode.CodeAction | undefined): Promise<unknown> {
  assert.ok(action?.command, 'the action exists');
  return vscode.commands.executeCommand(action.command.command, ...((action.command.arguments ?? []) as unknown[]));
}

describe('review selection (real VS Code, loopback gateway)', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let prompter: ScriptedPrompter;
  const posted: string[] = [];
  let postSub: vscode.Disposable | undefined;

  let ordersOnDisk: Uint8Array;
  const ordersUri = () => vscode.Uri.joinPath((vscode.workspace.workspaceFolders as readonly vscode.WorkspaceFolder[])[0]!.uri, 'orders.py');

  before(async () => {
    api = await quorum();
    // The web workbench saves edits after a delay by default; these tests edit the fixture and must not write it.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    ordersOnDisk = await vscode.workspace.fs.readFile(ordersUri());
    gateway = await startTestGateway({ apiKey: KEY });
    gateway.script(agentScript(ANSWERS));
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    await setSetting(api, 'limits.maxRetries', 1);
    postSub = api.panels.onDidPostMessage((m) => posted.push(JSON.stringify(m)));
    prompter = new ScriptedPrompter().onInput('apiKey.input', () => KEY);
    api.usePrompter(prompter);
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
  });

  beforeEach(() => {
    prompter = new ScriptedPrompter().onInput('apiKey.input', () => KEY);
    api.usePrompter(prompter);
  });

  afterEach(async () => {
    gateway.script(agentScript(ANSWERS));
    gateway.setOptions({ apiKey: KEY, ttftMs: 0 });
    await closeAll();
  });

  after(async () => {
    postSub?.dispose();
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes', 'limits.maxRetries', 'budget.sessionUsd', 'review.confirmWholeFileOverLines', 'agents.analyst.model', 'agents.architecture.enabled', 'agents.security.enabled', 'agents.coding.enabled', 'limits.idleTimeoutSeconds', 'limits.deadlineSeconds']) {
      await setSetting(api, key, undefined);
    }
    await gateway.close();
    const now = await vscode.workspace.fs.readFile(ordersUri());
    if (Buffer.compare(Buffer.from(now), Buffer.from(ordersOnDisk)) !== 0) await vscode.workspace.fs.writeFile(ordersUri(), ordersOnDisk);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    assert.equal(Buffer.compare(Buffer.from(now), Buffer.from(ordersOnDisk)), 0, 'the tests never wrote the fixture');
  });

  it('reviews the selected lines: events arrive, findings land in Problems, the status bar shows the ledger total', async () => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    const costBefore = api.ledger.totals().session.costUsd;
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary, 'the review ran');
    const { contextStatus, ...target } = summary.target;
    assert.deepEqual(target, { kind: 'selection', label: 'orders.py:4-13', regions: [{ file: 'orders.py', language: 'python', startLine: 4, endLine: 13 }] });
    // The editor's fallback index chose the context of the one region within its time budget.
    assert.deepEqual({ regions: contextStatus?.regions, chosen: contextStatus?.chosen, stopped: contextStatus?.stopped }, { regions: 1, chosen: 1, stopped: undefined });
    assert.deepEqual(summary.agents.map((a) => [a.agent, a.status]).sort(), [['analyst', 'ok'], ['architecture', 'ok'], ['coding', 'ok'], ['security', 'ok']]);

    const session = api.controller.session(summary.reviewId);
    assert.ok(session);
    const types = new Set(session.events().map((e) => e.type));
    for (const t of ['queued', 'started', 'delta', 'finding', 'done', 'review-done']) assert.ok(types.has(t as never), t);
    // The reviewed code went to the gateway, with the key.
    const chat = gateway.requests.filter((r) => r.path === '/v1/chat/completions');
    assert.equal(chat.length, 4);
    assert.ok(chat.every((r) => r.headers.authorization === `Bearer ${KEY}`));
    assert.ok(JSON.stringify(chat[0]?.body).includes('SELECT * FROM orders'));

    const diagnostics = quorumDiagnostics(editor.document.uri);
    assert.equal(diagnostics.length, 3);
    const sql = diagnostics.find((d) => codeValue(d) === 'security/CWE-89');
    assert.ok(sql, 'the SQL injection is in Problems with agent and rule as its code');
    assert.equal(sql.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(sql.range.start.line, 4);
    assert.match(sql.message, /^SQL injection in find_order/);
    assert.equal(typeof sql.code === 'object' && sql.code.target.toString(), 'https://cwe.mitre.org/data/definitions/89.html');
    const low = diagnostics.find((d) => d.message.startsWith('Row returned'));
    assert.equal(low?.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(diagnostics.find((d) => codeValue(d) === 'analyst')?.range.start.line, 10);

    const total = api.ledger.totals().session.costUsd;
    assert.ok(total > costBefore);
    assert.equal(api.cost.statusBar.text, `$(pulse) ${formatUsd(total)}`);
    // Untrusted names (agents, models) are Markdown-escaped in the tooltip; compare what the reader sees.
    const tooltip = api.cost.statusBar.tooltipText.replace(/\\([!-/:-@[-`{-~])/g, '$1');
    for (const part of ['analyst', 'security', 'gpt-4.1', 'gemini-2.5-flash', 'This month']) assert.ok(tooltip.includes(part), part);
  });

  it('quick fixes preview and apply a finding\'s suggestion, refuse when its lines changed, and dismiss', async () => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary);
    const uri = editor.document.uri;

    const atSql = await actionsAt(uri, 5);
    const titles = atSql.map((a) => a.title);
    for (const t of ['Quorum: Preview fix — SQL injection in find_order', 'Quorum: Apply fix — SQL injection in find_order', 'Quorum: Dismiss — SQL injection in find_order', 'Quorum: Apply improved code for lines 4–13']) {
      assert.ok(titles.includes(t), `${t} in ${titles.join(' | ')}`);
    }
    // A finding without a suggestion can only be dismissed (for this review, or in the project: the workspace is trusted).
    assert.deepEqual((await actionsAt(uri, 6)).filter((a) => a.title.includes('Row returned')).map((a) => a.title), ['Quorum: Dismiss — Row returned without a type', 'Quorum: Dismiss in this project — Row returned without a type', 'Quorum: Dismiss with a reason… — Row returned without a type']);

    await run(atSql.find((a) => a.title.startsWith('Quorum: Preview fix')));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor opened');
    assert.equal(tab.input.original.toString(), uri.toString());
    assert.equal(tab.input.modified.scheme, 'quorum-preview');
    const proposed = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.equal(proposed.lineAt(4).text, SQL_FIX);
    assert.equal(proposed.lineCount, editor.document.lineCount);
    assert.equal(editor.document.isDirty, false, 'preview changes nothing');

    assert.equal(await run(atSql.find((a) => a.title.startsWith('Quorum: Apply fix'))), 'applied');
    assert.equal(editor.document.lineAt(4).text, SQL_FIX);
    assert.equal(editor.document.lineAt(3).text, 'def find_order(conn: sqlite3.Connection, order_id: str):');
    assert.ok(!quorumDiagnostics(uri).some((d) => d.message.startsWith('SQL injection')));

    // Change the off-by-one line by hand: its fix no longer matches and is refused, the document is left alone.
    const byHand = new vscode.WorkspaceEdit();
    byHand.insert(uri, editor.document.lineAt(10).range.end, '  # edited');
    assert.ok(await vscode.workspace.applyEdit(byHand));
    const loopActions = await actionsAt(uri, 11);
    // The improved code covers lines that have changed too: refused.
    assert.equal(await run(loopActions.find((a) => a.title.startsWith('Quorum: Apply improved code'))), 'changed');
    const refused = prompter.next((c) => c.id === 'fix.changed' && prompter.messagesWith('fix.changed').length === 2);
    prompter.onMessage('fix.changed', (actions) => actions[0]);
    const reviewedAgain = new Promise<void>((resolve) => {
      const sub = api.controller.onDidStartReview((s) => {
        sub.dispose();
        s.onEvent((e) => e.type === 'review-done' && resolve());
      });
    });
    assert.equal(await run(loopActions.find((a) => a.title.startsWith('Quorum: Apply fix'))), 'changed');
    const shown = await refused;
    assert.match(shown.text ?? '', /changed since the review/);
    assert.deepEqual(shown.actions, ['Review Again']);
    // "Review Again" reviews the same lines as they read now.
    await reviewedAgain;
    prompter.onMessage('fix.changed', () => undefined);
    assert.equal(editor.document.lineAt(10).text, '    for i in range(len(prices) + 1):  # edited');

    await run((await actionsAt(uri, 6)).find((a) => a.title.startsWith('Quorum: Dismiss')));
    assert.ok(!quorumDiagnostics(uri).some((d) => d.message.startsWith('Row returned')));
  });

  it('the review panel shows a fix applied or a finding dismissed from the editor\'s quick fixes', async () => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary);
    const uri = editor.document.uri;
    const idOf = (title: string) => summary.findings.find((f) => f.title === title)?.id ?? assert.fail(`no finding ${title}`);
    const sqlId = idOf('SQL injection in find_order');
    const rowId = idOf('Row returned without a type');
    // The panel learns it from an event batch, or from the next snapshot if its page is not listening yet.
    const told = (m: HostToWebview, kind: 'applied' | 'dismissed', id: string) =>
      m.type === 'events'
        ? m.events.some((e) => e.kind === kind && e.findingId === id)
        : (kind === 'applied' ? m.review?.applied : m.review?.dismissed)?.includes(id) === true;

    const applied = until(api.panels.onDidPostMessage, (m) => told(m.message, 'applied', sqlId));
    assert.equal(await run((await actionsAt(uri, 5)).find((a) => a.title.startsWith('Quorum: Apply fix'))), 'applied');
    await applied;
    const dismissed = until(api.panels.onDidPostMessage, (m) => told(m.message, 'dismissed', rowId));
    await run((await actionsAt(uri, 6)).find((a) => a.title.startsWith('Quorum: Dismiss')));
    await dismissed;
  });

  it('follows edits: findings below an insertion move down, deleted lines take their findings with them', async () => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    await vscode.commands.executeCommand('quorum.reviewSelection');
    const uri = editor.document.uri;
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '# header\n# more\n'));
    const loop = quorumDiagnostics(uri).find((d) => codeValue(d) === 'analyst');
    assert.equal(loop?.range.start.line, 12);
    await editor.edit((b) => b.delete(new vscode.Range(12, 0, 13, 0)));
    assert.ok(!quorumDiagnostics(uri).some((d) => codeValue(d) === 'analyst'));
    assert.equal(quorumDiagnostics(uri).length, 2);
  });

  it('reviews a whole untitled document and applies the coding agent\'s improved code to exactly the reviewed lines', async () => {
    const improved = 'def add(a, b):\n    return a + b';
    gateway.script(agentScript({ ...ANSWERS, analyst: { findings: [] }, security: { findings: [] }, coding: { rationale: 'Simpler.', improvedCode: improved } }));
    const doc = await vscode.workspace.openTextDocument({ language: 'python', content: 'def add(a, b):\n    result = a\n    result = result + b\n    return result\n\n\n' });
    await vscode.window.showTextDocument(doc);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary);
    assert.deepEqual([summary.target.regions[0]?.startLine, summary.target.regions[0]?.endLine], [1, 4]);
    assert.equal(summary.target.regions[0]?.language, 'python');
    assert.equal(await vscode.commands.executeCommand('quorum.internal.applyFix', summary.reviewId, '@improved'), 'applied');
    assert.equal(doc.getText(), `${improved}\n\n\n`);
  });

  it('asks before reviewing a whole file longer than the setting, and before passing the session budget', async () => {
    await setSetting(api, 'review.confirmWholeFileOverLines', 5);
    const editor = await openSample('orders.py');
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const before = gateway.requests.length;
    assert.equal(await vscode.commands.executeCommand('quorum.reviewSelection'), undefined);
    const asked = prompter.messagesWith('review.wholeFile')[0];
    assert.equal(asked?.modal, true);
    assert.match(asked?.text ?? '', /13 lines/);

    await setSetting(api, 'review.confirmWholeFileOverLines', undefined);
    await setSetting(api, 'budget.sessionUsd', 0.000001);
    select(editor, 4, 6);
    assert.equal(await vscode.commands.executeCommand('quorum.reviewSelection'), undefined);
    const budget = prompter.messagesWith('review.sessionBudget')[0];
    assert.equal(budget?.modal, true);
    assert.deepEqual(budget?.actions, ['Review Anyway']);
    assert.equal(gateway.requests.length, before, 'nothing was sent');

    prompter.onMessage('review.sessionBudget', (actions) => actions[0]);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary && !summary.cancelled);
    await setSetting(api, 'budget.sessionUsd', undefined);
  });

  it('refuses binary, empty and huge content with a clear message', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'PK\u0003\u0004\u0000\u0000binary\u0000data' });
    await vscode.window.showTextDocument(doc);
    assert.equal(await vscode.commands.executeCommand('quorum.reviewSelection'), undefined);
    assert.match(prompter.messagesWith('review.binary')[0]?.text ?? '', /binary/);
    const empty = await vscode.workspace.openTextDocument({ content: '\n\n   \n' });
    await vscode.window.showTextDocument(empty);
    assert.equal(await vscode.commands.executeCommand('quorum.reviewSelection'), undefined);
    assert.match(prompter.messagesWith('review.empty')[0]?.text ?? '', /nothing to review/);
    const huge = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'const x = 1;\n'.repeat(40_000) });
    await vscode.window.showTextDocument(huge);
    await setSetting(api, 'review.confirmWholeFileOverLines', 0);
    assert.equal(await vscode.commands.executeCommand('quorum.reviewSelection'), undefined);
    assert.match(prompter.messagesWith('review.huge')[0]?.text ?? '', /too large to review \(508 KB; the limit is 391 KB\)/);
    await setSetting(api, 'review.confirmWholeFileOverLines', undefined);
  });

  it('Cancel Review stops a running review; a new review of the same lines replaces the running one; other lines run alongside', async () => {
    gateway.setOptions({ ttftMs: 1500 });
    const editor = await openSample('orders.py');
    select(editor, 4, 6);
    const started = new Promise<string>((resolve) => {
      const sub = api.controller.onDidStartReview((s) => {
        sub.dispose();
        resolve(s.id);
      });
    });
    const first = vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    const firstId = await started;
    assert.equal(api.controller.runningSessions().length, 1);
    assert.match(api.cost.statusBar.text, /^\$\(sync~spin\) /, 'a spinner while the review runs');
    assert.equal(await vscode.commands.executeCommand('quorum.cancelReview'), 1);
    const cancelled = await first;
    assert.equal(cancelled.reviewId, firstId);
    assert.equal(cancelled.cancelled, true);
    assert.equal(api.controller.runningSessions().length, 0);
    assert.match(api.cost.statusBar.text, /^\$\(pulse\) /);

    // Same lines twice: the first is replaced (cancelled), the second completes.
    const a = vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    await new Promise((r) => setTimeout(r, 300));
    const b = vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    const [ra, rb] = await Promise.all([a, b]);
    assert.equal(ra.cancelled, true);
    assert.equal(rb.cancelled, false);

    // Different lines: both run to the end on the one shared client.
    const requestsBefore = api.gatewayStats().httpRequests;
    select(editor, 9, 13);
    const c = vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    await new Promise((r) => setTimeout(r, 300));
    select(editor, 4, 6);
    const d = vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    const [rc, rd] = await Promise.all([c, d]);
    assert.equal(rc.cancelled, false);
    assert.equal(rd.cancelled, false);
    assert.equal(api.gatewayStats().httpRequests - requestsBefore, 8);
    assert.ok(gateway.maxInFlight >= 2);
  });

  it('closing the review panel cancels its running review', async () => {
    gateway.setOptions({ ttftMs: 2000 });
    const editor = await openSample('orders.py');
    select(editor, 9, 13);
    const isPanel = (t: vscode.Tab) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('quorum.review');
    const opened = new Promise<vscode.Tab>((resolve) => {
      const sub = vscode.window.tabGroups.onDidChangeTabs((e) => {
        const tab = e.opened.find(isPanel);
        if (!tab) return;
        sub.dispose();
        resolve(tab);
      });
    });
    const review = vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    const panelTab = await opened;
    assert.equal(api.controller.runningSessions().length, 1);
    await vscode.window.tabGroups.close(panelTab);
    const summary = await review;
    assert.equal(summary.cancelled, true);
  });

  describe('failures give their message and the action that fixes them', () => {
    before(async () => {
      // One agent is enough to see each failure.
      for (const a of ['architecture', 'security', 'coding']) await setSetting(api, `agents.${a}.enabled`, false);
    });
    after(async () => {
      for (const a of ['architecture', 'security', 'coding']) await setSetting(api, `agents.${a}.enabled`, undefined);
      await setSetting(api, 'agents.analyst.model', undefined);
    });

    async function reviewAndWaitFor(id: string) {
      const editor = await openSample('orders.py');
      select(editor, 4, 6);
      const shown = prompter.next((c) => c.id === id);
      const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
      return { summary, shown: await shown };
    }

    it('401: "Set API Key", and setting it runs the review again', async () => {
      gateway.setOptions({ apiKey: 'sk-some-other-key-123456' });
      prompter.onMessage('review.failed.auth', (actions) => actions[0]).onInput('apiKey.input', () => 'sk-some-other-key-123456');
      const rerun = new Promise<void>((resolve) => {
        let n = 0;
        const sub = api.controller.onDidStartReview(() => {
          if (++n === 2) {
            sub.dispose();
            resolve();
          }
        });
      });
      const { summary, shown } = await reviewAndWaitFor('review.failed.auth');
      assert.equal(summary.agents[0]?.error?.code, 'auth');
      assert.match(shown.text ?? '', /refused the API key/);
      assert.deepEqual(shown.actions, ['Set API Key']);
      await rerun;
      // Restore the test key.
      gateway.setOptions({ apiKey: KEY });
      prompter.onInput('apiKey.input', () => KEY);
      await vscode.commands.executeCommand('quorum.setApiKey');
    });

    it('an agent not asked because everything it builds on failed is not counted as failing', async () => {
      for (const a of ['security', 'coding']) await setSetting(api, `agents.${a}.enabled`, undefined);
      gateway.setOptions({ apiKey: 'sk-some-other-key-123456' });
      try {
        const { summary, shown } = await reviewAndWaitFor('review.failed.auth');
        assert.deepEqual(summary.agents.map((a) => [a.agent, a.error?.code]), [['analyst', 'auth'], ['security', 'auth'], ['coding', 'inputs-failed']]);
        assert.match(shown.text ?? '', /^2 of 3 agents failed\. /);
      } finally {
        gateway.setOptions({ apiKey: KEY });
        for (const a of ['security', 'coding']) await setSetting(api, `agents.${a}.enabled`, false);
      }
    });

    it('unknown model (404): "Switch Model" with the closest ids', async () => {
      await setSetting(api, 'agents.analyst.model', 'gpt-4.2');
      gateway.script((req) => (req.model === 'gpt-4.2' ? { kind: 'error', status: 404, message: 'The model `gpt-4.2` does not exist', type: 'invalid_request_error', code: 'model_not_found' } : undefined));
      const { summary, shown } = await reviewAndWaitFor('review.failed.model-not-found');
      assert.equal(summary.agents[0]?.error?.code, 'model-not-found');
      assert.match(shown.text ?? '', /does not know the model gpt-4\.2\. Closest: gpt-4\.1/);
      assert.deepEqual(shown.actions, ['Switch Model']);
      await setSetting(api, 'agents.analyst.model', undefined);
    });

    it('429 that does not end: the review ends at the deadline, saying it was rate limited and how long it waited', async () => {
      // Warm up (key read, tokenizer loaded) so that the short deadline below is spent on 429s, not on start-up.
      const warm = await openSample('orders.py');
      select(warm, 4, 6);
      assert.equal((await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection')).agents[0]?.status, 'ok');
      // A 429 that states a wait is retried until the request's deadline (not counted as a retry): a short one.
      await setSetting(api, 'limits.deadlineSeconds', 3);
      gateway.script((req) => (req.method === 'POST' ? { kind: 'error', status: 429, message: 'Rate limit reached', type: 'requests', headers: { 'retry-after-ms': '50' } } : undefined));
      try {
        const editor = await openSample('orders.py');
        select(editor, 4, 6);
        // Whatever failure it reports: waiting for one id only would hang on any other.
        const shown = prompter.next((c) => c.kind === 'message' && c.id.startsWith('review.failed.'));
        const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
        const error = summary.agents[0]?.error;
        assert.equal(error?.code, 'rate-limited', error?.message);
        assert.ok((error?.attempts ?? 0) > 1, 'it kept retrying');
        assert.ok((error?.waitedMs ?? 0) > 0, 'it says how long it waited');
        // Either the deadline came during a wait, or the last stated wait would have ended past it (how much time
        // is left when the last 429 arrives depends on the machine's load): both say so.
        assert.match(error?.message ?? '', /still rate limited at the request's deadline \(3 s\); waited \d\.\d s over \d+ attempts|the gateway asks to wait 1 s, past the request's deadline \(1 s left\); waited \d\.\d s over \d+ attempts/);
        const notice = await shown;
        assert.equal(notice.id, 'review.failed.rate-limited', notice.text);
        assert.match(notice.text ?? '', /kept answering 429 \(rate limited\): Quorum waited \d+(\.\d)? (s|ms) over \d+ attempts\. It asked to wait 50 ms\./);
        assert.deepEqual(notice.actions, ['Open Settings']);
      } finally {
        await setSetting(api, 'limits.deadlineSeconds', undefined);
      }
    });

    it('a gateway that never answers: a timeout message', async () => {
      await setSetting(api, 'limits.idleTimeoutSeconds', 1);
      await setSetting(api, 'limits.deadlineSeconds', 2);
      gateway.script((req) => (req.method === 'POST' ? { kind: 'hang' } : undefined));
      const { summary, shown } = await reviewAndWaitFor('review.failed.timeout');
      assert.equal(summary.agents[0]?.error?.code, 'timeout');
      assert.match(shown.text ?? '', /did not answer in time/);
      assert.deepEqual(shown.actions, ['Open Settings', 'Test Connection']);
      await setSetting(api, 'limits.idleTimeoutSeconds', undefined);
      await setSetting(api, 'limits.deadlineSeconds', undefined);
    });
  });

  describe('after everything above', () => {
    it('never lets the key reach the panel, notifications, settings or the log', async () => {
      assert.ok(posted.length > 0, 'the panel was sent messages');
      assert.ok(!posted.some((m) => m.includes(KEY)));
      for (const c of prompter.calls) assert.ok(!JSON.stringify(c).includes(KEY));
      assert.ok(!JSON.stringify(vscode.workspace.getConfiguration().get('quorum')).includes(KEY));
      const entries = await vscode.workspace.fs.readDirectory(api.logUri);
      let log = '';
      for (const [name] of entries.filter(([n]) => n.endsWith('.log'))) log += new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(api.logUri, name)));
      assert.match(log, /Review [0-9a-f-]+ of orders\.py lines 4–13/);
      assert.match(log, /answered/);
      assert.ok(!log.includes(KEY));
    });
  });
});
