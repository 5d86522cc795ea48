import { strict as assert } from 'node:assert';
import { marked } from 'marked';
import * as vscode from 'vscode';
import type { CostTotals, LedgerTotals } from '../../src/core/cost/ledger';
import { parseSettings } from '../../src/core/settings/parse';
import type { QuorumApi } from '../../src/vscode/api';
import { detailItems } from '../../src/vscode/cost/costController';
import { tooltipMarkdown } from '../../src/vscode/cost/costStatusBar';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, closeAll, openSample, quorum, select, setSetting } from './helpers';

const KEY = 'sk-quorum-untrusted-test-4c7a9e1b3d';
/** VS Code's notification and input-box link pattern (`vs/base/common/linkedText.ts`). */
const LINKED_TEXT_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const COMMAND_LINK = '[gpt-4.2](command:quorum.resetCost)';
const ICON_ID = '$(zap)gpt-4.2-icon';

function totals(): CostTotals {
  return { costUsd: 0.01, estimatedUsd: 0, promptTokens: 10, completionTokens: 5, cachedTokens: 0, requests: 1, retries: 0, unpriced: 0 };
}

describe('untrusted text in notifications, tooltips and quick picks (link, image and command syntax)', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let prompter: ScriptedPrompter;

  before(async () => {
    api = await quorum();
    gateway = await startTestGateway({ apiKey: KEY, models: ['gpt-4.1', COMMAND_LINK, ICON_ID] });
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    await setSetting(api, 'limits.maxRetries', 0);
    for (const a of ['architecture', 'security', 'coding']) await setSetting(api, `agents.${a}.enabled`, false);
    prompter = new ScriptedPrompter().onInput('apiKey.input', () => KEY);
    api.usePrompter(prompter);
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
  });

  beforeEach(() => {
    prompter = new ScriptedPrompter();
    api.usePrompter(prompter);
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes', 'limits.maxRetries', 'agents.analyst.model', 'agents.architecture.enabled', 'agents.security.enabled', 'agents.coding.enabled']) {
      await setSetting(api, key, undefined);
    }
    await closeAll();
    await gateway.close();
  });

  async function review(): Promise<void> {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    await vscode.commands.executeCommand('quorum.reviewSelection');
  }

  it('a /models id with a command link is shown as text in the "Closest:" notification', async () => {
    await setSetting(api, 'agents.analyst.model', 'gpt-4.2');
    gateway.script((req) => (req.model === 'gpt-4.2' ? { kind: 'error', status: 404, message: 'The model `gpt-4.2` does not exist', type: 'invalid_request_error', code: 'model_not_found' } : undefined));
    try {
      const shown = prompter.next((c) => c.id === 'review.failed.model-not-found');
      await review();
      const text = (await shown).text ?? '';
      assert.ok(text.includes('[gpt-4.2] (command:quorum.resetCost)'), text);
      assert.doesNotMatch(text, LINKED_TEXT_LINK);
    } finally {
      gateway.script(undefined);
      await setSetting(api, 'agents.analyst.model', undefined);
    }
  });

  it('a base URL with link syntax is shown as text in the API key box', async () => {
    await setSetting(api, 'gateway.baseUrl', `${gateway.url}/[x](command:quorum.resetCost)`);
    try {
      prompter.onInput('apiKey.input', () => undefined);
      await vscode.commands.executeCommand('quorum.setApiKey');
      const prompt = prompter.calls.find((c) => c.id === 'apiKey.input')?.options?.prompt ?? '';
      assert.ok(prompt.includes('[x] (command:quorum.resetCost)'), prompt);
      assert.doesNotMatch(prompt, LINKED_TEXT_LINK);
    } finally {
      await setSetting(api, 'gateway.baseUrl', gateway.url);
    }
  });

  it('the Switch Model quick pick shows $(icon) in a model id as text', async () => {
    let labels: string[] = [];
    prompter.onPick('switchModel.agent', (items) => items.find((i) => i.label.includes('Analyst'))).onPick('switchModel.model', (items) => {
      labels = items.map((i) => i.label);
      return undefined;
    });
    await vscode.commands.executeCommand('quorum.switchModel');
    assert.ok(labels.some((l) => l.includes('\\$(zap)gpt-4.2-icon')), labels.join('\n'));
    assert.ok(!labels.some((l) => /(^|[^\\])\$\(zap\)/.test(l)));
  });

  it('the status bar tooltip (trusted for two commands) shows agent and model names as text', () => {
    const hostile: LedgerTotals = { session: totals(), byAgent: { [COMMAND_LINK]: totals() }, byModel: { '![img](https://evil.example/p.png) <b>x</b> $(zap)': totals() } };
    const md = tooltipMarkdown({ totals: hostile, monthUsd: 0, running: 0, settings: parseSettings({}).settings });
    const html = marked.parse(md.value, { async: false, gfm: true });
    const links = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(links, ['command:quorum.showCost', 'command:quorum.resetCost']);
    assert.doesNotMatch(html, /<img|<b>/);
    assert.ok(!/(^|[^\\])\$\(zap\)/.test(md.value));
    assert.deepEqual(md.isTrusted, { enabledCommands: ['quorum.showCost', 'quorum.resetCost'] });
  });

  it('the cost details quick pick shows $(icon) in agent and model names as text', () => {
    const items = detailItems({ session: totals(), byAgent: { '$(zap)agent': totals() }, byModel: { '$(gear)model': totals() } }, 0, 0);
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('$(person) \\$(zap)agent') && labels.includes('$(symbol-class) \\$(gear)model'), labels.join('\n'));
  });
});
