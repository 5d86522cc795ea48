import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { QuorumApi } from '../../src/vscode/api';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting } from './helpers';

const KEY = 'sk-quorum-noise-test-5c7e9a1b3d';

/** What each agent answers about orders.py lines 4-13: one likely finding, one at confidence 0.4, one off-by-one. */
const ANSWERS = {
  analyst: { findings: [{ severity: 'high', title: 'Off-by-one reads past the end of prices', explanation: 'range(len(prices) + 1)', startLine: 11, endLine: 11, confidence: 0.9 }] },
  architecture: { findings: [] },
  security: {
    findings: [
      { severity: 'critical', title: 'SQL injection in find_order', explanation: 'order_id is concatenated into the SQL text.', startLine: 5, endLine: 5, cwe: 'CWE-89', confidence: 0.95 },
      { severity: 'medium', title: 'Row returned without a type', explanation: 'fetchone returns an untyped tuple.', startLine: 6, endLine: 6, confidence: 0.4 },
    ],
  },
  coding: { rationale: 'none', improvedCode: 'pass' },
};

const titles = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Quorum').map((d) => d.message.split('\n')[0]).sort();

async function actionTitles(uri: vscode.Uri, line: number): Promise<string[]> {
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(line - 1, 0, line - 1, 0));
  return actions.map((a) => a.title).filter((t) => t.startsWith('Quorum'));
}

describe('noise controls in the editor (minimum confidence, Dismiss in this project)', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  const folder = () => (vscode.workspace.workspaceFolders as readonly vscode.WorkspaceFolder[])[0]!.uri;
  const dismissedFile = () => vscode.Uri.joinPath(folder(), '.quorum', 'dismissed.json');

  const review = async (): Promise<{ summary: ReviewSummary; uri: vscode.Uri }> => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary, 'the review ran');
    return { summary, uri: editor.document.uri };
  };

  before(async () => {
    api = await quorum();
    gateway = await startTestGateway({ apiKey: KEY });
    gateway.script(agentScript(ANSWERS));
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    api.usePrompter(new ScriptedPrompter().onInput('apiKey.input', () => KEY));
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
  });

  afterEach(async () => {
    api.useWorkspaceTrust(undefined);
    await setSetting(api, 'review.minConfidence', undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), '.quorum'), { recursive: true }).then(undefined, () => undefined);
    await closeAll();
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes']) await setSetting(api, key, undefined);
    await gateway.close();
  });

  it('quorum.review.minConfidence keeps a finding below it out of Problems and counts it as hidden in the panel', async () => {
    await setSetting(api, 'review.minConfidence', 0.5);
    const posted: string[] = [];
    let told: () => void = () => undefined;
    const hiddenPosted = new Promise<void>((resolve) => (told = resolve));
    const sub = api.panels.onDidPostMessage((m) => {
      posted.push(JSON.stringify(m));
      if (posted.some((p) => p.includes('"kind":"hidden"') || p.includes('"hidden":[{'))) told();
    });
    try {
      const { summary, uri } = await review();
      const low = summary.findings.find((f) => f.title.startsWith('Row returned'));
      assert.ok(low, 'the merged list still has it');
      assert.deepEqual(titles(uri), ['Off-by-one reads past the end of prices', 'SQL injection in find_order']);
      assert.deepEqual([...(api.controller.session(summary.reviewId)?.hidden ?? [])], [[low.id, 'confidence']]);
      // The panel is told (in a batch of events, or in the snapshot of a page that just loaded) which finding is hidden, and why.
      await hiddenPosted;
      assert.ok(posted.some((m) => m.includes(`{"id":"${low.id}","reason":"confidence"}`)), 'the panel was told which finding is hidden, and why');
      assert.deepEqual((await actionTitles(uri, 6)).filter((t) => t.includes('Row returned')), [], 'no quick fix for a hidden finding');
    } finally {
      sub.dispose();
    }
    // Without the setting, the next review shows it.
    await setSetting(api, 'review.minConfidence', undefined);
    const again = await review();
    assert.equal(titles(again.uri).length, 3);
  });

  it('Dismiss in this project writes .quorum/dismissed.json; the finding leaves Problems and stays hidden on a later review of the same code', async () => {
    api.useWorkspaceTrust(true);
    const first = await review();
    const offered = await actionTitles(first.uri, 5);
    assert.ok(offered.includes('Quorum: Dismiss in this project — SQL injection in find_order'), offered.join(' | '));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', first.uri, new vscode.Range(4, 0, 4, 0));
    const dismiss = actions.find((a) => a.title === 'Quorum: Dismiss in this project — SQL injection in find_order');
    assert.ok(dismiss?.command);
    assert.equal(await vscode.commands.executeCommand(dismiss.command.command, ...((dismiss.command.arguments ?? []) as unknown[])), true);
    assert.deepEqual(titles(first.uri), ['Off-by-one reads past the end of prices', 'Row returned without a type']);

    const file = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(dismissedFile()))) as { version: number; dismissed: { agent: string; rule: string; code: string; file: string }[] };
    assert.equal(file.version, 1);
    assert.deepEqual(file.dismissed.map((e) => [e.agent, e.rule, e.file]), [['security', 'CWE-89', 'orders.py']]);
    assert.match(file.dismissed[0]?.code ?? '', /^[0-9a-f]{64}$/);

    // A later review of the unchanged code: the model reports it again, Quorum hides it as dismissed.
    const second = await review();
    const sql = second.summary.findings.find((f) => f.cwe === 'CWE-89');
    assert.ok(sql);
    assert.equal(api.controller.session(second.summary.reviewId)?.hidden.get(sql.id), 'dismissed');
    assert.deepEqual(titles(second.uri), ['Off-by-one reads past the end of prices', 'Row returned without a type']);

    // In an untrusted workspace the file is neither offered, nor read.
    api.useWorkspaceTrust(false);
    const third = await review();
    assert.deepEqual((await actionTitles(third.uri, 5)).filter((t) => t.includes('in this project')), []);
    assert.equal(titles(third.uri).length, 3, 'an untrusted repository cannot hide findings');
  });
});
