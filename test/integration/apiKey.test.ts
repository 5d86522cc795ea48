import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { QuorumApi } from '../../src/vscode/api';
import type { ConnectionReport } from '../../src/vscode/gateway/apiKeyCommands';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, quorum, setSetting } from './helpers';

const KEY = 'sk-quorum-apikey-test-7f3a9c1e5b';

describe('API key: set, test, clear (SecretStorage, per base URL)', () => {
  let api: QuorumApi;
  let gateway: TestGateway;
  let prompter: ScriptedPrompter;

  before(async () => {
    api = await quorum();
    gateway = await startTestGateway({ apiKey: KEY });
    await setSetting(api, 'gateway.baseUrl', gateway.url);
  });

  beforeEach(() => {
    prompter = new ScriptedPrompter();
    api.usePrompter(prompter);
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    await setSetting(api, 'gateway.baseUrl', undefined);
    await gateway.close();
  });

  it('asks in a password box, refuses malformed keys, stores the key and uses it on the next request', async () => {
    prompter.onInput('apiKey.input', () => `  ${KEY}  `);
    const stored = await vscode.commands.executeCommand<boolean>('quorum.setApiKey');
    assert.equal(stored, true);
    const asked = prompter.calls.find((c) => c.kind === 'input' && c.id === 'apiKey.input');
    assert.equal(asked?.options?.password, true);
    const options = asked?.options;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- only checked to be there; called through `options` below
    assert.ok(options?.validateInput);
    assert.ok(await options.validateInput('Bearer abcdefghijkl'));
    assert.ok(await options.validateInput('has space inside'));
    assert.equal(await options.validateInput(KEY), undefined);

    const report = await vscode.commands.executeCommand<ConnectionReport>('quorum.testConnection');
    assert.equal(report?.ok, true);
    assert.equal(report?.via, 'models');
    assert.equal(report?.models, 7);
    const ok = prompter.messagesWith('connection.ok')[0];
    assert.match(ok?.text ?? '', /127\.0\.0\.1:\d+.*7/);
    // The /models request (LiteLLM's /model/info may follow it: issue 30, prices the gateway lists).
    const last = gateway.requests.filter((r) => r.path.endsWith('/models')).at(-1);
    assert.equal(last?.path, '/v1/models');
    assert.equal(last?.headers.authorization, `Bearer ${KEY}`);
  });

  it('keeps one key per base URL: another gateway URL has no key until one is set', async () => {
    const other = await startTestGateway({ apiKey: KEY });
    try {
      await setSetting(api, 'gateway.baseUrl', other.url);
      const report = await vscode.commands.executeCommand<ConnectionReport | undefined>('quorum.testConnection');
      assert.equal(report, undefined);
      const missing = prompter.messagesWith('apiKey.missing')[0];
      assert.deepEqual(missing?.actions, ['Set API Key']);
      // A gateway on this machine is asked once, without a key, whether it wants one (it answers 401): no key is sent.
      assert.deepEqual(other.requests.map((r) => [r.path, r.headers.authorization]), [['/v1/models', undefined]]);
    } finally {
      await setSetting(api, 'gateway.baseUrl', gateway.url);
      await other.close();
    }
    const report = await vscode.commands.executeCommand<ConnectionReport>('quorum.testConnection');
    assert.equal(report?.ok, true);
  });

  it('tests a local server that takes no key without asking for one (issue 30: local servers need no key)', async () => {
    const local = await startTestGateway();
    try {
      await setSetting(api, 'gateway.baseUrl', local.url);
      const report = await vscode.commands.executeCommand<ConnectionReport | undefined>('quorum.testConnection');
      assert.equal(report?.ok, true);
      assert.equal(prompter.messagesWith('apiKey.missing').length, 0);
      assert.ok(prompter.messagesWith('connection.ok').length > 0);
      assert.ok(local.requests.length > 1);
      assert.ok(local.requests.every((r) => r.headers.authorization === undefined), 'no Authorization header is sent');
    } finally {
      await setSetting(api, 'gateway.baseUrl', gateway.url);
      await local.close();
    }
    const report = await vscode.commands.executeCommand<ConnectionReport>('quorum.testConnection');
    assert.equal(report?.ok, true);
  });

  it('offers to set a missing key and then continues with it', async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    assert.match(prompter.messagesWith('apiKey.cleared')[0]?.text ?? '', /removed/);
    prompter.onMessage('apiKey.missing', (actions) => actions[0]).onInput('apiKey.input', () => KEY);
    const report = await vscode.commands.executeCommand<ConnectionReport>('quorum.testConnection');
    assert.equal(report?.ok, true);
    assert.equal(prompter.messagesWith('apiKey.missing').length, 1);
  });

  it('a refused key (401) says so and offers "Set API Key"', async () => {
    prompter.onInput('apiKey.input', () => 'sk-wrong-key-0000000000');
    await vscode.commands.executeCommand('quorum.setApiKey');
    const failed = prompter.next((c) => c.id === 'connection.failed');
    const report = await vscode.commands.executeCommand<ConnectionReport>('quorum.testConnection');
    assert.equal(report?.ok, false);
    assert.equal(report?.errorCode, 'auth');
    const shown = await failed;
    assert.equal(shown.level, 'error');
    assert.match(shown.text ?? '', /refused the API key/);
    assert.ok(shown.actions?.includes('Set API Key'));
    // Put the right key back for the other tests.
    prompter.onInput('apiKey.input', () => KEY);
    await vscode.commands.executeCommand('quorum.setApiKey');
  });

  it('a gateway that is down: says which host could not be reached and what to check, without the low-level cause', async () => {
    const down = await startTestGateway({ apiKey: KEY });
    await down.close();
    try {
      await setSetting(api, 'gateway.baseUrl', down.url);
      await setSetting(api, 'limits.maxRetries', 0);
      prompter.onMessage('apiKey.missing', (actions) => actions[0]).onInput('apiKey.input', () => KEY);
      const failed = prompter.next((c) => c.id === 'connection.failed');
      const report = await vscode.commands.executeCommand<ConnectionReport>('quorum.testConnection');
      assert.equal(report?.ok, false);
      assert.equal(report?.errorCode, 'network');
      const shown = await failed;
      assert.equal(shown.text, `Could not reach ${new URL(down.url).host}. Check the base URL setting and your connection.`);
      assert.deepEqual(shown.actions, ['Open Settings', 'Test Connection']);
      await vscode.commands.executeCommand('quorum.clearApiKey');
    } finally {
      await setSetting(api, 'limits.maxRetries', undefined);
      await setSetting(api, 'gateway.baseUrl', gateway.url);
    }
  });

  it('tests with one tiny chat request when the gateway has no /models, and reports the latency', async () => {
    gateway.script((req) => (req.method === 'GET' ? { kind: 'error', status: 404, message: 'Not found' } : undefined));
    try {
      const report = await vscode.commands.executeCommand<ConnectionReport>('quorum.testConnection');
      assert.equal(report?.ok, true);
      assert.equal(report?.via, 'chat');
      assert.ok((report?.latencyMs ?? -1) >= 0);
      const ping = gateway.requests.at(-1);
      assert.equal(ping?.path, '/v1/chat/completions');
      assert.equal(ping?.body?.max_tokens ?? ping?.body?.max_completion_tokens, 1);
      assert.match(prompter.messagesWith('connection.ok')[0]?.text ?? '', /a test request answered in \d/);
    } finally {
      gateway.script(undefined);
    }
  });

  it('warns once when the base URL is plain http to another machine', async () => {
    await setSetting(api, 'gateway.baseUrl', 'http://gateway.example.invalid/v1');
    await setSetting(api, 'gateway.extraHeaders', { 'X-Team': 'core' });
    await setSetting(api, 'gateway.extraHeaders', undefined);
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    const warnings = prompter.messagesWith('gateway.insecure');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]?.text ?? '', /gateway\.example\.invalid.*http:\/\//);
  });

  it('never writes the key to settings, notifications or the log', async () => {
    const config = vscode.workspace.getConfiguration();
    assert.ok(!JSON.stringify(config.get('quorum')).includes(KEY));
    for (const c of prompter.calls) assert.ok(!JSON.stringify(c).includes(KEY));
    const files = await vscode.workspace.fs.readDirectory(api.logUri).then(
      (entries) => entries.filter(([name]) => name.endsWith('.log')),
      () => [],
    );
    let logText = '';
    for (const [name] of files) logText += new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(api.logUri, name)));
    assert.match(logText, /API key stored for http:\/\/127\.0\.0\.1/);
    assert.ok(!logText.includes(KEY));
  });
});
