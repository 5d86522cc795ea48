import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { QuorumApi } from '../../src/vscode/api';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting } from './helpers';

const KEY = 'sk-quorum-privacy-test-7d1e9c3b5a';
const TOKEN = 'ghp_R8kQ2mV7xT4nW9pL3sZ6cY1bH5fJ0dG2aE8u';
const CREDS = ['import requests', '', `API_TOKEN = "${TOKEN}"`, 'def fetch(url):', '    return requests.get(url, verify=False)', ''].join('\n');
/** What the security agent answers: a fix for the line that holds the token, written with the placeholder it saw. */
const FIX = 'API_TOKEN = "[REDACTED:github-token]"  # read from the environment instead\nTIMEOUT_SECONDS = 10';

describe('privacy in the editor: files never sent, redaction, repository rules and trust (real VS Code)', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let prompter: ScriptedPrompter;
  const folder = () => (vscode.workspace.workspaceFolders as readonly vscode.WorkspaceFolder[])[0]!.uri;
  const created: vscode.Uri[] = [];

  async function write(path: string, text: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder(), ...path.split('/'));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    created.push(uri);
    return uri;
  }

  const chat = () => gateway.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const systemPrompts = () => chat().map((r) => ((r.body?.messages ?? []) as { role: string; content: string }[])[0]?.content ?? '');

  before(async () => {
    api = await quorum();
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    gateway = await startTestGateway({ apiKey: KEY });
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    await setSetting(api, 'limits.maxRetries', 0);
    for (const a of ['analyst', 'architecture', 'coding']) await setSetting(api, `agents.${a}.enabled`, false);
    prompter = new ScriptedPrompter().onInput('apiKey.input', () => KEY);
    api.usePrompter(prompter);
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
  });

  beforeEach(() => {
    gateway.requests.length = 0;
    gateway.script(agentScript({ security: { findings: [{ severity: 'high', title: 'Hard-coded GitHub token', explanation: 'The token is in the source.', startLine: 3, endLine: 3, cwe: 'CWE-798', suggestion: FIX, confidence: 0.9 }] } }));
    prompter = new ScriptedPrompter();
    api.usePrompter(prompter);
  });

  afterEach(async () => {
    api.useWorkspaceTrust(undefined);
    await closeAll();
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes', 'limits.maxRetries', 'agents.analyst.enabled', 'agents.architecture.enabled', 'agents.coding.enabled']) await setSetting(api, key, undefined);
    for (const uri of created.reverse()) await vscode.workspace.fs.delete(uri, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), '.quorum'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await gateway.close();
  });

  it('refuses to review a file matched by quorum.privacy.exclude, naming the rule, and sends nothing', async () => {
    await write('.env.test', 'DB_PASSWORD=hunter2hunter2\n');
    await openSample('.env.test');
    const summary = await vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewSelection');
    assert.equal(summary, undefined);
    const [refusal] = prompter.messagesWith('privacy.excluded');
    assert.ok(refusal, 'the user was told');
    assert.match(refusal.text ?? '', /\.env\.test.*"\*\*\/\.env\.\*".*quorum\.privacy\.exclude/);
    assert.equal(gateway.requests.length, 0);
  });

  it('redacts the secret before sending, tells the panel what it redacted, and the applied fix keeps the real token', async () => {
    const uri = await write('creds.py', CREDS);
    const editor = await openSample('creds.py');
    select(editor, 1, 5);
    const summary = await vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewSelection');
    assert.ok(summary, 'the review ran');
    const sent = gateway.requests.map((r) => r.raw).join('\n');
    assert.ok(!sent.includes(TOKEN), 'the token never reached the gateway');
    assert.ok(sent.includes('API_TOKEN = \\"[REDACTED:github-token]\\"'), 'its placeholder did');
    assert.match(systemPrompts()[0] ?? '', /A placeholder is not a bug/);
    const session = api.controller.session(summary.reviewId);
    assert.deepEqual(session?.privacy?.redactions, [{ kind: 'github-token', line: 3, endLine: 3 }]);

    const finding = summary.findings[0];
    assert.ok(finding, 'the security agent reported the token');
    assert.ok(finding.suggestion?.includes('[REDACTED:github-token]'), 'the result shows what the model wrote');
    assert.equal(await vscode.commands.executeCommand('quorum.internal.applyFix', summary.reviewId, finding.id), 'applied');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.lineAt(2).text, `API_TOKEN = "${TOKEN}"  # read from the environment instead`);
    assert.equal(doc.lineAt(3).text, 'TIMEOUT_SECONDS = 10');
    assert.ok(!doc.getText().includes('[REDACTED'));
  });

  it('ignores the repository rules in an untrusted workspace, says so once, and uses them when trusted', async () => {
    await write('.quorum/instructions.md', 'House rule: flag every call without a timeout.\n');
    await write('creds.py', CREDS);
    api.useWorkspaceTrust(false);
    for (let i = 0; i < 2; i++) {
      const editor = await openSample('creds.py');
      select(editor, 4, 5);
      assert.ok(await vscode.commands.executeCommand('quorum.reviewSelection'));
    }
    assert.equal(chat().length, 2);
    assert.ok(systemPrompts().every((p) => !p.includes('House rule') && !p.includes('repository-rules')));
    assert.equal(prompter.messagesWith('privacy.untrusted').length, 1, 'told once');

    gateway.requests.length = 0;
    api.useWorkspaceTrust(true);
    const editor = await openSample('creds.py');
    select(editor, 4, 5);
    const summary = await vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewSelection');
    assert.ok(summary);
    assert.match(systemPrompts()[0] ?? '', /<repository-rules>\n### \.quorum\/instructions\.md\nHouse rule: flag every call without a timeout\.\n<\/repository-rules>/);
    assert.deepEqual(api.controller.session(summary.reviewId)?.privacy?.rules, ['.quorum/instructions.md']);
  });

  it('Show What Will Be Sent opens a read-only Markdown document of the exact messages and sends nothing', async () => {
    await write('creds.py', CREDS);
    const editor = await openSample('creds.py');
    select(editor, 1, 5);
    await vscode.commands.executeCommand('quorum.showWhatWillBeSent');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'quorum-sent');
    assert.ok(doc, 'the preview opened');
    assert.equal(doc.languageId, 'markdown');
    const text = doc.getText();
    assert.match(text, /^# What Quorum will send/);
    assert.match(text, new RegExp(`Gateway host:\\*\\* \`${new URL(gateway.url).host.replace(/\./g, '\\.')}\``));
    assert.match(text, /github-token \(line 3\)/);
    assert.match(text, /3 \| API_TOKEN = "\[REDACTED:github-token\]"/);
    assert.match(text, /## Security \(security\)[\s\S]*gemini-2\.5-flash/);
    assert.ok(!text.includes(TOKEN));
    assert.equal(gateway.requests.length, 0);
  });
});
