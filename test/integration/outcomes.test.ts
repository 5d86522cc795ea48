import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { QuorumApi } from '../../src/vscode/api';
import type { OutcomeNode } from '../../src/vscode/outcomes/outcomesView';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting } from './helpers';
import { readOutcomeFolder } from '../../src/core/outcomes/store';

const KEY = 'sk-quorum-outcomes-test-8d2f4a6c1e';

/** orders.py lines 4-13: the analyst's off-by-one, the security agent's SQL injection and untyped row. */
const FIRST = {
  analyst: { findings: [{ severity: 'high', title: 'Off-by-one reads past the end of prices', explanation: 'range(len(prices) + 1)', startLine: 11, endLine: 11, confidence: 0.9 }] },
  architecture: { findings: [] },
  security: {
    findings: [
      { severity: 'critical', title: 'SQL injection in find_order', explanation: 'order_id is concatenated.', startLine: 5, endLine: 5, cwe: 'CWE-89', confidence: 0.95 },
      { severity: 'medium', title: 'Row returned without a type', explanation: 'fetchone is untyped.', startLine: 6, endLine: 6, confidence: 0.8 },
    ],
  },
  coding: { rationale: 'none', improvedCode: 'pass' },
};
/** After the off-by-one is fixed: the analyst raises nothing, the security agent the same two findings. */
const SECOND = { ...FIRST, analyst: { findings: [] } };

