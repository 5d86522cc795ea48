import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { loadCorpus } from '../../src/core/eval/corpus';
import type { EvalReport } from '../../src/core/eval/runner';
import type { QuorumApi } from '../../src/vscode/api';
import { FAIL_PREFIX, ORACLE_COST_USD, corpusOracles } from '../fixtures/gateway/oracle';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { EXTENSION_ID, ScriptedPrompter, closeAll, quorum, setSetting } from './helpers';

const KEY = 'sk-quorum-compare-test-8e2a6c4f0b';

/** The cells of each row of the figures table the page shows, by model. */
function shownRows(html: string): Map<string, string[]> {
  const body = /<table id="figures">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  const rows = new Map<string, string[]>();
  for (const tr of body.match(/<tr[^>]*>[\s\S]*?<\/tr>/g) ?? []) {
    const cells = [...tr.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, '').trim());
    rows.set(cells[1] ?? '', cells);
  }
  return rows;
}

describe('Compare Models… (real VS Code, oracle models on the loopback gateway)', function () {
  this.timeout(120_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  const corpusDir = () => join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri.fsPath, 'eval', 'corpus');

  before(async () => {
    api = await quorum();
    gateway = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 100_000, oracles: corpusOracles(corpusDir()), models: ['oracle-perfect', 'oracle-noisy', 'gpt-4.1-mini'] });
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'limits.maxConcurrent', 8);
    api.usePrompter(new ScriptedPrompter().onInput('apiKey.input', () => KEY));
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    await vscode.workspace.getConfiguration('quorum').update('agents.security.model', undefined, vscode.ConfigurationTarget.Global);
    for (const key of ['gateway.baseUrl', 'limits.maxConcurrent']) await setSetting(api, key, undefined);
    await closeAll();
    await gateway.close();
  });

  it('runs two models over the shipped corpus, shows their exact figures, keeps them for Switch Model, and "Use for" sets the model', async () => {
    const prompter = new ScriptedPrompter()
      .onPick('compare.agent', (items) => items.find((i) => i.label.includes('Security')))
      .onPickMany('compare.models', (items) => items.filter((i) => i.label === 'oracle-perfect' || i.label === 'oracle-noisy'))
      .onMessage('compare.confirm', (actions) => actions[0]);
    api.usePrompter(prompter);
    const chatsBefore = gateway.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    const report = await vscode.commands.executeCommand<EvalReport>('quorum.compareModels');
    assert.ok(report, 'the comparison ran');
    assert.equal(report.cancelled, false);

    const corpus = await loadCorpus(corpusDir());
    const n = corpus.cases.length;
    const clean = corpus.cases.filter((c) => c.expected.length === 0);
    const failing = corpus.cases.filter((c) => c.id.startsWith(FAIL_PREFIX));
    const security = (cs: typeof corpus.cases) => cs.reduce((s, c) => s + c.expected.filter((e) => e.kind === 'security').length, 0);
    const S = security(corpus.cases);
    const tp = S - security(failing);
    const flawedOk = corpus.cases.filter((c) => c.expected.length > 0 && !c.id.startsWith(FAIL_PREFIX)).length;
    const cleanOk = clean.filter((c) => !c.id.startsWith(FAIL_PREFIX)).length;
    const p = tp / (tp + flawedOk + cleanOk);
    const r = tp / S;

    // What was asked: the models with their prices (none known for these), then the estimate before anything was sent.
    const offered = prompter.calls.find((c) => c.id === 'compare.models')?.items ?? [];
    assert.deepEqual(offered.map((i) => i.label).sort(), ['gemini-2.5-flash', 'gpt-4.1-mini', 'oracle-noisy', 'oracle-perfect']);
    assert.equal(offered.find((i) => i.label === 'oracle-perfect')?.description, 'price unknown');
    const confirm = prompter.calls.find((c) => c.id === 'compare.confirm');
    assert.match(confirm?.text ?? '', new RegExp(`^Compare 2 models for Security over ${n} cases \\(${2 * n} requests\\)`));
    assert.equal(gateway.requests.filter((x) => x.path.endsWith('/chat/completions')).length - chatsBefore, 2 * n, 'every case once per model, through the shared client');

    // The figures, as computed and as the page shows them.
    assert.deepEqual(report.runs.map((x) => x.model).sort(), ['oracle-noisy', 'oracle-perfect']);
    const perfect = report.runs.find((x) => x.model === 'oracle-perfect');
    const noisy = report.runs.find((x) => x.model === 'oracle-noisy');
    assert.deepEqual([perfect?.model, perfect?.precision, perfect?.recall, perfect?.f1, perfect?.failures, perfect?.costUsd], ['oracle-perfect', 1, 1, 1, 0, n * ORACLE_COST_USD]);
    assert.deepEqual([noisy?.model, noisy?.precision, noisy?.recall, noisy?.failures, noisy?.costUsd], ['oracle-noisy', p, r, failing.length, (n - failing.length) * ORACLE_COST_USD]);
    const rows = shownRows(api.compare.panel.html);
    assert.deepEqual(rows.get('oracle-perfect')?.slice(0, 6), ['security', 'oracle-perfect', '1.000', '1.000', '1.000', '0.00']);
    assert.equal(rows.get('oracle-perfect')?.[10], `0/${n}`);
    assert.deepEqual(rows.get('oracle-noisy')?.slice(2, 6), [p.toFixed(3), r.toFixed(3), ((2 * p * r) / (p + r)).toFixed(3), (cleanOk / clean.length).toFixed(2)]);
    assert.equal(rows.get('oracle-noisy')?.[10], `${failing.length}/${n}`, 'a failing model is shown with its failures');
    assert.match(api.compare.panel.html, new RegExp(`oracle-noisy: ${failing.length} of ${n} cases failed \\(`));
    assert.equal(rows.get('oracle-noisy')?.[11], 'Use for Security');
    assert.match(api.compare.panel.html, /<svg [^>]*class="cost-f1-chart"/);

    // Kept for Switch Model: the F1 beside the price.
    assert.deepEqual(api.compare.measured.all().filter((x) => x.agent === 'security').map((x) => [x.model, x.f1]).sort(), [['oracle-noisy', (2 * p * r) / (p + r)], ['oracle-perfect', 1]]);
    // …and in globalState (the store writes again if a burst of other writes undid its own; wait for it).
    const stored = () => (api.compare.measured as unknown as { state: vscode.Memento }).state.get<{ results?: unknown[] }>('quorum.eval.lastResults');
    while ((stored()?.results?.length ?? 0) < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    const switching = new ScriptedPrompter().onPick('switchModel.agent', (items) => items.find((i) => i.label.includes('Security')));
    api.usePrompter(switching);
    await vscode.commands.executeCommand('quorum.switchModel');
    const listed = switching.calls.find((c) => c.id === 'switchModel.model')?.items ?? [];
    assert.equal(listed.find((i) => i.label.includes('oracle-perfect'))?.description, 'F1 1.00 · price unknown');
    assert.equal(listed.find((i) => i.label.includes('gpt-4.1-mini'))?.description, '$0.40 in · $1.60 out / MTok', 'no F1 where none was measured');

    // "Use for Security" from the page: only a compared model, only a valid message.
    assert.equal(await api.compare.panel.receive({ type: 'useModel', agent: 'security', model: 'gpt-4.1-mini' }), false, 'not one of the compared models');
    assert.equal(await api.compare.panel.receive({ type: 'useModel', agent: 'security' }), false);
    assert.equal(await api.compare.panel.receive({ type: 'useModel', agent: 'analyst', model: 'oracle-noisy' }), false, 'another agent');
    assert.equal(vscode.workspace.getConfiguration('quorum').inspect('agents.security.model')?.globalValue, undefined);
    assert.equal(await api.compare.panel.receive({ type: 'useModel', agent: 'security', model: 'oracle-noisy' }), true);
    assert.equal(vscode.workspace.getConfiguration('quorum').inspect('agents.security.model')?.globalValue, 'oracle-noisy', 'user settings: the workspace does not set it');
    assert.equal(shownRows(api.compare.panel.html).get('oracle-noisy')?.[11], 'current', 'the page shows the new current model');
  });
});
