import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { QuorumApi } from '../../src/vscode/api';
import type { SwitchResult } from '../../src/vscode/models/switchModel';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, closeAll, openSample, quorum, select, setSetting } from './helpers';

const KEY = 'sk-quorum-models-test-9d1f3b5e7a';
const BUILTINS = ['analyst', 'architecture', 'security', 'coding'];

function labelled(items: readonly vscode.QuickPickItem[], text: string): vscode.QuickPickItem | undefined {
  return items.find((i) => i.label.includes(text));
}

describe('Switch Model… (gateway /models with prices, saved to settings)', function () {
  this.timeout(60_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let prompter: ScriptedPrompter;
  let hadWorkspaceSettings = false;
  const settingsFile = () => vscode.Uri.joinPath((vscode.workspace.workspaceFolders as readonly vscode.WorkspaceFolder[])[0]!.uri, '.vscode', 'settings.json');

  before(async () => {
    api = await quorum();
    hadWorkspaceSettings = await vscode.workspace.fs.stat(settingsFile()).then(() => true, () => false);
    gateway = await startTestGateway({ apiKey: KEY, models: ['gpt-4.1', 'gpt-4.1-mini', 'gemini-2.5-flash', 'vendor-x-large'] });
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    prompter = new ScriptedPrompter().onInput('apiKey.input', () => KEY);
    api.usePrompter(prompter);
    await vscode.commands.executeCommand('quorum.setApiKey');
  });

  beforeEach(() => {
    prompter = new ScriptedPrompter();
    api.usePrompter(prompter);
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    const config = vscode.workspace.getConfiguration('quorum');
    for (const a of BUILTINS) {
      await config.update(`agents.${a}.model`, undefined, vscode.ConfigurationTarget.Global);
      await config.update(`agents.${a}.model`, undefined, vscode.ConfigurationTarget.Workspace);
      await config.update(`agents.${a}.enabled`, undefined, vscode.ConfigurationTarget.Global);
    }
    await config.update('customAgents', undefined, vscode.ConfigurationTarget.Global);
    await setSetting(api, 'gateway.baseUrl', undefined);
    if (!hadWorkspaceSettings) await vscode.workspace.fs.delete(vscode.Uri.joinPath(settingsFile(), '..'), { recursive: true }).then(undefined, () => undefined);
    await closeAll();
    await gateway.close();
  });

  it('lists the gateway\'s models with $/MTok in and out, marks the current one, saves to user settings, and the next request uses it', async () => {
    prompter
      .onPick('switchModel.agent', (items) => labelled(items, 'Security'))
      .onPick('switchModel.model', (items) => labelled(items, 'gpt-4.1-mini'))
      .onPick('switchModel.target', (items) => labelled(items, 'User settings'));
    const result = await vscode.commands.executeCommand<SwitchResult>('quorum.switchModel');
    assert.deepEqual(result?.agents, ['security']);
    assert.equal(result?.model, 'gpt-4.1-mini');

    const agents = prompter.calls.find((c) => c.id === 'switchModel.agent')?.items ?? [];
    assert.ok(labelled(agents, 'All agents'));
    assert.equal(labelled(agents, 'Security')?.description, 'gemini-2.5-flash');
    const models = prompter.calls.find((c) => c.id === 'switchModel.model')?.items ?? [];
    const current = labelled(models, 'gemini-2.5-flash');
    assert.match(current?.label ?? '', /^\$\(check\)/);
    assert.equal(current?.description, '$0.30 in · $2.50 out / MTok');
    assert.equal(labelled(models, 'gpt-4.1-mini')?.description, '$0.40 in · $1.60 out / MTok');
    assert.equal(labelled(models, 'vendor-x-large')?.description, 'price unknown');
    assert.ok(labelled(models, 'Enter a model id…'));
    assert.ok(!labelled(models, 'deepseek-v3.2'), 'only what the gateway lists (and the current models)');
    // The workspace is open, so Quorum asked where to save.
    assert.ok(prompter.calls.some((c) => c.id === 'switchModel.target'));

    const inspected = vscode.workspace.getConfiguration('quorum').inspect<string>('agents.security.model');
    assert.equal(inspected?.globalValue, 'gpt-4.1-mini');
    assert.equal(api.settings.current.agents.security.model, 'gpt-4.1-mini');

    for (const a of ['analyst', 'architecture', 'coding']) await setSetting(api, `agents.${a}.enabled`, false);
    const editor = await openSample('orders.py');
    select(editor, 4, 6);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.equal(summary?.agents[0]?.model, 'gpt-4.1-mini');
    assert.equal(gateway.requests.filter((r) => r.method === 'POST').at(-1)?.model, 'gpt-4.1-mini');
    for (const a of ['analyst', 'architecture', 'coding']) await setSetting(api, `agents.${a}.enabled`, undefined);
  });

  it('sets one typed model id for all agents in the workspace settings', async () => {
    let modelItems: readonly vscode.QuickPickItem[] = [];
    prompter
      .onPick('switchModel.agent', (items) => labelled(items, 'All agents'))
      .onPick('switchModel.model', (items) => {
        modelItems = items;
        return labelled(items, 'Enter a model id…');
      })
      .onInput('switchModel.enter', () => 'openai/gpt-4o')
      .onPick('switchModel.target', (items) => labelled(items, 'Workspace settings'));
    const result = await vscode.commands.executeCommand<SwitchResult>('quorum.switchModel');
    assert.deepEqual(result?.agents, BUILTINS);
    // With several agents, each checked model says which of them use it (not four times "current").
    const checked = modelItems.filter((i) => i.label.startsWith('$(check)'));
    assert.ok(checked.length >= 2, `several current models: ${checked.map((i) => i.label).join(', ')}`);
    for (const i of checked) assert.match(i.detail ?? '', /used by (Analyst|Architecture|Security|Coding)/);
    const input = prompter.calls.find((c) => c.id === 'switchModel.enter');
    const options = input?.options;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- only checked to be there; called through `options` below
    assert.ok(options?.validateInput);
    assert.ok(await options.validateInput('bad model id'));
    assert.equal(await options.validateInput('openai/gpt-4o'), undefined);
    const config = vscode.workspace.getConfiguration('quorum');
    for (const a of BUILTINS) assert.equal(config.inspect<string>(`agents.${a}.model`)?.workspaceValue, 'openai/gpt-4o', a);
    assert.equal(api.settings.current.agents.coding.model, 'openai/gpt-4o');

    // Now the workspace overrides the user setting: Quorum offers the workspace first and says why.
    const again = new ScriptedPrompter()
      .onPick('switchModel.agent', (items) => labelled(items, 'Coding'))
      .onPick('switchModel.model', (items) => labelled(items, 'gpt-4.1-mini'))
      .onPick('switchModel.target', (items) => items[0]);
    api.usePrompter(again);
    await vscode.commands.executeCommand('quorum.switchModel');
    const targets = again.calls.find((c) => c.id === 'switchModel.target')?.items ?? [];
    assert.match(targets[0]?.label ?? '', /Workspace settings/);
    assert.match(targets[0]?.detail ?? '', /overrides the user setting/);
    assert.equal(config.inspect<string>('agents.coding.model')?.workspaceValue, 'gpt-4.1-mini');
    for (const a of BUILTINS) await config.update(`agents.${a}.model`, undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('goes straight to the models for a given agent, puts the closest ids first, and changes a custom agent in its list', async () => {
    await setSetting(api, 'customAgents', [{ id: 'perf', title: 'Performance', systemPrompt: 'Find slow code.', model: 'gpt-4.1' }]);
    prompter.onPick('switchModel.model', (items) => items.find((i) => i.label.includes('gpt-4.1-mini'))).onPick('switchModel.target', (items) => labelled(items, 'User settings'));
    const result = await vscode.commands.executeCommand<SwitchResult>('quorum.switchModel', 'perf', ['gpt-4.1-mini']);
    assert.deepEqual(result?.agents, ['perf']);
    assert.ok(!prompter.calls.some((c) => c.id === 'switchModel.agent'));
    const models = prompter.calls.find((c) => c.id === 'switchModel.model')?.items ?? [];
    assert.match(models[0]?.label ?? '', /gpt-4\.1-mini/);
    assert.match(models[0]?.detail ?? '', /closest match/);
    const custom = vscode.workspace.getConfiguration('quorum').inspect<{ id: string; model: string }[]>('customAgents')?.globalValue;
    assert.deepEqual(custom?.map((c) => [c.id, c.model]), [['perf', 'gpt-4.1-mini']]);
    assert.equal(api.settings.current.customAgents[0]?.model, 'gpt-4.1-mini');
  });

  it('still offers the price table when the gateway cannot list its models', async () => {
    gateway.script((req) => (req.method === 'GET' ? { kind: 'error', status: 500, message: 'boom' } : undefined));
    try {
      prompter.onPick('switchModel.agent', (items) => labelled(items, 'Analyst'));
      assert.equal(await vscode.commands.executeCommand('quorum.switchModel'), undefined);
      const models = prompter.calls.find((c) => c.id === 'switchModel.model')?.items ?? [];
      assert.equal(models[0]?.kind, vscode.QuickPickItemKind.Separator);
      assert.match(models[0]?.label ?? '', /did not list its models/);
      for (const id of ['claude-sonnet-4.5', 'deepseek-v3.2', 'gpt-4.1']) assert.ok(labelled(models, id), id);
    } finally {
      gateway.script(undefined);
    }
  });
});