describe('Show Review Outcomes: what became of each finding, in the editor', function () {
  this.timeout(120_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let answers: Record<string, unknown> = FIRST;

  /** A copy of orders.py of this test's own (the workbench saves edits after a delay: the fixture stays as it is). */
  const SAMPLE = 'outcomes-orders.py';
  const sample = () => vscode.Uri.joinPath((vscode.workspace.workspaceFolders as readonly vscode.WorkspaceFolder[])[0]!.uri, SAMPLE);
  const review = async (): Promise<ReviewSummary> => {
    const editor = await openSample(SAMPLE);
    select(editor, 4, 13);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary, 'the review ran');
    return summary;
  };
  const tree = () => api.outcomes.view.tree;
  const items = (nodes: OutcomeNode[]) => nodes.map((n) => tree().getTreeItem(n)).map((i) => [typeof i.label === 'string' ? i.label : (i.label?.label ?? ''), typeof i.description === 'string' ? i.description : '']);

  before(async () => {
    api = await quorum();
    gateway = await startTestGateway({ apiKey: KEY });
    gateway.script((r) => agentScript(answers)(r));
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    await setSetting(api, 'review.verify', 'off');
    api.usePrompter(new ScriptedPrompter().onInput('apiKey.input', () => KEY));
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
    const folder = (vscode.workspace.workspaceFolders as readonly vscode.WorkspaceFolder[])[0]!.uri;
    await vscode.workspace.fs.copy(vscode.Uri.joinPath(folder, 'orders.py'), sample(), { overwrite: true });
    const dir = api.outcomes.service.dir;
    assert.ok(dir, 'the workspace has a storage folder');
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(vscode.Uri.file(dir), 'outcomes-v1'), { recursive: true }).then(undefined, () => undefined);
  });

  after(async () => {
    api.useWorkspaceTrust(undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(sample(), '..', '.quorum'), { recursive: true }).then(undefined, () => undefined);
    await closeAll();
    await vscode.workspace.fs.delete(sample()).then(undefined, () => undefined);
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes', 'review.verify']) await setSetting(api, key, undefined);
    await gateway.close();
  });

  it('says there is nothing yet, then counts a fixed finding addressed and a dismissed one dismissed, per agent, model and severity', async () => {
    await vscode.commands.executeCommand('quorum.showOutcomes');
    assert.equal(api.outcomes.view.visible, true, 'the view is shown in the Explorer');
    assert.deepEqual(items(tree().getChildren()), [['No review outcomes yet: they are kept after each review.', '']]);

    const first = await review();
    assert.equal(first.findings.length, 3);
    // The off-by-one is fixed in the editor (unsaved) and the same lines are reviewed again.
    const editor = await openSample(SAMPLE);
    await editor.edit((e) => e.replace(new vscode.Range(10, 0, 10, editor.document.lineAt(10).text.length), '    for i in range(len(prices)):'));
    answers = SECOND;
    const second = await review();
    const row = second.findings.find((f) => f.title === 'Row returned without a type');
    assert.ok(row);
    await vscode.commands.executeCommand('quorum.internal.dismissFinding', second.reviewId, row.id);

    const stats = api.outcomes.service.stats();
    assert.equal(stats.findings, 3);
    assert.deepEqual(
      Object.fromEntries(Object.entries(stats.byAgent).map(([k, c]) => [k, [c.raised, c.addressed, c.dismissed, c.open, c.gone]])),
      { analyst: [1, 1, 0, 0, 0], security: [2, 0, 1, 1, 0] },
    );
    assert.deepEqual(Object.keys(stats.byModel).sort(), ['gemini-2.5-flash', 'gpt-4.1']);
    assert.deepEqual(Object.keys(stats.bySeverity), ['critical', 'high', 'medium']);

    const top = tree().getChildren();
    assert.deepEqual(items(top).map(([label]) => label), ['3 findings', 'By agent', 'By model', 'By severity']);
    const byAgent = top.find((n) => n.kind === 'group' && n.group === 'byAgent');
    assert.ok(byAgent);
    const agents = tree().getChildren(byAgent);
    // Most raised first.
    assert.deepEqual(items(agents), [['security', '2 raised · 0% addressed · 0% refuted'], ['analyst', '1 raised · 100% addressed · 0% refuted']]);
    const security = agents[0];
    assert.ok(security);
    const figures = items(tree().getChildren(security));
    assert.deepEqual(figures.slice(0, 4), [['Addressed', '0  ░░░░░░░░░░  0%'], ['Dismissed', '1  █████░░░░░  50%'], ['Open', '1  █████░░░░░  50%'], ['Gone', '0  ░░░░░░░░░░  0%']]);
    assert.equal(figures.find(([l]) => l === 'Cost per addressed finding')?.[1], '–');
  });

  it('Dismiss with a reason…: the reason kept with the outcome; the rule proposed from it is seen and edited before it is written, and it hides the finding later, naming itself', async () => {
    api.useWorkspaceTrust(true);
    answers = FIRST;
    const prompter = new ScriptedPrompter()
      .onInput('apiKey.input', () => KEY)
      .onInput('dismiss.reason', () => 'the query is built from a constant table of ids')
      .onMessage('learning.offer', (actions) => actions[0])
      .onInput('learning.rule', (o) => `${o.value ?? ''} Do not report it again.`)
      .onInput('learning.applyTo', (o) => o.value);
    api.usePrompter(prompter);
    const first = await review();
    const uri = vscode.Uri.joinPath(sample());
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(4, 0, 4, 0));
    const reasoned = actions.find((a) => a.title === 'Quorum: Dismiss with a reason… — SQL injection in find_order');
    assert.ok(reasoned?.command, actions.map((a) => a.title).join(' | '));
    assert.equal(await vscode.commands.executeCommand(reasoned.command.command, ...((reasoned.command.arguments ?? []) as unknown[])), true);

    // The user saw the proposed rule (the offer's detail, the input's value) before anything was written.
    const offer = prompter.calls.find((c) => c.id === 'learning.offer');
    assert.equal(offer?.detail, 'Findings like "SQL injection in find_order" were dismissed here: the query is built from a constant table of ids');
    assert.equal(prompter.calls.find((c) => c.id === 'learning.applyTo')?.options?.value, '*.py');
    const folder = vscode.Uri.joinPath(sample(), '..');
    const learnings = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.quorum', 'learnings.md')));
    assert.match(learnings, /^## the query is built from a constant table of ids\napplyTo: \*\.py\nhides: CWE-89\n\nFindings like "SQL injection in find_order" were dismissed here: the query is built from a constant table of ids Do not report it again\.\n/m);
    const record = readOutcomeFolder(api.outcomes.service.dir ?? '').records.find((r) => r.title === 'SQL injection in find_order' && r.raisedAt >= Date.now() - 60_000 && r.status === 'dismissed');
    assert.deepEqual([record?.by, record?.reason], ['editor', 'the query is built from a constant table of ids']);
    assert.ok(first.reviewId);

    // Without the project dismissal, the learning alone hides it — and says which learning.
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, '.quorum', 'dismissed.json'));
    const later = await review();
    const sql = later.findings.find((f) => f.cwe === 'CWE-89');
    assert.ok(sql);
    assert.equal(api.controller.session(later.reviewId)?.hidden.get(sql.id), 'learned');
    assert.equal(sql.learning, 'the query is built from a constant table of ids');
  });
});
