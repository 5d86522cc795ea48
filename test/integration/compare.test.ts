import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { loadCorpus } from '../../src/core/eval/corpus';
import { parseLastResults } from '../../src/core/eval/lastResults';
import type { EvalReport } from '../../src/core/eval/runner';
import { formatUsd } from '../../src/shared/format';
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
    gateway = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 100_000, oracles: corpusOracles(corpusDir()),
      // Beside the oracles, ids Quorum cannot use (links, markup, bidi controls); and a price for one oracle, as gateways list them.
      models: ['oracle-perfect', 'oracle-noisy', 'gpt-4.1-mini', '[x](command:quorum.resetCost)', '<img src=x onerror=alert(1)>', 'oracle\u202Eevil\u202C'],
      modelFields: { 'oracle-noisy': { pricing: { prompt: '0.000001', completion: '0.000002' } } } });
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
    assert.deepEqual(offered.map((i) => i.label).sort(), ['gemini-2.5-flash', 'gpt-4.1-mini', 'oracle-noisy', 'oracle-perfect'], 'ids that are not model ids are not offered');
    assert.equal(offered.find((i) => i.label === 'oracle-perfect')?.description, 'price unknown');
    assert.equal(offered.find((i) => i.label === 'oracle-noisy')?.description, "$1.00 in · $2.00 out / MTok (the gateway's list)");
    const confirm = prompter.calls.find((c) => c.id === 'compare.confirm');
    assert.equal(confirm?.detail, 'No price is known for oracle-perfect: its share is not in the estimate.', "the gateway's listed price prices oracle-noisy's share");
    assert.doesNotMatch(confirm?.text ?? '', /likely \$0\.00,/);
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
    assert.equal(listed.find((i) => i.label.includes('oracle-perfect'))?.description, 'F1 1.00 on shipped corpus · price unknown');
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

  it('after a window reload the page comes back from the kept comparison, or closes when nothing valid is kept', async () => {
    // VS Code brings an open page back through Quorum's serializer: one is registered for the page's view type.
    assert.throws(() => vscode.window.registerWebviewPanelSerializer('quorum.compare', { deserializeWebviewPanel: () => Promise.resolve() }));
    const before = shownRows(api.compare.panel.html);
    assert.equal(before.size, 2, 'the first test left its comparison');
    await closeAll();
    assert.equal(api.compare.panel.isOpen, false);
    // As VS Code does after a reload: a page of the view type, with default options, handed to the serializer.
    const restored = vscode.window.createWebviewPanel('quorum.compare', 'restored', vscode.ViewColumn.Active, {});
    api.compare.panel.restore(restored);
    assert.ok(api.compare.panel.isOpen);
    const rows = shownRows(api.compare.panel.html);
    for (const model of ['oracle-perfect', 'oracle-noisy']) assert.deepEqual(rows.get(model)?.slice(0, 11), before.get(model)?.slice(0, 11), model);
    assert.equal(rows.get('oracle-noisy')?.[11], 'current', 'the model in use now (set by "Use for" above)');
    assert.equal(rows.get('oracle-perfect')?.[11], 'Use for Security');
    assert.match(api.compare.panel.html, /<svg [^>]*class="cost-f1-chart"/);
    assert.match(api.compare.panel.html, /<table id="thresholds">/);
    assert.equal(restored.webview.html, api.compare.panel.html);
    assert.equal(restored.webview.options.enableScripts, true);
    assert.equal(restored.webview.options.enableCommandUris, false);
    assert.deepEqual(restored.webview.options.localResourceRoots?.map((u) => u.path.split('/').slice(-1)[0]), ['dist', 'media']);
    assert.equal(restored.title, 'Quorum: Compare Models');
    // The restored page works: "Use for" sets the model.
    assert.equal(await api.compare.panel.receive({ type: 'useModel', agent: 'security', model: 'oracle-perfect' }), true);
    assert.equal(vscode.workspace.getConfiguration('quorum').inspect('agents.security.model')?.globalValue, 'oracle-perfect');
    assert.equal(shownRows(api.compare.panel.html).get('oracle-perfect')?.[11], 'current');

    const closes = (panel: vscode.WebviewPanel) => new Promise<boolean>((resolve) => {
      let closed = false;
      panel.onDidDispose(() => (closed = true));
      api.compare.panel.restore(panel);
      resolve(closed);
    });
    // A second page while one is open is closed, not left empty.
    assert.equal(await closes(vscode.window.createWebviewPanel('quorum.compare', 'second', vscode.ViewColumn.Active, {})), true);
    assert.ok(api.compare.panel.isOpen);
    // Nothing kept, or something that does not parse: the page closes.
    await closeAll();
    const state = (api.compare.panel as unknown as { deps: { state: vscode.Memento } }).deps.state;
    const kept = state.get<unknown>('quorum.compare.shown');
    try {
      for (const stored of [undefined, { version: 1, runs: 'garbage' }, { ...(kept as object), runs: [] }]) {
        await state.update('quorum.compare.shown', stored);
        assert.equal(await closes(vscode.window.createWebviewPanel('quorum.compare', 'stale', vscode.ViewColumn.Active, {})), true, JSON.stringify(stored));
        assert.equal(api.compare.panel.isOpen, false);
      }
    } finally {
      await state.update('quorum.compare.shown', kept);
    }
  });

  describe('Cancel on the progress notification', () => {
    const isChat = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith('/chat/completions');
    /** Figures in globalState measured since `since` (an earlier comparison's may still be written again: see MeasuredModels). */
    const storedSince = (since: Date) => parseLastResults((api.compare.measured as unknown as { state: vscode.Memento }).state.get<unknown>('quorum.eval.lastResults')).filter((r) => r.measuredAt >= since.toISOString());
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let prompter: ScriptedPrompter;

    beforeEach(async () => {
      await closeAll();
      prompter = new ScriptedPrompter()
        .onPick('compare.agent', (items) => items.find((i) => i.label.includes('Security')))
        .onPickMany('compare.models', (items) => items.filter((i) => i.label === 'oracle-perfect' || i.label === 'oracle-noisy'))
        .onMessage('compare.confirm', (actions) => actions[0]);
      api.usePrompter(prompter);
    });
    afterEach(() => gateway.script(undefined));

    /** Starts a comparison whose chat requests after the first `answered` are held open by the gateway; cancels it once `answered` cases are done and every slot of the shared client holds a stream. */
    async function cancelAfter(answered: number): Promise<{ report: EvalReport; sentAtCancel: number }> {
      let chats = 0;
      gateway.script((req) => (isChat(req) && ++chats > answered ? { kind: 'hang' } : undefined));
      const running = vscode.commands.executeCommand<EvalReport>('quorum.compareModels');
      if (answered > 0) await prompter.next((c) => c.kind === 'progress' && c.text?.startsWith(`${answered} of `) === true);
      while (gateway.inFlight < 8) await sleep(20);
      const sentAtCancel = gateway.requests.filter(isChat).length;
      assert.equal(prompter.cancelProgress('compare.progress'), true, 'the comparison runs under a cancellable progress');
      return { report: await running, sentAtCancel };
    }

    it('stops every stream, keeps no figure, and says what was measured (per model) and spent', async () => {
      const n = (await loadCorpus(corpusDir())).cases.length;
      const keptBefore = JSON.stringify(api.compare.measured.all());
      const started = new Date();
      const { report, sentAtCancel } = await cancelAfter(3);
      assert.equal(report.cancelled, true);
      assert.deepEqual(report.finished, [3, 0], 'three cases of the first model finished; none of the second');
      // The client holds and waits for nothing, the gateway sees every held stream closed, and nothing was sent after Cancel.
      assert.deepEqual([api.gatewayStats().inFlight, api.gatewayStats().queued], [0, 0]);
      while (gateway.inFlight > 0) await sleep(20);
      assert.equal(gateway.requests.filter(isChat).length, sentAtCancel, 'no request after Cancel');
      // No half-written figures: neither the session's store nor globalState changed.
      assert.equal(JSON.stringify(api.compare.measured.all()), keptBefore);
      assert.deepEqual(storedSince(started), []);
      // What was measured, in the notification and on the page.
      const told = prompter.messagesWith('compare.stopped');
      assert.equal(told.length, 1);
      const [first, second] = report.runs.map((r) => r.model);
      assert.equal(told[0]?.text, `Quorum stopped comparing models after 3 of ${2 * n} cases (${first} 3/${n}, ${second} 0/${n}; ${formatUsd(3 * ORACLE_COST_USD)} spent). The figures count unfinished cases as failures and are not kept for Switch Model.`);
      assert.equal(report.spentUsd, 3 * ORACLE_COST_USD);
      assert.ok(api.compare.panel.isOpen);
      assert.match(api.compare.panel.html, new RegExp(`Stopped after 3 of ${2 * n} cases: unfinished cases count as failures`));
      assert.equal(shownRows(api.compare.panel.html).get(first ?? '')?.[10], `${n - 3}/${n}`);
      assert.ok(api.compare.panel.html.includes(`${first}: ${n - 3} of ${n} cases failed (cancelled ×${n - 3})`), 'unfinished cases are said to be cancelled');
      assert.ok(api.compare.panel.html.includes(`${second}: ${n} of ${n} cases failed (cancelled ×${n})`));
    });

    it('says that nothing was measured, and opens no page, when no case had finished', async () => {
      const keptBefore = JSON.stringify(api.compare.measured.all());
      const started = new Date();
      const { report, sentAtCancel } = await cancelAfter(0);
      assert.deepEqual([report.cancelled, report.finished, report.spentUsd], [true, [0, 0], 0]);
      assert.deepEqual([api.gatewayStats().inFlight, api.gatewayStats().queued], [0, 0]);
      while (gateway.inFlight > 0) await sleep(20);
      assert.equal(gateway.requests.filter(isChat).length, sentAtCancel, 'no request after Cancel');
      assert.equal(JSON.stringify(api.compare.measured.all()), keptBefore);
      assert.deepEqual(storedSince(started), []);
      assert.deepEqual(prompter.messagesWith('compare.stopped').map((m) => m.text), [`Quorum stopped comparing models before any case was measured (${formatUsd(0)} spent). Nothing is kept.`]);
      assert.equal(api.compare.panel.isOpen, false, 'no page of empty figures');
    });
  });

  describe('quorum.eval.corpus: a team\'s own corpus', () => {
    const isChat = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith('/chat/completions');
    const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    let prompter: ScriptedPrompter;

    /** A corpus folder: each case an `expected.json` (as given) beside `app.py`. */
    function corpus(cases: Record<string, unknown>): string {
      const dir = mkdtempSync(join(tmpdir(), 'quorum-own-corpus-'));
      writeFileSync(join(dir, 'README.md'), 'not a case');
      mkdirSync(join(dir, 'notes'));
      for (const [id, expected] of Object.entries(cases)) {
        mkdirSync(join(dir, id));
        writeFileSync(join(dir, id, 'app.py'), 'import sqlite3\ndef find(db, name):\n    return db.execute("SELECT * FROM users WHERE name = \'" + name + "\'")\n');
        writeFileSync(join(dir, id, 'expected.json'), JSON.stringify(expected));
      }
      return dir;
    }
    const FLAWED = { language: 'python', file: 'app.py', findings: [{ startLine: 3, endLine: 3, kind: 'security', cwe: 'CWE-89' }] };
    const CLEAN = { language: 'python', file: 'app.py', findings: [] };

    beforeEach(async () => {
      await closeAll();
      prompter = new ScriptedPrompter()
        .onPick('compare.agent', (items) => items.find((i) => i.label.includes('Security')))
        .onPickMany('compare.models', (items) => items.filter((i) => i.label === 'oracle-perfect' || i.label === 'oracle-noisy'))
        .onMessage('compare.confirm', (actions) => actions[0]);
      api.usePrompter(prompter);
    });
    afterEach(async () => {
      api.useWorkspaceTrust(undefined);
      await setSetting(api, 'eval.corpus', undefined);
    });

    it('runs the corpus the setting names, relative to the workspace folder, and names it on the page', async () => {
      const dir = corpus({ 'sql-flawed': FLAWED, 'sql-fixed': CLEAN });
      const setting = relative(folder(), dir);
      assert.ok(!setting.startsWith('/'), 'a relative path');
      await setSetting(api, 'eval.corpus', setting);
      const chatsBefore = gateway.requests.filter(isChat).length;
      const report = await vscode.commands.executeCommand<EvalReport>('quorum.compareModels');
      assert.ok(report);
      assert.match(prompter.calls.find((c) => c.id === 'compare.confirm')?.text ?? '', /^Compare 2 models for Security over 2 cases \(4 requests\)/);
      assert.equal(gateway.requests.filter(isChat).length - chatsBefore, 4);
      assert.deepEqual(report.runs.map((r) => r.cases), [2, 2]);
      assert.equal(report.runs.find((r) => r.model === 'oracle-perfect')?.recall, 0, 'the oracle knows only the shipped cases: it reports nothing here');
      assert.ok(api.compare.panel.html.includes(`${setting} · 2 cases (1 clean)`), 'the page names the corpus');
    });

    it('Switch Model shows the F1 measured on the corpus in use, naming it, and none measured on another corpus', async () => {
      /** What Switch Model says beside oracle-perfect's price for the Security agent. */
      const shown = async () => {
        const switching = new ScriptedPrompter().onPick('switchModel.agent', (items) => items.find((i) => i.label.includes('Security')));
        api.usePrompter(switching);
        await vscode.commands.executeCommand('quorum.switchModel');
        api.usePrompter(prompter);
        return switching.calls.find((c) => c.id === 'switchModel.model')?.items?.find((i) => i.label.includes('oracle-perfect'))?.description;
      };
      const setting = relative(folder(), corpus({ 'sql-flawed': FLAWED, 'sql-fixed': CLEAN }));
      await setSetting(api, 'eval.corpus', setting);
      assert.ok(await vscode.commands.executeCommand<EvalReport>('quorum.compareModels'));
      // The oracle knows only the shipped cases: on this corpus it reports nothing (F1 undefined), not its shipped 1.00.
      assert.equal(await shown(), `F1 – on ${setting} · price unknown`);
      // Another corpus, never measured: no figure at all.
      await setSetting(api, 'eval.corpus', corpus({ 'sql-fixed': CLEAN }));
      assert.equal(await shown(), 'price unknown');
      // Back on the shipped corpus: its own figure (the first test's), kept beside the other corpus's.
      await setSetting(api, 'eval.corpus', undefined);
      assert.equal(await shown(), 'F1 1.00 on shipped corpus · price unknown');
      // In an untrusted workspace the setting is ignored, and so are the figures measured on it.
      await setSetting(api, 'eval.corpus', setting);
      api.useWorkspaceTrust(false);
      assert.equal(await shown(), 'F1 1.00 on shipped corpus · price unknown');
    });

    it('a malformed case, or a folder without cases, stops before any question or request, naming the case and the field', async () => {
      const bad = corpus({ 'sql-fixed': CLEAN, 'sql-flawed': { ...FLAWED, findings: [{ startLine: 3, endLine: 3, kind: 'security' }] } });
      await setSetting(api, 'eval.corpus', bad);
      const before = gateway.requests.length;
      assert.equal(await vscode.commands.executeCommand('quorum.compareModels'), undefined);
      assert.deepEqual(prompter.calls.map((c) => [c.kind, c.id]), [['message', 'compare.invalid']], 'nothing asked');
      assert.equal(prompter.calls[0]?.text, `Quorum cannot compare models: the corpus of quorum.eval.corpus (${bad}): case "sql-flawed": findings.0.cwe: cwe is required for a security finding`);
      assert.equal(prompter.calls[0]?.level, 'error');

      const empty = corpus({});
      await setSetting(api, 'eval.corpus', empty);
      assert.equal(await vscode.commands.executeCommand('quorum.compareModels'), undefined);
      assert.match(prompter.calls.at(-1)?.text ?? '', new RegExp(`^Quorum cannot compare models: the corpus of quorum\\.eval\\.corpus \\([^)]+\\): the corpus folder "[^"]+" holds no case`));
      assert.equal(gateway.requests.length, before, 'no request at all, /models included');
    });

    it('is ignored in an untrusted workspace, which is said, and the shipped corpus is measured', async () => {
      await setSetting(api, 'eval.corpus', corpus({ 'sql-flawed': FLAWED }));
      api.useWorkspaceTrust(false);
      prompter.onMessage('compare.confirm', () => undefined);
      const n = (await loadCorpus(corpusDir())).cases.length;
      assert.equal(await vscode.commands.executeCommand('quorum.compareModels'), undefined);
      const told = prompter.messagesWith('compare.corpusUntrusted');
      assert.equal(told.length, 1);
      assert.equal(told[0]?.level, 'warning');
      assert.match(told[0]?.text ?? '', /^This workspace is not trusted: quorum\.eval\.corpus \(".*quorum-own-corpus-[^"]*"\) is ignored and the shipped corpus is measured\.$/);
      assert.match(prompter.calls.find((c) => c.id === 'compare.confirm')?.text ?? '', new RegExp(`over ${n} cases`));
    });
  });
});
