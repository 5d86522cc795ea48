import { strict as assert } from 'node:assert';
import { marked } from 'marked';
import * as vscode from 'vscode';
import type { CostTotals, LedgerTotals } from '../../src/core/cost/totals';
import { parseSettings } from '../../src/core/settings/parse';
import type { QuorumApi } from '../../src/vscode/api';
import { detailItems } from '../../src/vscode/cost/costController';
import { tooltipMarkdown } from '../../src/vscode/cost/costStatusBar';
import type { Finding } from '../../src/core/domain/finding';
import { escapeMarkdown } from '../../src/shared/untrustedText';
import { answerMarkdown, findingMarkdown, untrustedMarkdown } from '../../src/vscode/threads/threadMarkdown';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import type { ReviewSummary } from '../../src/core/domain/result';
import { ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting } from './helpers';

const KEY = 'sk-quorum-untrusted-test-4c7a9e1b3d';
/** VS Code's notification and input-box link pattern (`vs/base/common/linkedText.ts`). */
const LINKED_TEXT_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const COMMAND_LINK = '[gpt-4.2](command:quorum.resetCost)';
const ICON_ID = '$(zap)gpt-4.2-icon';

function totals(): CostTotals {
  return { costUsd: 0.01, estimatedUsd: 0, promptTokens: 10, completionTokens: 5, cachedTokens: 0, requests: 1, retries: 0, unpriced: 0, listedUsd: 0 };
}

describe('untrusted text in notifications, tooltips and quick picks (link, image and command syntax)', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let prompter: ScriptedPrompter;

  before(async () => {
    api = await quorum();
    // The web workbench saves edits after a delay by default; these tests apply fixes and must not write the fixture.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
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
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
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
    const md = tooltipMarkdown({ totals: hostile, monthUsd: 0, running: 0, budget: parseSettings({}).settings.budget });
    const html = marked.parse(md.value, { async: false, gfm: true });
    const links = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(links, ['command:quorum.showCost', 'command:quorum.resetCost']);
    assert.doesNotMatch(html, /<img|<b>/);
    assert.ok(!/(^|[^\\])\$\(zap\)/.test(md.value));
    assert.deepEqual(md.isTrusted, { enabledCommands: ['quorum.showCost', 'quorum.resetCost'] });
  });

  /** What a MarkdownString renders to (GFM, as VS Code's renderer); links, images and HTML are what must not appear. */
  const rendered = (md: vscode.MarkdownString) => marked.parse(md.value, { async: false, gfm: true });
  const HOSTILE_MARKDOWN = `${COMMAND_LINK} ![img](https://evil.example/p.png) <b>x</b> <https://evil.example/auto>`;

  it('threads, the chat and the agent tool show model text in Markdown that runs no command and renders no HTML', () => {
    const finding: Finding = {
      id: 'f1', file: 'orders.py', agents: [HOSTILE_MARKDOWN], severity: 'high', title: HOSTILE_MARKDOWN, explanation: HOSTILE_MARKDOWN,
      advice: HOSTILE_MARKDOWN, cwe: HOSTILE_MARKDOWN, startLine: 4, endLine: 4, confidence: 0.9,
    };
    // A thread's finding, a follow-up answer (and why it stopped), a chat line and the tool's confirmation.
    const built = [findingMarkdown(finding, 'old()', 'new()'), answerMarkdown(HOSTILE_MARKDOWN, escapeMarkdown(HOSTILE_MARKDOWN)), untrustedMarkdown(escapeMarkdown(HOSTILE_MARKDOWN))];
    for (const md of built) {
      assert.equal(md.isTrusted, false);
      assert.equal(md.supportHtml, false);
      const html = rendered(md);
      assert.doesNotMatch(html, /<a |<img|<b>/, html);
    }
  });

  it('the outcomes view shows agent and model names as text: plain labels, an untrusted tooltip that escapes them', () => {
    const counts = { raised: 3, addressed: 1, dismissed: 1, open: 1, gone: 0, refuted: 0, costUsd: 0.01 };
    const item = api.outcomes.view.tree.getTreeItem({ kind: 'key', group: 'byModel', key: HOSTILE_MARKDOWN, counts });
    assert.equal(item.label, HOSTILE_MARKDOWN, 'a tree label is plain text');
    const tip = item.tooltip;
    assert.ok(tip !== undefined && typeof tip !== 'string');
    assert.equal(tip.isTrusted, false);
    const html = rendered(tip);
    assert.doesNotMatch(html, /<a |<img|<b>/, html);
    assert.ok(html.includes('[gpt-4.2](command:quorum.resetCost)'), 'the name reads as it is');
  });

  it('the cost details quick pick shows $(icon) in agent and model names as text', () => {
    const items = detailItems({ session: totals(), byAgent: { '$(zap)agent': totals() }, byModel: { '$(gear)model': totals() } }, 0, 0);
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('$(person) \\$(zap)agent') && labels.includes('$(symbol-class) \\$(gear)model'), labels.join('\n'));
  });
  it('Apply: prose is advice, never a fix; bidi and wrong indentation are refused; low confidence is not the preferred fix; outside lines are marked', async () => {
    gateway.script(agentScript({ analyst: { findings: [
      { severity: 'high', title: 'Prose fix', explanation: 'x', startLine: 5, endLine: 5, suggestion: 'Use a parameterized query: cur.execute(...)', confidence: 0.9 },
      { severity: 'high', title: 'Bidi fix', explanation: 'x', startLine: 6, endLine: 6, replacement: '    return cur.fetchone()  # \u202E', confidence: 0.9 },
      { severity: 'medium', title: 'Unsure fix', explanation: 'x', startLine: 11, endLine: 11, replacement: '    for i in range(len(prices)):', confidence: 0.4 },
      { severity: 'medium', title: 'Sure fix', explanation: 'x', startLine: 12, endLine: 12, replacement: 'result += prices[i]', confidence: 0.9 },
      { severity: 'low', title: 'Far away', explanation: 'x', startLine: 54, endLine: 56, confidence: 0.9 },
      { severity: 'low', title: 'Far away and unsure', explanation: 'x', startLine: 54, endLine: 56, confidence: 0.2 },
      { severity: 'low', title: 'Trojan \u202Eevil\u202C title', explanation: 'reads \u2066backwards\u2069', startLine: 7, endLine: 7, confidence: 0.9 },
    ] } }));
    try {
      const editor = await openSample('orders.py');
      select(editor, 4, 13);
      const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
      assert.ok(summary);
      const uri = editor.document.uri;
      const byTitle = (title: string) => summary.findings.find((f) => f.title === title);
      assert.equal(byTitle('Prose fix')?.suggestion, undefined);
      assert.equal(byTitle('Prose fix')?.advice, 'Use a parameterized query: cur.execute(...)');
      assert.equal(byTitle('Far away and unsure'), undefined, 'dropped below the confidence floor');
      // The fix actions (not "Dismiss in this project" nor "Dismiss with a reason…", offered too in this trusted workspace; see noise.test.ts, outcomes.test.ts).
      const projectWide = (t: string) => t.startsWith('Quorum: Dismiss in this project') || t.startsWith('Quorum: Dismiss with a reason');
      const actionsAt = async (line: number) => (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(line - 1, 0, line - 1, 0))).filter((a) => a.title.startsWith('Quorum') && !projectWide(a.title));
      const titles = async (line: number, finding: string) => (await actionsAt(line)).filter((a) => a.title.endsWith(finding)).map((a) => a.title);
      assert.deepEqual(await titles(5, 'Prose fix'), ['Quorum: Dismiss — Prose fix']);
      assert.deepEqual(await titles(6, 'Bidi fix'), ['Quorum: Preview fix — Bidi fix', 'Quorum: Dismiss — Bidi fix']);
      const unsure = (await actionsAt(11)).filter((a) => a.title.endsWith('Unsure fix'));
      assert.deepEqual(unsure.map((a) => [a.title, a.isPreferred ?? false]), [['Quorum: Preview fix — Unsure fix', false], ['Quorum: Apply fix — Unsure fix', false], ['Quorum: Dismiss — Unsure fix', false]]);
      assert.equal((await actionsAt(12)).find((a) => a.title === 'Quorum: Apply fix — Sure fix')?.isPreferred, true);

      // Applying the bidi fix anyway (as the panel's button would) is refused and says why; the file is unchanged.
      const before = editor.document.getText();
      const bidi = byTitle('Bidi fix');
      assert.equal(await vscode.commands.executeCommand('quorum.internal.applyFix', summary.reviewId, bidi?.id), 'refused');
      assert.match((await prompter.next((c) => c.id === 'fix.bidi')).text ?? '', /U\+202E/);
      assert.equal(editor.document.getText(), before);
      // A column-0 replacement for indented lines is applied at their indentation.
      assert.equal(await vscode.commands.executeCommand('quorum.internal.applyFix', summary.reviewId, byTitle('Sure fix')?.id), 'applied');
      assert.equal(editor.document.lineAt(11).text, '        result += prices[i]');

      // Bidi controls in a title or explanation are shown as tokens in Problems and quick fix titles (they would
      // show "evil" as "live").
      const trojan = vscode.languages.getDiagnostics(uri).find((d) => d.message.startsWith('Trojan'));
      assert.equal(trojan?.message, 'Trojan <U+202E>evil<U+202C> title\nreads <U+2066>backwards<U+2069>');
      assert.deepEqual(await titles(7, 'title'), ['Quorum: Dismiss — Trojan <U+202E>evil<U+202C> title']);

      const far = vscode.languages.getDiagnostics(uri).find((d) => d.message.startsWith('Far away'));
      assert.equal(far?.range.start.line, 12);
      assert.match(far.message, /line\(s\) 54–56, outside the reviewed lines/);
    } finally {
      gateway.script(undefined);
      await closeAll();
    }
  });
});
